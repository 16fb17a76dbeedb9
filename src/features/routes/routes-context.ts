import { createContext, useContext } from 'react';
import type { RouteTask } from '../../contract/route.schema';
import type { CouncilFileEncoding } from '../../contract/organisation.schema';
import type { TimeDisplay } from '../../domain/time-format';
import type { RoutesApi } from './routes-api';
import type { RouteFiles } from './route-files';
import type { Loadable } from './use-routes-data';

/** What the three service-route pages share: the calls, the task list and who is looking. */
export interface RoutesContextValue {
  api: RoutesApi;
  files: RouteFiles;
  /** '/org/{slug}/service-routes' */
  base: string;
  orgId: string;
  timeZone: string;
  /** The organisation's council file encoding (Settings, Details). */
  councilFileEncoding: CouncilFileEncoding;
  timeDisplay: TimeDisplay;
  /** Owner or admin: the only roles with action controls (section 6). */
  manager: boolean;
  tasks: Loadable<RouteTask[]>;
  refreshTasks(): Promise<void>;
  /** Put tasks an update answered with into the list. */
  replaceTasks(tasks: RouteTask[]): void;
}

export const RoutesContext = createContext<RoutesContextValue | null>(null);

export function useRoutes(): RoutesContextValue {
  const v = useContext(RoutesContext);
  if (!v) throw new Error('useRoutes outside the service-routes area');
  return v;
}
