import { useMemo } from 'react';
import { Navigate, Route, Routes } from 'react-router-dom';
import { ROLES, type Organisation } from '../../contract/organisation.schema';
import type { TimeDisplay } from '../../domain/time-format';
import { ReadingPage } from './reading-page';
import { routeFiles, type RouteFiles } from './route-files';
import { RouteTasksPage } from './route-tasks-page';
import { routesApi } from './routes-api';
import { RoutesContext, type RoutesContextValue } from './routes-context';
import { TaskDetailPage } from './task-detail-page';
import { useRouteTasks } from './use-routes-data';

/**
 * /org/{slug}/service-routes/* (organisation-and-routes 2.4): the task list, a task's readings and
 * one reading. The app checks the feature and the meter-reader refusal before this renders.
 */
export function ServiceRoutesArea({ org, orgPath, timeDisplay, files = routeFiles }: { org: Organisation; orgPath: string; timeDisplay: TimeDisplay; files?: RouteFiles }) {
  const api = useMemo(() => routesApi(org.id), [org.id]);
  const tasks = useRouteTasks(api);
  const base = `${orgPath}/service-routes`;
  const value = useMemo<RoutesContextValue>(
    () => ({
      api,
      files,
      base,
      orgId: org.id,
      timeZone: org.locale.timezone,
      councilFileEncoding: org.councilFileEncoding ?? 'UTF-8',
      timeDisplay,
      manager: org.role === ROLES.ADMIN || org.role === ROLES.OWNER,
      tasks: tasks.state,
      refreshTasks: tasks.refresh,
      replaceTasks: tasks.replace,
    }),
    [api, files, base, org.id, org.locale.timezone, org.councilFileEncoding, org.role, timeDisplay, tasks.state, tasks.refresh, tasks.replace],
  );
  return (
    <RoutesContext.Provider value={value}>
      <Routes>
        <Route index element={<RouteTasksPage />} />
        <Route path=":taskNumber" element={<TaskDetailPage />} />
        <Route path=":taskNumber/reading/:readingId" element={<ReadingPage />} />
        <Route path="*" element={<Navigate to={base} replace />} />
      </Routes>
    </RoutesContext.Provider>
  );
}
