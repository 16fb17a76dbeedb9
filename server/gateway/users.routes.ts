import { Hono, type Context } from 'hono';
import type { AppContext } from '../context';
import { clientAddress, publicOrigin } from '../http/origin';
import { MANAGERS, type GatewayEnv } from '../http/auth';
import { HttpError, badRequest, conflict, forbidden, notFound } from '../http/errors';
import { claimSensorRequestSchema, signupRequestSchema } from '../../src/contract/user.schema';
import { reauthenticateRequestSchema, recoveryCodeCountSchema, recoveryCodesSchema } from '../../src/contract/account.schema';
import { memberQuerySchema } from '../../src/contract/member.schema';
import { createSelfRequestSchema, currentUserQuerySchema, updateUserRequestSchema, userLookupQuerySchema, userLookupResponseSchema } from '../../src/contract/account.schema';
import { checkEmail, checkName, normaliseEmail } from '../../src/domain/sign-up-rules';
import { one } from '../db/db';
import { findUserById, findUserByUsername, type UserRow } from '../identity/identity-users';
import { checkClaim, signUpWithSensor } from '../identity/sign-up';
import { fixedWindowLimiter } from '../identity/rate-limit';
import { normaliseMobile, toCurrentUser } from '../identity/profile';
import { uuidParam } from '../http/input-guard';
import { reauthenticate, requireRecentReauthenticationOr403 } from '../identity/reauth';
import { remainingRecoveryCodes, replaceRecoveryCodes } from '../identity/recovery-codes';
import { queueSecurityNotice } from '../identity/mail';
import { asClient, HashQueueFull } from '../identity/hash-queue';
import { CognitoError } from '../identity/cognito-errors';


/** Unsigned: claim check and sign-up (monitoring-client 7). Lightly rate-limited per client address. */
export function publicSignupRoutes(ctx: AppContext) {
  const r = new Hono<GatewayEnv>();
  const allow = fixedWindowLimiter(30, 60_000, ctx.now);
  const limit = (c: Context) => {
    if (!allow(clientAddress(c, ctx.config))) throw new HttpError(429, 'TOO_MANY_REQUESTS', 'Too many attempts, please try again later');
  };

  r.post('/claim-sensor', async (c) => {
    limit(c);
    const body = claimSensorRequestSchema.parse(await c.req.json());
    return c.json(await checkClaim(ctx.db, body));
  });

  r.post('/signup', async (c) => {
    limit(c);
    const body = signupRequestSchema.parse(await c.req.json());
    return c.json(await signUpWithSensor(ctx, body, publicOrigin(ctx, c.req.url)));
  });
  return r;
}

async function callerRow(ctx: AppContext, c: Context<GatewayEnv>): Promise<UserRow> {
  const user = await findUserById(ctx.db, c.get('caller').id);
  if (!user) throw notFound('USER_NOT_FOUND', 'User not found.');
  return user;
}

/** The signed-in user's own profile (organisation-and-routes 7.1). */
export function userRoutes(ctx: AppContext) {
  const r = new Hono<GatewayEnv>();

  // idempotent: the profile of an account made by sign-up or invitation already exists
  r.post('/create-self', async (c) => {
    const text = await c.req.text();
    const body = createSelfRequestSchema.parse(text ? JSON.parse(text) : {});
    const user = await callerRow(ctx, c);
    if (!user.profile_created) {
      const name = body.name !== undefined ? checkName(body.name) : undefined;
      if (name && !name.ok) throw badRequest(name.error.code, name.error.message);
      await ctx.db.query('UPDATE users SET profile_created = true, name = COALESCE($2, name) WHERE id = $1', [user.id, name?.ok ? name.value : null]);
    }
    return c.json(toCurrentUser((await findUserById(ctx.db, user.id))!));
  });

  // re-authentication: the current password again, for this sign-in only (identity/reauth.ts)
  r.post('/reauthenticate', async (c) => {
    const { password } = reauthenticateRequestSchema.parse(await c.req.json());
    const user = await callerRow(ctx, c);
    try {
      const ok = await asClient(clientAddress(c, ctx.config), () => reauthenticate(ctx.db, user, c.get('caller').signInId, password, ctx.now()));
      if (!ok) throw new HttpError(403, 'INCORRECT_PASSWORD', 'Incorrect password.');
    } catch (err) {
      if (err instanceof CognitoError || err instanceof HashQueueFull) throw new HttpError(429, 'TOO_MANY_REQUESTS', 'Too many attempts, please try again later');
      throw err;
    }
    return c.body(null, 204);
  });

  // recovery codes for a lost authenticator (identity/recovery-codes.ts): how many are left, and
  // new ones (MFA on, and the password proved again on this sign-in within 5 minutes)
  r.get('/mfa/recovery-codes', async (c) => c.json(recoveryCodeCountSchema.parse({ remaining: await remainingRecoveryCodes(ctx.db, c.get('caller').id) })));
  r.post('/mfa/recovery-codes', async (c) => {
    const user = await callerRow(ctx, c);
    if (!user.totp_enabled) throw conflict('MFA_NOT_ON', 'Turn on two-factor authentication first: recovery codes stand in for its codes.');
    await requireRecentReauthenticationOr403(ctx.db, user.id, c.get('caller').signInId, ctx.now());
    const now = ctx.now();
    const codes = await ctx.db.tx(async (q) => {
      const made = await replaceRecoveryCodes(q, user.id, now);
      await queueSecurityNotice(q, user.email, { origin: publicOrigin(ctx, c.req.url), now }, 'recovery-codes-made');
      return made;
    });
    return c.json(recoveryCodesSchema.parse({ codes }));
  });

  r.get('/users/current-v2', async (c) => {
    const { email } = currentUserQuerySchema.parse(c.req.query());
    const user = await callerRow(ctx, c);
    const asked = normaliseEmail(email);
    if (asked !== user.email && asked !== c.get('caller').email.toLowerCase()) throw forbidden('You can only read your own profile.');
    if (!user.profile_created) throw notFound('USER_NOT_FOUND', 'User not found.');
    return c.json(toCurrentUser(user));
  });

  r.patch('/users/:memberId', async (c) => {
    memberQuerySchema.parse(c.req.query());
    const caller = c.get('caller');
    const target = uuidParam(c, 'memberId');
    if (target !== caller.id.toLowerCase()) {
      // someone the caller shares an organisation with exists for them (403); anyone else does not (404)
      const shared = await one(ctx.db, 'SELECT 1 FROM memberships a JOIN memberships b ON a.org_id = b.org_id WHERE a.user_id = $1 AND b.user_id::text = $2 LIMIT 1', [caller.id, target]);
      if (!shared) throw notFound('USER_NOT_FOUND', 'User not found.');
      throw forbidden('You can only change your own profile.');
    }
    const body = updateUserRequestSchema.parse(await c.req.json());
    if ('displaySettings' in body) {
      await ctx.db.query('UPDATE users SET display_settings = $2 WHERE id = $1', [caller.id, JSON.stringify(body.displaySettings)]);
    } else {
      const name = body.name !== undefined ? checkName(body.name) : undefined;
      if (name && !name.ok) throw badRequest(name.error.code, name.error.message);
      let mobile: string | null | undefined = undefined;
      if (body.mobile === null || body.mobile?.trim() === '') mobile = null;
      else if (body.mobile !== undefined) {
        mobile = normaliseMobile(body.mobile);
        if (!mobile) throw badRequest('INVALID_MOBILE', 'Invalid mobile phone number');
      }
      await ctx.db.query(
        `UPDATE users SET name = COALESCE($2, name), mobile = CASE WHEN $3::boolean THEN $4 ELSE mobile END WHERE id = $1`,
        [caller.id, name?.ok ? name.value : null, mobile !== undefined, mobile ?? null],
      );
    }
    return c.json(toCurrentUser(await callerRow(ctx, c)));
  });

  // the invite form looks up an existing account by email; only managers may ask, a few times a
  // minute, and learn only whether it exists and its name (no id, no mobile)
  const lookups = fixedWindowLimiter(ctx.config.USER_LOOKUPS_PER_MINUTE, 60_000, ctx.now);
  r.get('/users', async (c) => {
    const { email } = userLookupQuerySchema.parse(c.req.query());
    const manager = await one(ctx.db, 'SELECT 1 FROM memberships WHERE user_id = $1 AND role = ANY($2::smallint[]) LIMIT 1', [c.get('caller').id, [...MANAGERS]]);
    if (!manager) throw forbidden();
    if (!lookups(c.get('caller').id)) throw new HttpError(429, 'TOO_MANY_REQUESTS', 'Too many look-ups, please try again in a minute.');
    const checked = checkEmail(email);
    if (!checked.ok) throw badRequest(checked.error.code, checked.error.message);
    const user = await findUserByUsername(ctx.db, checked.value);
    return c.json(userLookupResponseSchema.parse(user ? { found: true, name: user.name } : { found: false }));
  });
  return r;
}
