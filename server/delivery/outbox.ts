import { randomUUID } from 'node:crypto';
import type { Queryable } from '../db/db';

export type Channel = 'email' | 'sms' | 'webhook';

export interface EmailPayload {
  subject: string;
  text: string;
  html?: string;
  kind: string; // what it is about: verification-code, reset-code, invitation, alert-triggered, ...
}

/**
 * Writes a delivery into the outbox inside the caller's transaction; the dispatcher delivers it
 * after commit, so nothing is sent for a rolled-back change and nothing is lost on a crash.
 */
export async function enqueue(q: Queryable, channel: Channel, recipient: string, payload: object, at = Date.now()): Promise<string> {
  const id = randomUUID();
  await q.query('INSERT INTO outbox (id, channel, recipient, payload, next_attempt_at, created_at) VALUES ($1, $2, $3, $4, $5, $5)', [
    id,
    channel,
    recipient,
    JSON.stringify(payload),
    at,
  ]);
  return id;
}

/**
 * enqueue when `write` is true; when false the same statement runs and writes nothing (a caller
 * whose known and unknown cases must cost the same: ForgotPassword).
 */
export async function enqueueIf(q: Queryable, write: boolean, channel: Channel, recipient: string, payload: object, at = Date.now()): Promise<void> {
  await q.query(
    `INSERT INTO outbox (id, channel, recipient, payload, next_attempt_at, created_at)
     SELECT $1::uuid, $2::text, $3::text, $4::jsonb, $5::bigint, $5::bigint WHERE $6::boolean`,
    [randomUUID(), channel, recipient, JSON.stringify(payload), at, write],
  );
}

/** A delivery to write into the outbox. */
export interface OutboxRow {
  channel: Channel;
  recipient: string;
  payload: object;
  at: number;
}

/** The INSERT of several rows given as the JSON text of `outboxRowsJson` in parameter `$n`, in order. */
export const insertOutboxRows = (n: number) =>
  `INSERT INTO outbox (id, channel, recipient, payload, next_attempt_at, created_at)
   SELECT id, channel, recipient, payload, at, at FROM jsonb_to_recordset($${n}::jsonb) AS u(id uuid, channel text, recipient text, payload jsonb, at bigint)`;

/** The rows for `insertOutboxRows`, each with a new id. */
export const outboxRowsJson = (rows: OutboxRow[]) => JSON.stringify(rows.map((r) => ({ id: randomUUID(), ...r })));

/** Several rows in one statement, in order (an ingest batch's alert deliveries). */
export async function enqueueMany(q: Queryable, rows: OutboxRow[]) {
  if (!rows.length) return;
  await q.query(insertOutboxRows(1), [outboxRowsJson(rows)]);
}

export const enqueueEmail = (q: Queryable, to: string, email: EmailPayload) => enqueue(q, 'email', to.toLowerCase(), email);
