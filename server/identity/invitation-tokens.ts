import { createHash, randomBytes } from 'node:crypto';
import { one, type Queryable } from '../db/db';
import { INVITE_LINK_MESSAGES } from '../../src/domain/messages';
import { errors } from './cognito-errors';
import type { UserRow } from './identity-users';

/**
 * One-time invitation links (issue 35). The accept link of an invitation to a new address carries
 * a random token (32 bytes, base64url) as its `code`; the link's page signs in with it as the
 * password (so aws-amplify's NEW_PASSWORD_REQUIRED path is unchanged), and the password chosen
 * there spends it and accepts that invitation only. Only its SHA-256 is stored. A token works
 * until it is used, replaced by a resend, or 7 days old (Cognito's default temporary password
 * validity); the invitation itself may still be resent for 90 days.
 */
export const INVITE_LINK_EXPIRY_MS = 7 * 86_400_000;

const TOKEN = /^[A-Za-z0-9_-]{43}$/;
const hashOf = (token: string) => createHash('sha256').update(token).digest('base64');

/** A new link token for the invitation (its earlier ones stop working): the only time its text exists. */
export async function issueInvitationToken(q: Queryable, invitationId: string, userId: string, now: number): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await q.query('UPDATE invitation_tokens SET superseded_at = $2 WHERE invitation_id = $1 AND used_at IS NULL AND superseded_at IS NULL', [invitationId, now]);
  await q.query('INSERT INTO invitation_tokens (token_hash, invitation_id, user_id, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)', [
    hashOf(token),
    invitationId,
    userId,
    now,
    now + INVITE_LINK_EXPIRY_MS,
  ]);
  return token;
}

interface TokenRow {
  token_hash: string;
  invitation_id: string;
  user_id: string;
  expires_at: number | string;
  used_at: number | string | null;
  superseded_at: number | string | null;
  accepted_at: number | string | null;
  canceled_at: number | string | null;
}

const SELECT = `SELECT t.token_hash, t.invitation_id, t.user_id, t.expires_at, t.used_at, t.superseded_at, i.accepted_at, i.canceled_at
  FROM invitation_tokens t JOIN invitations i ON i.id = t.invitation_id WHERE t.token_hash = $1`;

/** Why a token cannot set the account's first password now, or null when it can. */
function refusal(t: TokenRow, user: Pick<UserRow, 'status'>, now: number): string | null {
  if (t.used_at !== null) return INVITE_LINK_MESSAGES.used;
  if (t.canceled_at !== null) return INVITE_LINK_MESSAGES.cancelled;
  if (user.status !== 'FORCE_CHANGE_PASSWORD' || t.accepted_at !== null) return INVITE_LINK_MESSAGES.hasPassword;
  if (t.superseded_at !== null) return INVITE_LINK_MESSAGES.superseded;
  if (Number(t.expires_at) <= now) return INVITE_LINK_MESSAGES.expired;
  return null;
}

/**
 * The sign-in's password, when it was the user's invitation link token: its hash, to carry in the
 * NEW_PASSWORD_REQUIRED session. A token that can no longer set a password answers why (it needs
 * the token, so it tells nothing to a guesser). Undefined when the password is no such token.
 * Called for unknown usernames too (user undefined), so both do the same look-up.
 */
export async function invitationTokenSignIn(q: Queryable, user: UserRow | undefined, password: string, now: number): Promise<string | undefined> {
  if (!TOKEN.test(password)) return undefined;
  const t = await one<TokenRow>(q, SELECT, [hashOf(password)]);
  if (!t || !user || t.user_id !== user.id) return undefined;
  const why = refusal(t, user, now);
  if (why) throw errors.invitationLink(why);
  return t.token_hash;
}

/**
 * Spends the token of a NEW_PASSWORD_REQUIRED session inside the transaction that sets the first
 * password, and accepts its invitation (that organisation only; any other waits for an answer in
 * the app). Refused (and the password left unset) if it was used, replaced or cancelled meanwhile.
 */
export async function spendInvitationToken(q: Queryable, tokenHash: string, user: UserRow, now: number): Promise<void> {
  const t = await one<TokenRow>(q, `${SELECT} FOR UPDATE OF t, i`, [tokenHash]);
  if (!t || t.user_id !== user.id) throw errors.badSession();
  // the session outlives no token by more than its 3 minutes: expiry was checked at sign-in
  const why = refusal(t, user, -Infinity);
  if (why) throw errors.invitationLink(why);
  await q.query('UPDATE invitation_tokens SET used_at = $2 WHERE token_hash = $1', [tokenHash, now]);
  const inv = await one<{ org_id: string; role: number }>(q, 'UPDATE invitations SET accepted_at = $2 WHERE id = $1 RETURNING org_id, role', [t.invitation_id, now]);
  await q.query('INSERT INTO memberships (org_id, user_id, role, created_at) VALUES ($1, $2, $3, $4) ON CONFLICT (org_id, user_id) DO NOTHING', [
    inv!.org_id,
    user.id,
    inv!.role,
    now,
  ]);
}
