import { useCallback, useEffect, useState } from 'react';
import { notifications } from '@mantine/notifications';
import { ROUTE_MESSAGES, type MeterReading, type RouteTask } from '../../contract/route.schema';
import { download, type ExportMode } from './route-files';
import { EXPORT_DISABLED_MS } from './route-format';
import { useRoutes } from './routes-context';

/**
 * Export (section 4): the council results file of each task is formatted in the worker and
 * downloaded, then the task is marked exported. Exceptions only downloads the exceptions file
 * and leaves the flag alone. To CSV: the readings of several tasks in one CSV.
 */
export function useExporter() {
  const { api, files, replaceTasks, timeZone, councilFileEncoding } = useRoutes();
  const [busy, setBusy] = useState(false);

  const exportTasks = async (tasks: RouteTask[], mode: ExportMode, known?: MeterReading[]) => {
    setBusy(true);
    try {
      for (const task of tasks) {
        const readings = known ?? (await api.readings(task.id)).readings;
        const file = await files.resultsFile(task, readings, mode, timeZone, councilFileEncoding);
        download(file);
        if (file.replaced) warnReplaced(file.filename, file.replaced, councilFileEncoding);
        if (mode === 'all') replaceTasks([await api.patch(task.id, { exported: true })]);
      }
      return true;
    } catch (e) {
      notifications.show({ closeButtonProps: { 'aria-label': 'Dismiss' }, color: 'red', title: 'Export failed', message: e instanceof Error ? e.message : 'Something went wrong.', autoClose: 6000 });
      return false;
    } finally {
      setBusy(false);
    }
  };

  const tasksToCsv = async (tasks: RouteTask[], mode: ExportMode) => {
    setBusy(true);
    try {
      const withReadings = await Promise.all(tasks.map(async (task) => ({ task, readings: (await api.readings(task.id)).readings })));
      download(await files.tasksCsv(withReadings, mode, timeZone));
      return true;
    } catch {
      notifications.show({ closeButtonProps: { 'aria-label': 'Dismiss' }, color: 'red', message: ROUTE_MESSAGES.CSV_FAILED, autoClose: 6000 });
      return false;
    } finally {
      setBusy(false);
    }
  };

  return { busy, exportTasks, tasksToCsv };
}

/** Characters the council file's encoding cannot hold were written as '?': say so, naming the file. */
function warnReplaced(filename: string, count: number, encoding: string) {
  notifications.show({
    closeButtonProps: { 'aria-label': 'Dismiss' },
    color: 'yellow',
    title: 'Some characters were replaced',
    message: `${filename}: ${count} character${count === 1 ? '' : 's'} that ${encoding} cannot hold ${count === 1 ? 'was' : 'were'} written as "?".`,
    autoClose: 10000,
  });
}

/** The Export button is disabled for 2 seconds after a click (organisation-and-routes 4), on the route list and the task page alike. */
export function useExportCooldown(): [cooling: boolean, start: () => void] {
  const [until, setUntil] = useState(0);
  useEffect(() => {
    if (until === 0) return;
    const t = setTimeout(() => setUntil(0), Math.max(0, until - Date.now()));
    return () => clearTimeout(t);
  }, [until]);
  const start = useCallback(() => setUntil(Date.now() + EXPORT_DISABLED_MS), []);
  return [until > 0, start];
}
