import type { Queryable } from '../db/db';
import { FAILURE_MEMORY_MS, FREE_FAILURES, lockDelayMs } from './lockout';

/**
 * The lockout of lockout.ts for usernames with no account: the same count, the same delays and
 * the same 'Password attempts exceeded' after the fifth failure, so that answer does not tell
 * a real account from an unknown one. Rows are forgotten 15 minutes after their last lock.
 */
const key = (username: string) => username.trim().toLowerCase();

export async function unknownIsLocked(q: Queryable, username: string, now: number): Promise<boolean> {
  const [row] = await q.query<{ failed_logins: number; locked_until: number }>(
    'SELECT failed_logins, locked_until FROM sign_in_failures WHERE username = $1',
    [key(username)],
  );
  return !!row && row.failed_logins > FREE_FAILURES && now < Number(row.locked_until);
}

export async function recordUnknownFailure(q: Queryable, username: string, now: number): Promise<void> {
  await q.query('DELETE FROM sign_in_failures WHERE locked_until < $1', [now - FAILURE_MEMORY_MS]);
  const [row] = await q.query<{ failed_logins: number }>(
    `INSERT INTO sign_in_failures (username, failed_logins, locked_until) VALUES ($1, 1, $2)
     ON CONFLICT (username) DO UPDATE SET failed_logins =
       CASE WHEN sign_in_failures.locked_until + $3 < $2 THEN 1 ELSE sign_in_failures.failed_logins + 1 END
     RETURNING failed_logins`,
    [key(username), now, FAILURE_MEMORY_MS],
  );
  await q.query('UPDATE sign_in_failures SET locked_until = $2 WHERE username = $1', [key(username), now + lockDelayMs(row?.failed_logins ?? 1)]);
}
