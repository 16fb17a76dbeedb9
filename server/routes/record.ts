import { createHash, randomUUID } from 'node:crypto';
import type { AppContext } from '../context';
import type { Queryable } from '../db/db';
import { one } from '../db/db';
import { HttpError, badRequest } from '../http/errors';
import { removeStoredFile, storeFile } from '../storage';
import { meterException } from './exceptions';
import { conflictCode, getReading, getTask, lockReading, lockTask, previousOf, type ReadingRow, type TaskRow } from './store';
import {
  MAX_PHOTO_BYTES,
  ROUTE_ERROR_CODES,
  ROUTE_MESSAGES,
  UNREAD_VALUE,
  type MeterReadingAnswer,
  type MeterReadingPatch,
  type MeterReadingRecord,
  type RecordPhoto,
} from '../../src/contract/route.schema';

/** A recorded time may run ahead of the server's clock by at most this much (a phone's clock drifts). */
export const MAX_CLOCK_AHEAD_MS = 60 * 60_000;

const PNG_MAGIC = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG_MAGIC = [0xff, 0xd8, 0xff];

/** Decodes and checks a recorded photo: its bytes must be the PNG or JPEG it claims, within MAX_PHOTO_BYTES. */
export function decodePhoto(photo: RecordPhoto): { body: Buffer; ext: 'png' | 'jpg' } {
  const body = Buffer.from(photo.data, 'base64');
  const magic = photo.contentType === 'image/png' ? PNG_MAGIC : JPEG_MAGIC;
  if (body.length > MAX_PHOTO_BYTES) throw badRequest(ROUTE_ERROR_CODES.INVALID_PHOTO, `The photo is larger than ${MAX_PHOTO_BYTES / 1024 / 1024} MiB.`);
  if (body.length < magic.length + 8 || magic.some((b, i) => body[i] !== b))
    throw badRequest(ROUTE_ERROR_CODES.INVALID_PHOTO, `The photo is not a ${photo.contentType === 'image/png' ? 'PNG' : 'JPEG'} image.`);
  return { body, ext: photo.contentType === 'image/png' ? 'png' : 'jpg' };
}

/**
 * After any change to a task's readings (task row locked): started at the first recorded
 * reading, completed when every reading is, with the time spent; an edit never reopens a task.
 */
async function updateProgress(q: Queryable, task: TaskRow, now: number) {
  const counts = (await q.query<{ total: number; done: number }>(
    'SELECT count(*)::int AS total, (count(*) FILTER (WHERE completed))::int AS done FROM meter_readings WHERE route_task_id = $1',
    [task.id],
  ))[0]!;
  const startedAt = task.started_at ?? (counts.done > 0 ? now : null);
  const completedAt = task.completed_at ?? (counts.total > 0 && counts.done === counts.total ? now : null);
  const spent = task.est_time_spent ?? (completedAt !== null && startedAt !== null ? completedAt - startedAt : null);
  if (startedAt !== task.started_at || completedAt !== task.completed_at || spent !== task.est_time_spent)
    await q.query('UPDATE route_tasks SET started_at = $2, completed_at = $3, est_time_spent = $4 WHERE id = $1', [task.id, startedAt, completedAt, spent]);
}

export interface RecordInput {
  orgId: string;
  taskId: string;
  readingId: string;
  userId: string;
  body: MeterReadingRecord;
  /** The capture's idempotency key (the Idempotency-Key header); keys are per user. */
  idempotencyKey?: string;
}

export interface RecordResult {
  answer: MeterReadingAnswer;
  /** True when the key had already recorded this request: the first answer, nothing recorded now. */
  replayed: boolean;
}

/** What a key is bound to: the reading and the request as parsed, so a retry must be the same capture. */
const requestHash = (i: RecordInput) => createHash('sha256').update(JSON.stringify([i.orgId, i.taskId, i.readingId, i.body])).digest('base64url');

async function replay(q: Queryable, input: RecordInput, hash: string): Promise<RecordResult | undefined> {
  if (input.idempotencyKey === undefined) return undefined;
  const row = await one<{ request_hash: string; answer: string }>(q, 'SELECT request_hash, answer FROM reading_records WHERE user_id = $1 AND key = $2', [
    input.userId,
    input.idempotencyKey,
  ]);
  if (!row) return undefined;
  if (row.request_hash !== hash)
    throw new HttpError(422, ROUTE_ERROR_CODES.IDEMPOTENCY_KEY_REUSED, 'This idempotency key has already recorded a different reading request.');
  return { answer: JSON.parse(row.answer) as MeterReadingAnswer, replayed: true };
}

/**
 * PUT .../record: the assigned user records one reading (value or can't-read code, codes,
 * notes, photo, time, position). The exception is computed from the previous reading.
 * Used by the gateway and by the simulated meter reader alike.
 */
export async function recordReading(ctx: Pick<AppContext, 'config' | 'db' | 'now'>, input: RecordInput): Promise<RecordResult> {
  const { orgId, taskId, readingId, userId, body } = input;
  const now = ctx.now();
  const hash = requestHash(input);
  // a retry of a capture that was recorded answers before anything is checked or stored again
  const early = await replay(ctx.db, input, hash);
  if (early) return early;
  if (body.recordedAt > now + MAX_CLOCK_AHEAD_MS) throw badRequest(ROUTE_ERROR_CODES.INVALID_READING, 'The recorded time is in the future.');
  const photo = body.photo ? decodePhoto(body.photo) : undefined;
  // the file is written before the transaction and removed again if it does not commit
  const photoName = photo ? `reading-${readingId}-${randomUUID().slice(0, 8)}.${photo.ext}` : null;
  if (photo && photoName) await storeFile(ctx, orgId, photoName, photo.body);
  let replayed = false;
  try {
    const result = await ctx.db.tx(async (q): Promise<RecordResult> => {
      const task = await lockTask(q, orgId, taskId);
      // two sends of one capture at once: the second waits on the task lock, then finds the key
      const raced = await replay(q, input, hash);
      if (raced) {
        replayed = true;
        return raced;
      }
      if (task.assigned_to !== userId) throw new HttpError(403, ROUTE_ERROR_CODES.NOT_ASSIGNED, 'This route task is not assigned to you.');
      if (task.exported) throw conflictCode('TASK_EXPORTED', 'This route task has been exported.');
      const row = await lockReading(q, taskId, readingId);
      if (row.completed) throw conflictCode('READING_ALREADY_RECORDED', 'This meter reading has already been recorded.');
      const cantReadCode = body.cantReadCode ?? null;
      const value = cantReadCode ? null : (body.value ?? null);
      const serviceRequired = body.serviceRequired ?? false;
      const exception = meterException({ value, cantReadCode, serviceRequired, recordedAt: body.recordedAt, ...previousOf(row) });
      await q.query(
        `UPDATE meter_readings SET value = $2, cant_read_code = $3, comment_code = $4, notes = $5, service_required = $6, recorded_at = $7,
                recorded_by = $8, position = $9::jsonb, photo_url = $10, exception = $11, completed = true
         WHERE id = $1`,
        [
          readingId,
          value,
          cantReadCode,
          cantReadCode ? null : (body.commentCode ?? null),
          body.notes?.trim() || null,
          serviceRequired,
          body.recordedAt,
          userId,
          body.position ? JSON.stringify(body.position) : null,
          photoName,
          exception,
        ],
      );
      await updateProgress(q, task, now);
      const answer: MeterReadingAnswer = { reading: await getReading(q, orgId, taskId, readingId), task: await getTask(q, orgId, taskId) };
      if (input.idempotencyKey !== undefined)
        await q.query('INSERT INTO reading_records (user_id, key, reading_id, request_hash, answer, created_at) VALUES ($1, $2, $3, $4, $5, $6)', [
          userId,
          input.idempotencyKey,
          readingId,
          hash,
          JSON.stringify(answer),
          now,
        ]);
      return { answer, replayed: false };
    });
    if (replayed && photoName) await removeStoredFile(ctx, orgId, photoName);
    return result;
  } catch (err) {
    if (photoName) await removeStoredFile(ctx, orgId, photoName);
    throw err;
  }
}

const norm = (v: number | null | undefined) => (v === undefined ? undefined : v === null || v === UNREAD_VALUE ? null : v);

/**
 * PATCH .../meter-readings/{readingId} by an admin: only the fields sent that differ from the
 * stored ones count; none is NOTHING_UPDATED. Refused on an exported task or a reading not yet
 * read. A can't-read code clears value and comment code; without one a value is required.
 * Sets edited and recomputes the exception (and so the task's exception count).
 */
export async function editReading(q: Queryable, orgId: string, taskId: string, readingId: string, body: MeterReadingPatch, now: number): Promise<void> {
  const task = await lockTask(q, orgId, taskId);
  const row: ReadingRow = await lockReading(q, taskId, readingId);
  if (task.exported) throw conflictCode('TASK_EXPORTED', 'Readings of an exported route task cannot be edited.');
  if (!row.completed) throw conflictCode('READING_NOT_COMPLETED', 'A meter reading can be edited only once it has been read.');

  const next = {
    value: norm(row.value) ?? null,
    cantReadCode: row.cant_read_code,
    commentCode: row.comment_code,
    notes: row.notes,
    serviceRequired: row.service_required,
    additionalLocationInfo: row.meter_info.additionalLocationInfo ?? '',
  };
  const before = { ...next };
  if (body.value !== undefined) next.value = norm(body.value) ?? null;
  if (body.cantReadCode !== undefined) next.cantReadCode = body.cantReadCode;
  if (body.commentCode !== undefined) next.commentCode = body.commentCode;
  if (body.notes !== undefined) next.notes = body.notes?.trim() || null;
  if (body.serviceRequired !== undefined) next.serviceRequired = body.serviceRequired;
  if (body.meterInfo) next.additionalLocationInfo = body.meterInfo.additionalLocationInfo.trim();
  // the form's interplay (section 4): a can't-read code disables the reading and the comment code
  if (next.cantReadCode) {
    next.value = null;
    next.commentCode = null;
  } else if (next.value === null) {
    throw badRequest(ROUTE_ERROR_CODES.INVALID_READING, 'Reading is required');
  }
  const changed = (Object.keys(next) as (keyof typeof next)[]).filter((k) => next[k] !== before[k]);
  if (!changed.length) throw badRequest(ROUTE_ERROR_CODES.NOTHING_UPDATED, ROUTE_MESSAGES.NOTHING_UPDATED);

  const exception = meterException({
    value: next.value,
    cantReadCode: next.cantReadCode,
    serviceRequired: next.serviceRequired,
    recordedAt: row.recorded_at ?? now,
    ...previousOf(row),
  });
  await q.query(
    `UPDATE meter_readings SET value = $2, cant_read_code = $3, comment_code = $4, notes = $5, service_required = $6,
            meter_info = jsonb_set(meter_info, '{additionalLocationInfo}', to_jsonb($7::text)), exception = $8, edited = true
     WHERE id = $1`,
    [readingId, next.value, next.cantReadCode, next.commentCode, next.notes, next.serviceRequired, next.additionalLocationInfo, exception],
  );
  await updateProgress(q, task, now);
}
