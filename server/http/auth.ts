import type { Context, MiddlewareHandler } from 'hono';
import type { AppContext } from '../context';
import { one } from '../db/db';
import { SITE_ADMIN_GROUP, TokenError, verifyToken } from '../identity/tokens';
import { badRequest, forbidden, notFound, unauthorized } from './errors';
import { UUID_PATTERN } from '../../src/contract/safe-text';

export interface Caller {
  id: string;
  email: string;
  isSiteAdmin: boolean;
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
      c.set('caller', {
        id: claims.sub,
        email: claims.email,
        isSiteAdmin: (claims['cognito:groups'] ?? []).includes(SITE_ADMIN_GROUP),
      });
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
  const m = await one<{ role: Role }>(ctx.db, 'SELECT role FROM memberships WHERE org_id = $1 AND user_id = $2', [orgId, caller.id]);
  if (!m) throw notFound('ORGANISATION_NOT_FOUND', 'Organisation not found.');
  if (!roles.includes(m.role)) throw forbidden();
  return m;
}

export const MANAGERS: readonly Role[] = [ROLE.ADMIN, ROLE.OWNER];

export function requireSiteAdmin(c: Context<GatewayEnv>) {
  if (!c.get('caller').isSiteAdmin) throw forbidden('Only site admins can do this.');
}
