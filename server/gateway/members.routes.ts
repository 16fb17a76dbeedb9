import { Hono } from 'hono';
import type { AppContext } from '../context';
import { one, type Queryable } from '../db/db';
import { MANAGERS, ROLE, requireMember, type GatewayEnv, type Role } from '../http/auth';
import { HttpError, badRequest, forbidden, notFound } from '../http/errors';
import {
  cancelInvitePathSchema,
  memberDeleteResponseSchema,
  memberDeleteSchema,
  memberListSchema,
  memberPatchSchema,
  memberPathSchema,
  memberQuerySchema,
  unfinishedRouteTasksSchema,
  type Member,
} from '../../src/contract/member.schema';
import { normaliseEmail } from '../../src/domain/sign-up-rules';
import { INVITE_EXPIRY_MS } from '../identity/invitations';

const ALL_ROLES: readonly Role[] = [ROLE.MEMBER, ROLE.ADMIN, ROLE.OWNER, ROLE.METER_READER];
const memberNotFound = () => notFound('MEMBER_NOT_FOUND', 'This person is not a member of the organisation.');
const notOwnRow = () => new HttpError(403, 'CANNOT_ACT_ON_SELF', 'You cannot change your own role or remove yourself here.');
const mismatch = () => badRequest('MEMBER_MISMATCH', 'cognitoIdentityId must be the member id of the path.');

type Row = { user_id: string; role: Role };

/**
 * Locks the caller's and the target's memberships (in one order, so two managers acting on each
 * other cannot deadlock) and re-reads the caller's role under the lock: whoever commits first
 * decides, and a manager demoted or removed a moment ago can no longer act.
 */
async function lockPair(q: Queryable, orgId: string, callerId: string, memberId: string, callerRoles: readonly Role[]) {
  const rows = await q.query<Row>('SELECT user_id, role FROM memberships WHERE org_id = $1 AND user_id = ANY($2::uuid[]) ORDER BY user_id FOR UPDATE', [
    orgId,
    [callerId, memberId],
  ]);
  const caller = rows.find((r) => r.user_id === callerId);
  if (!caller) throw notFound('ORGANISATION_NOT_FOUND', 'Organisation not found.');
  if (!callerRoles.includes(caller.role)) throw forbidden();
  const target = rows.find((r) => r.user_id === memberId);
  if (!target) throw memberNotFound();
  return target;
}

interface MemberRow {
  id: string | null;
  name: string;
  email: string;
  mobile: string | null;
  role: Role;
  notification_rule: Member['notificationRule'];
  invite_id: string | null;
  last_invite_at: number | string | null;
  invited: boolean;
  mfa_enabled: boolean | null;
}

const toMember = (r: MemberRow): Member => {
  const lastInviteAt = r.last_invite_at === null ? null : Number(r.last_invite_at);
  return {
    name: r.name,
    email: r.email,
    role: r.role,
    status: r.invited ? 'Invited' : 'Active',
    cognitoIdentityId: r.invited ? null : r.id,
    lastInviteAt,
    inviteExpiresAt: r.invited && lastInviteAt !== null ? lastInviteAt + INVITE_EXPIRY_MS : null,
    inviteId: r.invite_id,
    mobile: r.mobile,
    notificationRule: r.notification_rule,
    ...(r.mfa_enabled !== null && { mfaEnabled: r.mfa_enabled }),
  };
};

/** The members; with `withMfa` (the owner's and site admins' view: they may reset it), whether each has MFA on. */
async function listMembers(q: Queryable, orgId: string, withMfa = false): Promise<Member[]> {
  const rows = await q.query<MemberRow>(
    `SELECT u.id, u.name, u.email, u.mobile, m.role, m.notification_rule, false AS invited,
            i.id AS invite_id, i.last_invite_at, CASE WHEN $2::boolean THEN u.totp_enabled END AS mfa_enabled
     FROM memberships m JOIN users u ON u.id = m.user_id
     LEFT JOIN LATERAL (SELECT id, last_invite_at FROM invitations WHERE org_id = m.org_id AND user_id = u.id ORDER BY created_at DESC LIMIT 1) i ON true
     WHERE m.org_id = $1
     UNION ALL
     SELECT user_id, name, email, mobile, role, NULL, true, id, last_invite_at, NULL
     FROM invitations WHERE org_id = $1 AND accepted_at IS NULL AND canceled_at IS NULL
     ORDER BY invited, name, email`,
    [orgId, withMfa],
  );
  return rows.map(toMember);
}

/** The member's route tasks in the organisation that a removal or a leave unassigns: neither complete nor exported (Waiting or Active). */
const UNFINISHED_TASKS = 'org_id = $1 AND assigned_to = $2 AND completed_at IS NULL AND NOT exported';

export function memberRoutes(ctx: AppContext) {
  const r = new Hono<GatewayEnv>();

  // every member sees the list (settings are visible to all roles); only managers get actions
  r.get('/organisations/:orgId/members', async (c) => {
    const orgId = c.req.param('orgId');
    const { role } = await requireMember(ctx, c, orgId, ALL_ROLES);
    const withMfa = role === ROLE.OWNER || c.get('caller').isSiteAdmin;
    return c.json(memberListSchema.parse({ members: await listMembers(ctx.db, orgId, withMfa) }));
  });

  // a role change (never one's own row, never the owner's) or the member's notification rule
  r.patch('/organisations/:orgId/members/:memberId', async (c) => {
    const { orgId, memberId } = memberPathSchema.parse(c.req.param());
    memberQuerySchema.parse(c.req.query());
    const callerId = c.get('caller').id;
    await requireMember(ctx, c, orgId, MANAGERS);
    const body = memberPatchSchema.parse(await c.req.json());
    if (body.cognitoIdentityId !== memberId) throw mismatch();
    const liveEnded = await ctx.db.tx(async (q) => {
      const target = await lockPair(q, orgId, callerId, memberId, MANAGERS);
      if ('role' in body) {
        if (memberId === callerId) throw notOwnRow();
        if (target.role === ROLE.OWNER) throw new HttpError(403, 'OWNER_ROLE_FIXED', "The owner's role cannot be changed.");
        if (body.role === ROLE.METER_READER) {
          const org = await one<{ features: { meterReading?: boolean } }>(q, 'SELECT features FROM organisations WHERE id = $1', [orgId]);
          if (!org?.features?.meterReading) throw badRequest('INVALID_ROLE', 'Meter readers can only join organisations with meter reading.');
        }
        await q.query('UPDATE memberships SET role = $3 WHERE org_id = $1 AND user_id = $2', [orgId, memberId, body.role]);
        return body.role === ROLE.METER_READER; // meter readers get no live data
      } else {
        const rule = body.notificationRule ? JSON.stringify(body.notificationRule) : null;
        await q.query('UPDATE memberships SET notification_rule = $3::jsonb WHERE org_id = $1 AND user_id = $2', [orgId, memberId, rule]);
      }
      return false;
    });
    if (liveEnded) ctx.membershipEnded?.(memberId, orgId);
    const member = (await listMembers(ctx.db, orgId)).find((m) => m.cognitoIdentityId === memberId);
    if (!member) throw memberNotFound();
    return c.json(member);
  });

  // remove a member (managers), or leave when the id is the caller's own (any role but owner)
  r.delete('/organisations/:orgId/members/:memberId', async (c) => {
    const { orgId, memberId } = memberPathSchema.parse(c.req.param());
    memberQuerySchema.parse(c.req.query());
    const callerId = c.get('caller').id;
    const leaving = memberId === callerId;
    const allowed = leaving ? ALL_ROLES : MANAGERS;
    await requireMember(ctx, c, orgId, allowed);
    const body = memberDeleteSchema.parse(await c.req.json());
    if (body.cognitoIdentityId !== memberId) throw mismatch();
    const unassigned = await ctx.db.tx(async (q) => {
      const target = await lockPair(q, orgId, callerId, memberId, allowed);
      if (target.role === ROLE.OWNER)
        throw leaving
          ? new HttpError(403, 'OWNER_CANNOT_LEAVE', 'An owner cannot leave the organisation.')
          : new HttpError(403, 'OWNER_PROTECTED', 'The owner cannot be removed from the organisation.');
      await q.query('DELETE FROM memberships WHERE org_id = $1 AND user_id = $2', [orgId, memberId]);
      // their unfinished tasks go back to the pool; finished and exported ones keep who did them
      const freed = await q.query<{ id: string }>(`UPDATE route_tasks SET assigned_to = NULL WHERE ${UNFINISHED_TASKS} RETURNING id`, [orgId, memberId]);
      return freed.length;
    });
    ctx.membershipEnded?.(memberId, orgId); // after commit: a reconnect must already be refused
    return c.json(memberDeleteResponseSchema.parse({ cognitoIdentityId: memberId, left: leaving, unassignedRouteTasks: unassigned }));
  });

  // what a removal or a leave would unassign: managers for any member, anyone for themself
  r.get('/organisations/:orgId/members/:memberId/unfinished-route-tasks', async (c) => {
    const { orgId, memberId } = memberPathSchema.parse(c.req.param());
    const self = memberId === c.get('caller').id;
    await requireMember(ctx, c, orgId, self ? ALL_ROLES : MANAGERS);
    const row = await one<{ member: boolean; n: number }>(
      ctx.db,
      `SELECT EXISTS (SELECT 1 FROM memberships WHERE org_id = $1 AND user_id = $2) AS member,
              (SELECT count(*)::int FROM route_tasks WHERE ${UNFINISHED_TASKS}) AS n`,
      [orgId, memberId],
    );
    if (!row?.member) throw memberNotFound();
    return c.json(unfinishedRouteTasksSchema.parse({ cognitoIdentityId: memberId, unfinishedRouteTasks: Number(row.n) }));
  });

  // cancel a pending invitation; its link stops working with it
  r.delete('/organisations/:orgId/invite/:email', async (c) => {
    const { orgId, email } = cancelInvitePathSchema.parse(c.req.param());
    await requireMember(ctx, c, orgId, MANAGERS);
    const rows = await ctx.db.query<{ id: string }>(
      'UPDATE invitations SET canceled_at = $3 WHERE org_id = $1 AND email = $2 AND accepted_at IS NULL AND canceled_at IS NULL RETURNING id',
      [orgId, normaliseEmail(email), ctx.now()],
    );
    if (!rows.length) throw notFound('INVITATION_NOT_FOUND', 'There is no open invitation for this email.');
    return c.json({ email: normaliseEmail(email), inviteId: rows[0].id });
  });
  return r;
}
