import type { Context, MiddlewareHandler } from 'hono';
import type { AppContext } from '../context';
import { one } from '../db/db';
import { SITE_ADMIN_GROUP, TokenError, verifyToken } from '../identity/tokens';
import { badRequest, forbidden, notFound, unauthorized } from './errors';
import { UUID_PATTERN } from '../../src/contract/safe-text';
import { mfaMissingSql, mfaRequiredForManagers, mfaRequiredForSiteAdmins, siteAdminMfaRequired } from './mfa-rule';

export interface Caller {
  id: string;
  email: string;
  isSiteAdmin: boolean;
  /** The sign-in (refresh token jti) the ID token came from. */
  signInId: string;
  /** A site admin without the two-factor authentication site admins must have: no site admin powers until it is on. */
  siteAdminWithoutMfa?: boolean;
}

export type GatewayEnv = { Variables: { caller: Caller } };

/** Like API Gateway's Cognito authorizer: a valid, unrevoked ID token in Authorization. */
export function requireCaller(ctx: AppContext): MiddlewareHandler<GatewayEnv> {
  return async (c, next) => {
    const header = c.req.header('authorization');
    if (!header) throw unauthorized('Missing Authorization header.');
    const token = header.replace(/^Bearer\s+/i, '').trim();
    try {
      const claims = await verifyToken(ctx.db, ctx.key, ctx.tokens, token, 'id');
      let isSiteAdmin = (claims['cognito:groups'] ?? []).includes(SITE_ADMIN_GROUP);
      // a site admin's session from before MFA was on (or required) carries no site admin power
      const siteAdminWithoutMfa = isSiteAdmin && siteAdminMfaRequired(ctx.config) && !(await one(ctx.db, 'SELECT 1 FROM users WHERE id = $1 AND totp_enabled', [claims.sub]));
      if (siteAdminWithoutMfa) isSiteAdmin = false;
      c.set('caller', { id: claims.sub, email: claims.email, isSiteAdmin, signInId: claims.origin_jti, ...(siteAdminWithoutMfa && { siteAdminWithoutMfa }) });
    } catch (err) {
      if (err instanceof TokenError) throw unauthorized(err.message);
      throw err;
    }
    await next();
  };
}

export const ROLE = { MEMBER: 1, ADMIN: 2, OWNER: 3, METER_READER: 4 } as const;
export type Role = (typeof ROLE)[keyof typeof ROLE];

/**
 * The tenant rule: the caller must belong to the organisation with one of the roles given
 * (default: any data role, i.e. not meter reader). Site admins must still be members.
 * Answers 404 for organisations the caller cannot see, so ids are not probeable.
 */
export async function requireMember(
  ctx: AppContext,
  c: Context<GatewayEnv>,
  orgId: string,
  roles: readonly Role[] = [ROLE.MEMBER, ROLE.ADMIN, ROLE.OWNER],
): Promise<{ role: Role }> {
  const caller = c.get('caller');
  if (!UUID_PATTERN.test(orgId)) throw badRequest('INVALID_ID', 'The organisation id must be a UUID.');
  const m = await one<{ role: Role; mfa_missing: boolean }>(
    ctx.db,
    `SELECT m.role, ${mfaMissingSql('m')} AS mfa_missing FROM memberships m WHERE m.org_id = $1 AND m.user_id = $2`,
    [orgId, caller.id],
  );
  return checkRole(m, roles);
}

/**
 * A stranger 404, a manager the organisation requires MFA of who has none 403 MFA_REQUIRED (any
 * call: the session predates the requirement or MFA was never set up), a missing role 403.
 */
export function checkRole<M extends { role: Role; mfa_missing: boolean }>(m: M | undefined, roles: readonly Role[]): M {
  if (!m) throw notFound('ORGANISATION_NOT_FOUND', 'Organisation not found.');
  if (m.mfa_missing) throw mfaRequiredForManagers();
  if (!roles.includes(m.role)) throw forbidden();
  return m;
}

/**
 * requireMember (same rule, same errors, same order) and whether the organisation holds the
 * sensor, in one query: a route that reads one sensor's data (the chart's ~25 page requests a
 * year) pays one database round trip for both checks instead of two. `sensorExists` is false for
 * an id that is not a UUID; the caller still answers its own INVALID_ID and SENSOR_NOT_FOUND, after
 * the membership errors, as before.
 */
export async function requireMemberWithSensor(
  ctx: AppContext,
  c: Context<GatewayEnv>,
  orgId: string,
  sensorId: string,
  roles: readonly Role[] = [ROLE.MEMBER, ROLE.ADMIN, ROLE.OWNER],
): Promise<{ role: Role; sensorExists: boolean }> {
  const caller = c.get('caller');
  if (!UUID_PATTERN.test(orgId)) throw badRequest('INVALID_ID', 'The organisation id must be a UUID.');
  const m = await one<{ role: Role; sensor_exists: boolean; mfa_missing: boolean }>(
    ctx.db,
    `SELECT m.role, EXISTS (SELECT 1 FROM sensors s WHERE s.id = $3 AND s.org_id = m.org_id) AS sensor_exists, ${mfaMissingSql('m')} AS mfa_missing
       FROM memberships m WHERE m.org_id = $1 AND m.user_id = $2`,
    [orgId, caller.id, UUID_PATTERN.test(sensorId) ? sensorId : null],
  );
  const { role, sensor_exists } = checkRole(m, roles);
  return { role, sensorExists: sensor_exists };
}

export const MANAGERS: readonly Role[] = [ROLE.ADMIN, ROLE.OWNER];

export function requireSiteAdmin(c: Context<GatewayEnv>) {
  if (c.get('caller').siteAdminWithoutMfa) throw mfaRequiredForSiteAdmins();
  if (!c.get('caller').isSiteAdmin) throw forbidden('Only site admins can do this.');
}
