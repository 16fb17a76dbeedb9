import type { Queryable } from '../db/db';
import { HttpError } from '../http/errors';
import { REAUTHENTICATION_REQUIRED_MESSAGE } from '../../src/domain/messages';
import { errors } from './cognito-errors';
import type { UserRow } from './identity-users';
import { isLocked, recordFailure, recordSuccess } from './lockout';
import { verifyPassword } from './passwords';

/**
 * Re-authentication (ASVS V7.5.1): a stolen session alone cannot move the account. Turning MFA off,
 * changing the email, making recovery codes and resetting another member's MFA need the sign-in to
 * have proved the current password again within REAUTH_WINDOW_MS. The proof belongs to one sign-in
 * (its refresh token's jti), not to the account.
 */
export const REAUTH_WINDOW_MS = 5 * 60_000;

/** Checks the password (counted in the sign-in lockout) and stamps the sign-in; false for a wrong one. */
export async function reauthenticate(q: Queryable, user: UserRow, signInId: string, password: string, now: number): Promise<boolean> {
  if (isLocked(user, now)) throw errors.lockedOut();
  if (!(await verifyPassword(password, user.password_hash))) {
    await recordFailure(q, user.id, now);
    return false;
  }
  await recordSuccess(q, user.id);
  await q.query('UPDATE refresh_tokens SET reauthenticated_at = $3 WHERE jti = $1 AND user_id = $2', [signInId, user.id, now]);
  return true;
}

async function recentlyReauthenticated(q: Queryable, userId: string, signInId: string, now: number): Promise<boolean> {
  const rows = await q.query<{ reauthenticated_at: number | null }>('SELECT reauthenticated_at FROM refresh_tokens WHERE jti = $1 AND user_id = $2', [signInId, userId]);
  const at = rows[0]?.reauthenticated_at;
  return at != null && now - at <= REAUTH_WINDOW_MS;
}

/** Throws NotAuthorizedException unless this sign-in proved the password within the window (the identity API's calls). */
export async function requireRecentReauthentication(q: Queryable, userId: string, signInId: string, now: number): Promise<void> {
  if (!(await recentlyReauthenticated(q, userId, signInId, now))) throw errors.reauthenticationRequired();
}

/** The gateway's form of the same refusal: 403 REAUTHENTICATION_REQUIRED (new recovery codes, a member's MFA reset). */
export async function requireRecentReauthenticationOr403(q: Queryable, userId: string, signInId: string, now: number): Promise<void> {
  if (!(await recentlyReauthenticated(q, userId, signInId, now))) throw new HttpError(403, 'REAUTHENTICATION_REQUIRED', REAUTHENTICATION_REQUIRED_MESSAGE);
}
