import { memberListSchema } from '../../contract/member.schema';
import {
  meterReadingAnswerSchema,
  meterReadingListSchema,
  routeMetadataSchema,
  routeTaskAnswerSchema,
  routeTaskDeletedSchema,
  routeTaskListSchema,
  type MeterReadingPatch,
  type RouteImport,
  type RouteMetadataUpsert,
  type RouteTaskPatch,
  type SpecialRouteCreate,
} from '../../contract/route.schema';
import { api, gatewayEndpoint, getIdToken } from '../../shared/api';

/** The meter-reading gateway calls (organisation-and-routes 7.3) the screens make. */
export function routesApi(orgId: string) {
  const base = `/organisations/${orgId}`;
  return {
    list: async () => (await api.get(`${base}/routes`, { schema: routeTaskListSchema })).routes,
    importRoute: async (payload: RouteImport) => (await api.post(`${base}/routes`, payload, { schema: routeTaskAnswerSchema })).task,
    createSpecial: async (payload: SpecialRouteCreate) => (await api.post(`${base}/special-routes`, payload, { schema: routeTaskAnswerSchema })).task,
    patch: async (taskId: string, patch: RouteTaskPatch) => (await api.patch(`${base}/routes/${taskId}`, patch, { schema: routeTaskAnswerSchema })).task,
    remove: (taskId: string) => api.delete(`${base}/routes/${taskId}`, undefined, { schema: routeTaskDeletedSchema }),
    metadata: (routeName: string, body: RouteMetadataUpsert) => api.post(`${base}/route-meta-data/${encodeURIComponent(routeName)}`, body, { schema: routeMetadataSchema }),
    readings: (taskId: string) => api.get(`${base}/routes/${taskId}/meter-readings`, { schema: meterReadingListSchema }),
    editReading: (taskId: string, readingId: string, patch: MeterReadingPatch) =>
      api.patch(`${base}/routes/${taskId}/meter-readings/${readingId}`, patch, { schema: meterReadingAnswerSchema }),
    members: async () => (await api.get(`${base}/members`, { schema: memberListSchema })).members,
    /** The photo bytes (GET .../photo, signed like every call) as an object URL the caller revokes. */
    photo: async (photoPath: string, signal?: AbortSignal) => {
      const token = await getIdToken();
      const res = await fetch(new URL(gatewayEndpoint().replace(/\/$/, '') + photoPath.replace(/^\/api\//, '/'), location.href), { headers: token ? { Authorization: token } : {}, signal });
      if (!res.ok) throw new Error(`photo ${res.status}`);
      return URL.createObjectURL(await res.blob());
    },
  };
}
export type RoutesApi = ReturnType<typeof routesApi>;
