import type { Queryable } from '../db/db';
import type { UserRow } from './identity-users';

/**
 * Cognito's sign-in lockout: after 5 consecutive failures each further failure locks the account
 * for 1 s, 2 s, 4 s ... doubling up to 15 minutes. A success, or 15 minutes without a failure,
 * starts the count again. `locked_until` holds the time of the last failure plus its lock, so it
 * also tells when the count may be forgotten.
 */
export const FREE_FAILURES = 4;
export const MAX_LOCK_MS = 15 * 60_000;
export const FAILURE_MEMORY_MS = 15 * 60_000;

/** How long the account stays locked after its n-th consecutive failure. */
export function lockDelayMs(failures: number): number {
  if (failures <= FREE_FAILURES) return 0;
  return Math.min(1000 * 2 ** (failures - FREE_FAILURES - 1), MAX_LOCK_MS);
}

export const isLocked = (u: Pick<UserRow, 'locked_until' | 'failed_logins'>, now: number) => u.failed_logins > FREE_FAILURES && now < u.locked_until;

/** Counts one failed password; returns the new count. */
export async function recordFailure(q: Queryable, userId: string, now: number): Promise<number> {
  const [row] = await q.query<{ failed_logins: number }>(
    `UPDATE users SET failed_logins = CASE WHEN locked_until + $3 < $2 THEN 1 ELSE failed_logins + 1 END
     WHERE id = $1 RETURNING failed_logins`,
    [userId, now, FAILURE_MEMORY_MS],
  );
  const failures = row?.failed_logins ?? 0;
  await q.query('UPDATE users SET locked_until = $2 WHERE id = $1', [userId, now + lockDelayMs(failures)]);
  return failures;
}

export async function recordSuccess(q: Queryable, userId: string) {
  await q.query('UPDATE users SET failed_logins = 0, locked_until = 0 WHERE id = $1 AND (failed_logins <> 0 OR locked_until <> 0)', [userId]);
}
