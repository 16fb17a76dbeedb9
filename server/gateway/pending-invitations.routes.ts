import { Hono } from 'hono';
import type { AppContext } from '../context';
import type { GatewayEnv } from '../http/auth';
import { notFound } from '../http/errors';
import { one } from '../db/db';
import { INVITE_EXPIRY_MS } from '../identity/invitations';
import {
  invitationAnswerParamsSchema,
  invitationAnswerResponseSchema,
  pendingInvitationListSchema,
  type PendingInvitation,
} from '../../src/contract/pending-invitation.schema';

const PENDING = 'i.user_id = $1 AND i.accepted_at IS NULL AND i.canceled_at IS NULL AND i.last_invite_at > $2';

/**
 * An invitation of an existing account waits for its invitee (issue 9): the signed-in user lists
 * theirs and accepts (joins with the invited role) or declines one. Only their own.
 */
export function pendingInvitationRoutes(ctx: AppContext) {
  const r = new Hono<GatewayEnv>();

  r.get('/invitations', async (c) => {
    const rows = await ctx.db.query<{ id: string; org_id: string; name: string; slug: string; role: number; inviter: string | null; last_invite_at: number }>(
      `SELECT i.id, i.org_id, o.name, o.slug, i.role, COALESCE(NULLIF(u.name, ''), u.email) AS inviter, i.last_invite_at
       FROM invitations i JOIN organisations o ON o.id = i.org_id LEFT JOIN users u ON u.id = i.invited_by
       WHERE ${PENDING} ORDER BY i.last_invite_at DESC`,
      [c.get('caller').id, ctx.now() - INVITE_EXPIRY_MS],
    );
    const invitations: PendingInvitation[] = rows.map((row) => ({
      inviteId: row.id,
      organisation: { id: row.org_id, name: row.name, slug: row.slug },
      role: row.role,
      invitedBy: row.inviter ?? 'An administrator',
      lastInviteAt: Number(row.last_invite_at),
    }));
    return c.json(pendingInvitationListSchema.parse({ invitations }));
  });

  r.post('/invitations/:inviteId/:answer', async (c) => {
    const { inviteId, answer } = invitationAnswerParamsSchema.parse(c.req.param());
    const callerId = c.get('caller').id;
    const result = await ctx.db.tx(async (q) => {
      const now = ctx.now();
      const inv = await one<{ id: string; org_id: string; role: number; name: string; slug: string }>(
        q,
        `SELECT i.id, i.org_id, i.role, o.name, o.slug FROM invitations i JOIN organisations o ON o.id = i.org_id
         WHERE i.id = $3 AND ${PENDING} FOR UPDATE OF i`,
        [callerId, now - INVITE_EXPIRY_MS, inviteId],
      );
      if (!inv) throw notFound('INVITATION_NOT_FOUND', 'There is no open invitation for you with this id.');
      if (answer === 'accept') {
        await q.query('INSERT INTO memberships (org_id, user_id, role, created_at) VALUES ($1, $2, $3, $4) ON CONFLICT (org_id, user_id) DO NOTHING', [
          inv.org_id,
          callerId,
          inv.role,
          now,
        ]);
        await q.query('UPDATE invitations SET accepted_at = $2 WHERE id = $1', [inv.id, now]);
      } else {
        // a declined invitation is closed (the organisation may invite again later)
        await q.query('UPDATE invitations SET canceled_at = $2, declined_at = $2 WHERE id = $1', [inv.id, now]);
      }
      return { status: answer === 'accept' ? 'Accepted' : 'Declined', organisation: { id: inv.org_id, name: inv.name, slug: inv.slug } };
    });
    return c.json(invitationAnswerResponseSchema.parse(result));
  });
  return r;
}
