import { one, type Queryable } from '../db/db';
import { HttpError, notFound } from '../http/errors';
import {
  ROUTE_ERROR_CODES,
  routeTaskSchema,
  type MeterInfo,
  type MeterReading,
  type RouteTask,
} from '../../src/contract/route.schema';

/** Database rows of route_tasks and meter_readings, and their contract shapes. */

export interface TaskRow {
  id: string;
  org_id: string;
  task_number: number;
  route_name: string;
  group_name: string | null;
  is_special: boolean;
  assigned_to: string | null;
  iteration_number: string | null;
  started_at: number | null;
  completed_at: number | null;
  exported: boolean;
  est_time_spent: number | null;
  created_at: number;
}

interface TaskListRow extends TaskRow {
  suburb: string | null;
  type: RouteTask['type'];
  assignee_name: string | null;
  assignee_email: string | null;
  total: number | null;
  completed: number | null;
  exceptions: number | null;
}

export interface ReadingRow {
  id: string;
  route_task_id: string;
  sequence: number;
  meter_info: Partial<MeterInfo>;
  ozone_reference: string | null;
  value: number | null;
  recorded_at: number | null;
  recorded_by: string | null;
  completed: boolean;
  notes: string | null;
  cant_read_code: string | null;
  comment_code: string | null;
  exception: string | null;
  service_required: boolean;
  edited: boolean;
  photo_url: string | null;
  last_recorded_reading: number | null;
  imported_prev_reading: { value: number; date: number } | null;
  position: MeterReading['position'];
  reason: string | null;
}

export const taskNotFound = () => notFound(ROUTE_ERROR_CODES.ROUTE_TASK_NOT_FOUND, 'Route task not found.');
export const readingNotFound = () => notFound(ROUTE_ERROR_CODES.METER_READING_NOT_FOUND, 'Meter reading not found.');

const TASK_SELECT = `
  SELECT t.*, md.suburb, md.type, u.name AS assignee_name, u.email AS assignee_email, c.total, c.completed, c.exceptions
  FROM route_tasks t
  LEFT JOIN route_metadata md ON md.org_id = t.org_id AND md.route_name = t.route_name
  LEFT JOIN users u ON u.id = t.assigned_to
  LEFT JOIN LATERAL (
    SELECT count(*)::int AS total,
           (count(*) FILTER (WHERE r.completed))::int AS completed,
           (count(*) FILTER (WHERE r.completed AND r.exception IS NOT NULL AND r.exception <> 'NoError'))::int AS exceptions
    FROM meter_readings r WHERE r.route_task_id = t.id
  ) c ON true`;

const toTask = (r: TaskListRow): RouteTask =>
  routeTaskSchema.parse({
    id: r.id,
    organisationId: r.org_id,
    taskNumber: r.task_number,
    routeName: r.route_name,
    group: r.group_name,
    suburb: r.suburb,
    type: r.type,
    isSpecial: r.is_special,
    assignedTo: r.assigned_to ? { cognitoIdentityId: r.assigned_to, name: r.assignee_name ?? '', email: r.assignee_email ?? '' } : null,
    iterationNumber: r.iteration_number,
    startedAt: r.started_at,
    completedAt: r.completed_at,
    exported: r.exported,
    completedReadings: r.completed ?? 0,
    totalReadings: r.total ?? 0,
    totalExceptions: r.exceptions ?? 0,
    estTimeSpent: r.est_time_spent,
    createdAt: r.created_at,
  });

/** The organisation's route tasks, newest task number first; only those assigned to `assignee` when given. */
export async function listTasks(q: Queryable, orgId: string, assignee?: string): Promise<RouteTask[]> {
  const rows = await q.query<TaskListRow>(
    `${TASK_SELECT} WHERE t.org_id = $1 AND ($2::uuid IS NULL OR t.assigned_to = $2::uuid) ORDER BY t.task_number DESC`,
    [orgId, assignee ?? null],
  );
  return rows.map(toTask);
}

/** One task with counts, or 404. */
export async function getTask(q: Queryable, orgId: string, taskId: string): Promise<RouteTask> {
  const row = await one<TaskListRow>(q, `${TASK_SELECT} WHERE t.org_id = $1 AND t.id = $2`, [orgId, taskId]);
  if (!row) throw taskNotFound();
  return toTask(row);
}

/** The task row locked for the rest of the transaction (every change to a task or its readings takes it first), or 404. */
export async function lockTask(q: Queryable, orgId: string, taskId: string): Promise<TaskRow> {
  const row = await one<TaskRow>(q, 'SELECT * FROM route_tasks WHERE id = $1 AND org_id = $2 FOR UPDATE', [taskId, orgId]);
  if (!row) throw taskNotFound();
  return row;
}

export const photoPath = (orgId: string, taskId: string, readingId: string) => `/organisations/${orgId}/routes/${taskId}/meter-readings/${readingId}/photo`;

const READING_SELECT = `SELECT r.*, u.name AS recorder_name FROM meter_readings r LEFT JOIN users u ON u.id = r.recorded_by`;

/** The contract shape of a row; the gateway parses its answers with the contract once, so this does not. */
export const toReading = (orgId: string, r: ReadingRow & { recorder_name?: string | null }): MeterReading =>
  ({
    id: r.id,
    routeTaskId: r.route_task_id,
    sequence: r.sequence,
    meterInfo: {
      serial: r.meter_info.serial ?? '',
      location: r.meter_info.location ?? 'Unknown',
      propertyAddress: r.meter_info.propertyAddress ?? 'Unknown',
      ownerName: r.meter_info.ownerName ?? 'Unknown',
      valuationRef: r.meter_info.valuationRef ?? 'Unknown',
      additionalLocationInfo: r.meter_info.additionalLocationInfo ?? '',
      latitude: r.meter_info.latitude ?? null,
      longitude: r.meter_info.longitude ?? null,
    },
    ozoneReference: r.ozone_reference,
    value: r.value,
    recordedAt: r.recorded_at,
    recordedBy: r.recorded_by,
    recorderName: r.recorder_name ?? null,
    completed: r.completed,
    notes: r.notes,
    cantReadCode: r.cant_read_code,
    commentCode: r.comment_code,
    exception: r.exception,
    serviceRequired: r.service_required,
    edited: r.edited,
    photoUrl: r.photo_url ? photoPath(orgId, r.route_task_id, r.id) : null,
    lastRecordedReading: r.last_recorded_reading,
    importedPrevReading: r.imported_prev_reading,
    reason: r.reason,
    position: r.position ?? null,
  }) as MeterReading;

/**
 * A task's readings in sequence order. The rows come as one json_agg text: for 10,000 readings
 * that is 2 to 4 times faster on PGlite than 10,000 rows of 22 columns.
 */
export async function listReadings(q: Queryable, orgId: string, taskId: string): Promise<MeterReading[]> {
  const row = await one<{ j: string }>(
    q,
    `SELECT coalesce(json_agg(x ORDER BY x.sequence, x.id), '[]'::json)::text AS j FROM (${READING_SELECT} WHERE r.route_task_id = $1) x`,
    [taskId],
  );
  return (JSON.parse(row!.j) as (ReadingRow & { recorder_name: string | null })[]).map((r) => toReading(orgId, r));
}

export async function getReading(q: Queryable, orgId: string, taskId: string, readingId: string): Promise<MeterReading> {
  const row = await one<ReadingRow & { recorder_name: string | null }>(q, `${READING_SELECT} WHERE r.id = $1 AND r.route_task_id = $2`, [readingId, taskId]);
  if (!row) throw readingNotFound();
  return toReading(orgId, row);
}

/** The reading row locked (the task is locked first by the caller), or 404. */
export async function lockReading(q: Queryable, taskId: string, readingId: string): Promise<ReadingRow> {
  const row = await one<ReadingRow>(q, 'SELECT * FROM meter_readings WHERE id = $1 AND route_task_id = $2 FOR UPDATE', [readingId, taskId]);
  if (!row) throw readingNotFound();
  return row;
}

/** The next task number of the organisation; the organisation row is locked so two imports at once never share one. */
export async function nextTaskNumber(q: Queryable, orgId: string): Promise<number> {
  await q.query('SELECT id FROM organisations WHERE id = $1 FOR NO KEY UPDATE', [orgId]);
  const row = await one<{ n: number }>(q, 'SELECT (coalesce(max(task_number), 1000) + 1)::int AS n FROM route_tasks WHERE org_id = $1', [orgId]);
  return row!.n;
}

/** The previous reading a new value is compared with: the registry's last recorded value, else the imported one. */
export function previousOf(r: Pick<ReadingRow, 'last_recorded_reading' | 'imported_prev_reading'>): { previous: number | null; previousAt: number | null } {
  const imported = r.imported_prev_reading;
  if (r.last_recorded_reading !== null && r.last_recorded_reading >= 0) {
    return { previous: r.last_recorded_reading, previousAt: imported && imported.value === r.last_recorded_reading ? imported.date : null };
  }
  return imported ? { previous: imported.value, previousAt: imported.date } : { previous: null, previousAt: null };
}

export const conflictCode = (code: keyof typeof ROUTE_ERROR_CODES, message: string) => new HttpError(409, code, message);
