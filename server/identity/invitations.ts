import type { Queryable } from '../db/db';

/** Invitations die 90 days after they were last sent (organisation-and-routes 9). */
export const INVITE_EXPIRY_MS = 7_776_000_000;
/** An invitation can be (re)sent at most once per 10 minutes (organisation-and-routes 8, 9). */
export const RESEND_INTERVAL_MS = 10 * 60_000;

/**
 * Whether a user waiting to set a first password may still do so with the account's temporary
 * password: not when every invitation they had has been cancelled or has expired. A user created
 * without invitations (`npm run create-user`) may always. Invitations made since one-time links
 * (invitation-tokens.ts) give the account no usable temporary password.
 */
export async function temporaryPasswordUsable(q: Queryable, userId: string, now: number): Promise<boolean> {
  const rows = await q.query<{ canceled_at: number | null; last_invite_at: number }>(
    'SELECT canceled_at, last_invite_at FROM invitations WHERE user_id = $1 AND accepted_at IS NULL',
    [userId],
  );
  if (!rows.length) return true;
  return rows.some((r) => r.canceled_at === null && Number(r.last_invite_at) + INVITE_EXPIRY_MS > now);
}
