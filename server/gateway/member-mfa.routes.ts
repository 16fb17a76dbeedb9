import { Hono } from 'hono';
import type { AppContext } from '../context';
import { one } from '../db/db';
import { ROLE, requireMember, type GatewayEnv } from '../http/auth';
import { HttpError, conflict, notFound } from '../http/errors';
import { publicOrigin } from '../http/origin';
import { memberMfaResetResponseSchema, memberPathSchema } from '../../src/contract/member.schema';
import { deleteRecoveryCodes } from '../identity/recovery-codes';
import { findUserById } from '../identity/identity-users';
import { queueSecurityNotice } from '../identity/mail';
import { requireRecentReauthenticationOr403 } from '../identity/reauth';
import { MFA_RESET_MESSAGES } from '../../src/domain/org-settings';

// the members screen shows these texts for these codes
const REFUSED = MFA_RESET_MESSAGES.refused;

interface TargetRow {
  id: string;
  email: string;
  is_site_admin: boolean;
  has_mfa: boolean;
}

/**
 * A lost authenticator reset by someone else (issue 35): an organisation's owner for a member of
 * it, a site admin for anyone. The member's TOTP secret (also one being set up) and recovery codes
 * are deleted and a security notice tells them who did it; where their role requires MFA, their
 * sessions are refused (403 MFA_REQUIRED) and the next sign-in asks for a new authenticator
 * (MFA_SETUP). Never one's own (Account settings turns it off), never a site admin's unless by a site admin.
 * Like turning one's own MFA off, it needs the caller's password proved again on this sign-in within
 * 5 minutes (POST /reauthenticate): a stolen session alone cannot strip another account's second factor.
 */
export function memberMfaRoutes(ctx: AppContext) {
  const r = new Hono<GatewayEnv>();
  r.post('/organisations/:orgId/members/:memberId/reset-mfa', async (c) => {
    const { orgId, memberId } = memberPathSchema.parse(c.req.param());
    const caller = c.get('caller');
    // a site admin (with MFA on: auth.ts clears isSiteAdmin otherwise) acts in any organisation
    if (!caller.isSiteAdmin) await requireMember(ctx, c, orgId, [ROLE.OWNER]);
    if (memberId === caller.id) throw new HttpError(403, 'CANNOT_ACT_ON_SELF', REFUSED.CANNOT_ACT_ON_SELF);
    const now = ctx.now();
    await requireRecentReauthenticationOr403(ctx.db, caller.id, caller.signInId, now);
    const origin = publicOrigin(ctx, c.req.url);
    await ctx.db.tx(async (q) => {
      const target = await one<TargetRow>(
        q,
        `SELECT u.id, u.email, u.is_site_admin, (u.totp_enabled OR u.totp_secret IS NOT NULL OR u.totp_pending IS NOT NULL) AS has_mfa
         FROM memberships m JOIN users u ON u.id = m.user_id WHERE m.org_id = $1 AND m.user_id = $2 FOR UPDATE OF u`,
        [orgId, memberId],
      );
      if (!target) throw notFound('MEMBER_NOT_FOUND', REFUSED.MEMBER_NOT_FOUND);
      if (target.is_site_admin && !caller.isSiteAdmin) throw new HttpError(403, 'SITE_ADMIN_PROTECTED', REFUSED.SITE_ADMIN_PROTECTED);
      if (!target.has_mfa) throw conflict('MFA_NOT_SET_UP', REFUSED.MFA_NOT_SET_UP);
      // the last accepted step belonged to the secret removed: a new authenticator's first code, even
      // in the same 30 s, is not a replay of it (it was refused as 'not right' until the next step)
      await q.query('UPDATE users SET totp_enabled = false, totp_secret = NULL, totp_pending = NULL, totp_last_step = 0 WHERE id = $1', [memberId]);
      await deleteRecoveryCodes(q, memberId);
      const by = await findUserById(q, caller.id);
      await queueSecurityNotice(q, target.email, { origin, now }, 'mfa-reset', { by: by ? `${by.name || by.email} (${by.email})` : undefined });
    });
    return c.json(memberMfaResetResponseSchema.parse({ cognitoIdentityId: memberId, mfaEnabled: false }));
  });
  return r;
}
