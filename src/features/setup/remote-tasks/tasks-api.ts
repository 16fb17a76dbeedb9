import { api } from '../../../shared/api';
import {
  pendingConfigResponseSchema,
  radarSettingsResponseSchema,
  taskListSchema,
  taskResponseSchema,
  type CreateTaskRequest,
  type PendingConfig,
} from '../../../contract/downlink-task.schema';
import { firmwareListSchema } from '../../../contract/sensor.schema';

/** The gateway calls of the remote-task screens (sensor-setup 7). */
export function tasksApi(orgId: string, sensorId: string) {
  const base = `/organisations/${orgId}/sensors/${sensorId}`;
  return {
    list: (limit: number) => api.get(`${base}/downlink-tasks`, { query: { limit }, schema: taskListSchema }),
    create: async (req: CreateTaskRequest) => (await api.post(`${base}/downlink-tasks`, req, { schema: taskResponseSchema })).task,
    cancel: async (taskId: string) => (await api.patch(`${base}/downlink-tasks/${taskId}`, { status: 'Canceled' }, { schema: taskResponseSchema })).task,
    putPending: (pending: PendingConfig) => api.put(`${base}/pending-config`, pending, { schema: pendingConfigResponseSchema }),
    deletePending: () => api.delete(`${base}/pending-config`, undefined, { schema: pendingConfigResponseSchema }),
    radarSettings: async () => (await api.get(`${base}/radar-settings`, { schema: radarSettingsResponseSchema })).radarSettings,
    firmware: async () => (await api.get('/admin/firmware', { schema: firmwareListSchema })).firmware,
  };
}
export type TasksApi = ReturnType<typeof tasksApi>;
