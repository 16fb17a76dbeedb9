import { EXCEPTION_LABELS, routeProgress, type MeterReading, type RouteProgress, type RouteTask } from '../../contract/route.schema';

/**
 * Pure rules of the service-route screens (organisation-and-routes 2.4, 4, 9): progress, time
 * taken, labels, page sizes and the filters both tables share.
 */

export const TASK_PAGE_SIZE = 100;
export const READING_PAGE_SIZE = 1000;
/** Section 9's horizontal scroll widths of the two tables. */
export const TASK_TABLE_WIDTH = 2000;
export const READING_TABLE_WIDTH = 2200;
export const EXPORT_DISABLED_MS = 2000;

export const PROGRESS_STATES: RouteProgress[] = ['Exported', 'Complete', 'Active', 'Waiting'];
export const DEFAULT_PROGRESS: RouteProgress[] = ['Complete', 'Active', 'Waiting'];

// the percent rule is shared with the reader app
export { progressPercent } from '../../contract/route.schema';

/** estTimeSpent if valid; otherwise completedAt - startedAt; otherwise now - startedAt. */
export function timeTakenMs(t: Pick<RouteTask, 'estTimeSpent' | 'startedAt' | 'completedAt'>, now: number): number | null {
  if (t.estTimeSpent !== null && Number.isFinite(t.estTimeSpent) && t.estTimeSpent >= 0) return t.estTimeSpent;
  if (t.startedAt === null) return null;
  if (t.completedAt !== null) return Math.max(0, t.completedAt - t.startedAt);
  return Math.max(0, now - t.startedAt);
}

/** "Xh Ym" */
export function hoursMinutes(ms: number): string {
  const minutes = Math.floor(ms / 60_000);
  return `${Math.floor(minutes / 60)}h ${minutes % 60}m`;
}

/** Ongoing: started and not completed (the time taken shows a clock icon). */
export const isOngoing = (t: Pick<RouteTask, 'startedAt' | 'completedAt'>) => t.startedAt !== null && t.completedAt === null;

export { routeProgress };

/** "12 SMITH STREET" -> "12 Smith Street" (the address column is start-cased). */
export function startCase(s: string): string {
  return s.toLowerCase().replace(/(^|[\s\-/(])([a-z])/g, (_, sep: string, c: string) => sep + c.toUpperCase());
}

export { EXCEPTION_LABELS };
/** "No Error" stands for none. */
export const exceptionLabel = (e: MeterReading['exception']) => EXCEPTION_LABELS[e ?? 'NoError'];

/** Case-insensitive substring match of a text filter ('' matches everything). */
export const textMatches = (value: string | number | null | undefined, filter: string) => !filter.trim() || String(value ?? '').toLowerCase().includes(filter.trim().toLowerCase());

/** The assignee filter's value for a task without one. */
export const UNASSIGNED = '__unassigned__';

export interface TaskFilters {
  taskNumber: string;
  routeName: string;
  group: string;
  suburb: string;
  classification: string[];
  assignee: string[];
  progress: RouteProgress[];
}
export const DEFAULT_TASK_FILTERS: TaskFilters = { taskNumber: '', routeName: '', group: '', suburb: '', classification: [], assignee: [], progress: DEFAULT_PROGRESS };

export function taskMatches(t: RouteTask, f: TaskFilters): boolean {
  return (
    textMatches(t.taskNumber, f.taskNumber) &&
    textMatches(t.routeName, f.routeName) &&
    textMatches(t.group, f.group) &&
    textMatches(t.suburb, f.suburb) &&
    (f.classification.length === 0 || f.classification.includes(t.type ?? '')) &&
    (f.assignee.length === 0 || f.assignee.includes(t.assignedTo?.cognitoIdentityId ?? UNASSIGNED)) &&
    (f.progress.length === 0 || f.progress.includes(routeProgress(t)))
  );
}

/** Exceptions CSV rows (7.3): completed readings with an exception other than none, or a code or the service flag. */
export const isExceptionRow = (r: Pick<MeterReading, 'completed' | 'exception' | 'cantReadCode' | 'commentCode' | 'serviceRequired'>) =>
  r.completed && ((r.exception !== null && r.exception !== 'NoError') || r.cantReadCode !== null || r.commentCode !== null || r.serviceRequired);

/** Export is offered for tasks that are completed (Complete or Exported). */
export const isCompleted = (t: Pick<RouteTask, 'completedAt'>) => t.completedAt !== null;
/** Delete applies only to tasks not started. */
export const isDeletable = (t: Pick<RouteTask, 'completedReadings' | 'startedAt'>) => t.completedReadings === 0;

export const ALREADY_EXPORTED_ONE = 'This route task has already been exported once';
export const ALREADY_EXPORTED_SOME = 'Some of the selected route tasks have already been exported once';
