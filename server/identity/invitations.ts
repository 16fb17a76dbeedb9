import type { Queryable } from '../db/db';

/** Invitations die 90 days after they were last sent (organisation-and-routes 9). */
export const INVITE_EXPIRY_MS = 7_776_000_000;
/** An invitation can be (re)sent at most once per 10 minutes (organisation-and-routes 8, 9). */
export const RESEND_INTERVAL_MS = 10 * 60_000;

const OPEN = 'accepted_at IS NULL AND canceled_at IS NULL';

/**
 * The invited user chose their first password with the temporary password of an invitation email:
 * join that invitation's organisation, and no other (issue 35). Each email (a new invitation or a
 * resend) gives the account a new temporary password, so the one that worked is the latest sent
 * open invitation's. Any other invitation stays pending, and the app asks about each on its own
 * (GET /invitations). Runs inside the caller's transaction. Returns the organisations joined.
 */
export async function acceptInvitationOfLink(q: Queryable, userId: string, now: number): Promise<string[]> {
  const open = await q.query<{ id: string; org_id: string; role: number }>(
    `SELECT id, org_id, role FROM invitations WHERE user_id = $1 AND ${OPEN} AND last_invite_at > $2
     ORDER BY last_invite_at DESC, created_at DESC, id LIMIT 1 FOR UPDATE`,
    [userId, now - INVITE_EXPIRY_MS],
  );
  for (const inv of open) {
    await q.query('INSERT INTO memberships (org_id, user_id, role, created_at) VALUES ($1, $2, $3, $4) ON CONFLICT (org_id, user_id) DO NOTHING', [
      inv.org_id,
      userId,
      inv.role,
      now,
    ]);
    await q.query('UPDATE invitations SET accepted_at = $2 WHERE id = $1', [inv.id, now]);
  }
  return open.map((i) => i.org_id);
}

/**
 * Whether a user waiting to set a first password may still do so: not when every invitation
 * they had has been cancelled or has expired. A user created without invitations (an
 * administrator's account) may always.
 */
export async function temporaryPasswordUsable(q: Queryable, userId: string, now: number): Promise<boolean> {
  const rows = await q.query<{ canceled_at: number | null; last_invite_at: number }>(
    'SELECT canceled_at, last_invite_at FROM invitations WHERE user_id = $1 AND accepted_at IS NULL',
    [userId],
  );
  if (!rows.length) return true;
  return rows.some((r) => r.canceled_at === null && Number(r.last_invite_at) + INVITE_EXPIRY_MS > now);
}
