import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import type { InviteRequest, InviteResponse } from '../../src/contract/invitation.schema';
import { checkEmail, checkName } from '../../src/domain/sign-up-rules';
import { INVITE_MESSAGES } from '../../src/domain/invite-form';
import type { AppContext } from '../context';
import { one, type Queryable } from '../db/db';
import { queueEmail } from './mail';
import { HttpError, badRequest, notFound } from '../http/errors';
import { invitationEmail, pendingInvitationEmail } from './emails';
import { findUserById, findUserByUsername, insertUser, isUniqueViolation } from './identity-users';
import { RESEND_INTERVAL_MS } from './invitations';
import { hashPassword } from './passwords';
import { issueInvitationToken } from './invitation-tokens';
import { normaliseMobile } from './profile';

/** A temporary password that meets the policy, for `npm run create-user` to print. */
export function temporaryPassword(): string {
  const pick = (set: string) => set[randomInt(set.length)];
  const chars = [pick('ABCDEFGHJKLMNPQRSTUVWXYZ'), pick('abcdefghijkmnopqrstuvwxyz'), pick('23456789'), pick('-_.~!')];
  chars.push(...randomBytes(12).toString('base64url'));
  for (let i = chars.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [chars[i], chars[j]] = [chars[j], chars[i]];
  }
  return chars.join('');
}

interface OrgRow {
  id: string;
  name: string;
  slug: string;
  features: { meterReading?: boolean };
}

const alreadyMember = () => badRequest('ALREADY_A_MEMBER', 'This user is already a member of your organisation.');
const alreadyInvited = () => badRequest('ALREADY_INVITED', 'The email already exists or have been invited');

async function context(q: Queryable, orgId: string, inviterId: string) {
  const org = await one<OrgRow>(q, 'SELECT id, name, slug, features FROM organisations WHERE id = $1', [orgId]);
  if (!org) throw notFound('ORGANISATION_NOT_FOUND', 'Organisation not found.');
  const inviter = await findUserById(q, inviterId);
  return { org, inviterName: inviter?.name || inviter?.email || 'Your organisation admin' };
}

const HOUR_MS = 3_600_000;

/**
 * At most INVITATIONS_PER_HOUR new invitations an organisation in any hour (issue 35), counted in
 * the database so every instance sees the same count; cancelled ones count too. The organisation's
 * row is locked first so two invites at once cannot both take the last place. Resends are limited
 * per invitation instead (once every 10 minutes).
 */
async function limitNewInvitations(ctx: AppContext, q: Queryable, orgId: string, now: number) {
  await q.query('SELECT 1 FROM organisations WHERE id = $1 FOR NO KEY UPDATE', [orgId]);
  const sent = await one<{ n: number; oldest: string | null }>(q, 'SELECT count(*)::int AS n, min(created_at) AS oldest FROM invitations WHERE org_id = $1 AND created_at > $2', [
    orgId,
    now - HOUR_MS,
  ]);
  if (sent && sent.n >= ctx.config.INVITATIONS_PER_HOUR) {
    const retryAfterS = Math.max(1, Math.ceil((Number(sent.oldest) + HOUR_MS - now) / 1000));
    throw new HttpError(429, 'TOO_MANY_REQUESTS', INVITE_MESSAGES.tooMany, { 'Retry-After': String(retryAfterS) });
  }
}

/**
 * An existing account is never added without its consent (issue 9): its invitation stays pending
 * and the email asks it to accept or decline in the app (GET /invitations, POST .../accept).
 */
async function askExisting(q: Queryable, origin: string, org: OrgRow, inviterName: string, email: string) {
  await queueEmail(q, email, pendingInvitationEmail(origin, { orgName: org.name, inviterName }));
}

/** The password hash of an invited account until it chooses one: of a secret nobody is told, so it costs a sign-in the same work and never matches. */
const unusablePasswordHash = () => hashPassword(randomBytes(32).toString('base64url'));

/**
 * POST /organisations/{orgId}/invite. A new email gets an account waiting for its first password
 * (FORCE_CHANGE_PASSWORD) and an invitation email whose link carries a one-time token
 * (invitation-tokens.ts); an existing account is asked to accept or decline in the app.
 */
export async function inviteMember(ctx: AppContext, orgId: string, inviterId: string, body: InviteRequest, origin: string): Promise<InviteResponse> {
  const email = checkEmail(body.email);
  if (!email.ok) throw badRequest(email.error.code, email.error.message);
  const name = checkName(body.name);
  if (!name.ok) throw badRequest(name.error.code, name.error.message);
  const mobile = body.mobile?.trim() ? normaliseMobile(body.mobile, { possible: true }) : null;
  if (body.mobile?.trim() && !mobile) throw badRequest('INVALID_MOBILE', 'Please enter a valid phone number');
  const unusableHash = await unusablePasswordHash();
  try {
    return await ctx.db.tx(async (q) => {
      const now = ctx.now();
      const { org, inviterName } = await context(q, orgId, inviterId);
      await limitNewInvitations(ctx, q, orgId, now);
      if (body.role === 4 && !org.features?.meterReading) throw badRequest('INVALID_ROLE', 'Meter readers can only join organisations with meter reading.');
      const user = await findUserByUsername(q, email.value, true);
      if (user && (await one(q, 'SELECT 1 FROM memberships WHERE org_id = $1 AND user_id = $2', [orgId, user.id]))) throw alreadyMember();
      if (await one(q, 'SELECT 1 FROM invitations WHERE org_id = $1 AND email = $2 AND accepted_at IS NULL AND canceled_at IS NULL', [orgId, email.value])) throw alreadyInvited();
      const inviteId = randomUUID();
      const existing = !!user && user.status !== 'FORCE_CHANGE_PASSWORD';
      let userId = user?.id;
      if (!userId) {
        userId = await insertUser(q, { email: email.value, name: name.value, mobile, passwordHash: unusableHash, status: 'FORCE_CHANGE_PASSWORD', emailVerified: false, profileCreated: true }, now);
      }
      await q.query(
        `INSERT INTO invitations (id, org_id, email, name, role, mobile, user_id, invited_by, last_invite_at, accepted_at, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $9)`,
        [inviteId, orgId, email.value, name.value, body.role, mobile, userId, inviterId, now, null],
      );
      if (existing) await askExisting(q, origin, org, inviterName, email.value);
      else await queueEmail(q, email.value, invitationEmail(origin, { email: email.value, orgName: org.name, inviterName, token: await issueInvitationToken(q, inviteId, userId, now) }));
      return { email: email.value, status: 'Invited', inviteId, lastInviteAt: now };
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw alreadyInvited(); // a concurrent invite of the same email
    throw err;
  }
}

/** POST /organisations/{orgId}/invite?resend=true: at most once per 10 minutes; a new address gets a new link, and the earlier one stops working. */
export async function resendInvitation(ctx: AppContext, orgId: string, inviterId: string, rawEmail: string, origin: string): Promise<InviteResponse> {
  const email = checkEmail(rawEmail);
  if (!email.ok) throw badRequest(email.error.code, email.error.message);
  const unusableHash = await unusablePasswordHash();
  return ctx.db.tx(async (q) => {
    const now = ctx.now();
    const { org, inviterName } = await context(q, orgId, inviterId);
    const inv = await one<{ id: string; role: number; user_id: string | null; last_invite_at: number }>(
      q,
      'SELECT id, role, user_id, last_invite_at FROM invitations WHERE org_id = $1 AND email = $2 AND accepted_at IS NULL AND canceled_at IS NULL FOR UPDATE',
      [orgId, email.value],
    );
    if (!inv) throw notFound('INVITATION_NOT_FOUND', 'There is no open invitation for this email.');
    if (now - Number(inv.last_invite_at) < RESEND_INTERVAL_MS)
      throw new HttpError(429, 'TOO_MANY_REQUESTS', 'TOO_MANY_REQUESTS: an invitation can be sent at most once every 10 minutes.');
    const user = inv.user_id ? await findUserById(q, inv.user_id, true) : undefined;
    if (user && user.status !== 'FORCE_CHANGE_PASSWORD') {
      // an account with a password (maybe set meanwhile): ask again, it answers in the app
      await askExisting(q, origin, org, inviterName, email.value);
      await q.query('UPDATE invitations SET last_invite_at = $2 WHERE id = $1', [inv.id, now]);
      return { email: email.value, status: 'Invited' as const, inviteId: inv.id, lastInviteAt: now };
    }
    if (!user) throw notFound('INVITATION_NOT_FOUND', 'There is no open invitation for this email.');
    // a temporary password sent before one-time links stops working too
    await q.query('UPDATE users SET password_hash = $2 WHERE id = $1', [user.id, unusableHash]);
    await q.query('UPDATE invitations SET last_invite_at = $2 WHERE id = $1', [inv.id, now]);
    await queueEmail(q, email.value, invitationEmail(origin, { email: email.value, orgName: org.name, inviterName, token: await issueInvitationToken(q, inv.id, user.id, now) }));
    return { email: email.value, status: 'Invited' as const, inviteId: inv.id, lastInviteAt: now };
  });
}
