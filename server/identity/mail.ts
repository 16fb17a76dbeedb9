import type { Queryable } from '../db/db';
import { enqueueEmail, enqueueIf, type EmailPayload } from '../delivery/outbox';
import { securityNoticeEmail, type NoticeDetails, type SecurityEvent } from './emails';

/**
 * enqueueEmail for identity mail. The database error of a failed insert carries the statement's
 * parameters (the email, so its code or temporary password); it is replaced by one that does not,
 * so the failure can be logged without leaking the secret.
 */
export async function queueEmail(q: Queryable, to: string, email: EmailPayload): Promise<string> {
  try {
    return await enqueueEmail(q, to, email);
  } catch (err) {
    const e = err as { message?: string; code?: string };
    throw Object.assign(new Error(`Could not queue the ${email.kind} email: ${e.message ?? 'database error'}`), { sqlState: e.code });
  }
}

/** queueEmail when `send`; when not, the same statement writes nothing (equal work for known and unknown accounts). */
export async function queueEmailIf(q: Queryable, send: boolean, to: string, email: EmailPayload): Promise<void> {
  try {
    await enqueueIf(q, send, 'email', to.toLowerCase(), email);
  } catch (err) {
    const e = err as { message?: string; code?: string };
    throw Object.assign(new Error(`Could not queue the ${email.kind} email: ${e.message ?? 'database error'}`), { sqlState: e.code });
  }
}

/** Queues a security notice (emails.ts) to `to`; the caller's transaction, so it goes only if the change is made. */
export const queueSecurityNotice = (q: Queryable, to: string, op: { origin: string; now: number }, event: SecurityEvent, p: NoticeDetails = {}) =>
  queueEmail(q, to, securityNoticeEmail(op.origin, event, op.now, p));
