import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import { randomUUID } from 'node:crypto';
import type { Db, Queryable } from '../db/db';
import { verificationKey, type SigningKey } from './keys';

export interface TokenUser {
  id: string;
  email: string;
  name: string;
  email_verified: boolean;
  is_site_admin: boolean;
}

export interface TokenSettings {
  issuer: string; // e.g. http://localhost:8080/identity/local_demo
  clientId: string;
  idTokenTtl: number; // seconds
  refreshTokenTtl: number; // seconds
  /** Clock in epoch ms (defaults to Date.now); the identity endpoint passes the server's clock so tests need no sleeps. */
  now?: () => number;
}

export interface IssuedTokens {
  IdToken: string;
  AccessToken: string;
  RefreshToken?: string;
  ExpiresIn: number;
  TokenType: 'Bearer';
}

/** Claims the gateway reads from a verified ID token. */
export interface IdClaims {
  sub: string;
  email: string;
  name?: string;
  email_verified: boolean;
  'cognito:groups'?: string[];
  origin_jti: string;
  exp: number;
  iat: number;
}

export const SITE_ADMIN_GROUP = 'site-admins';

/**
 * Issues Cognito-shaped ID and access tokens. A new sign-in also issues a refresh token whose
 * jti is the origin_jti of every token derived from it, so revoking it kills them all.
 */
export async function issueTokens(
  q: Queryable,
  key: SigningKey,
  s: TokenSettings,
  user: TokenUser,
  originJti?: string,
): Promise<IssuedTokens> {
  const nowMs = s.now?.() ?? Date.now();
  const now = Math.floor(nowMs / 1000);
  const groups = user.is_site_admin ? [SITE_ADMIN_GROUP] : [];
  let refreshToken: string | undefined;
  if (!originJti) {
    originJti = randomUUID();
    refreshToken = await new SignJWT({ token_use: 'refresh', client_id: s.clientId })
      .setProtectedHeader({ alg: 'RS256', kid: key.kid, typ: 'JWT' })
      .setSubject(user.id)
      .setJti(originJti)
      .setIssuer(s.issuer)
      .setIssuedAt(now)
      .setExpirationTime(now + s.refreshTokenTtl)
      .sign(key.privateKey);
    await q.query('INSERT INTO refresh_tokens (jti, user_id, client_id, expires_at, created_at) VALUES ($1, $2, $3, $4, $5)', [
      originJti,
      user.id,
      s.clientId,
      (now + s.refreshTokenTtl) * 1000,
      nowMs,
    ]);
  }
  const common = { origin_jti: originJti, event_id: randomUUID(), 'cognito:groups': groups.length ? groups : undefined };
  const idToken = await new SignJWT({
    ...common,
    token_use: 'id',
    email: user.email,
    email_verified: user.email_verified,
    name: user.name || undefined,
    'cognito:username': user.id,
    auth_time: now,
  })
    .setProtectedHeader({ alg: 'RS256', kid: key.kid, typ: 'JWT' })
    .setSubject(user.id)
    .setAudience(s.clientId)
    .setIssuer(s.issuer)
    .setJti(randomUUID())
    .setIssuedAt(now)
    .setExpirationTime(now + s.idTokenTtl)
    .sign(key.privateKey);
  const accessToken = await new SignJWT({
    ...common,
    token_use: 'access',
    client_id: s.clientId,
    username: user.id,
    scope: 'aws.cognito.signin.user.admin',
    auth_time: now,
  })
    .setProtectedHeader({ alg: 'RS256', kid: key.kid, typ: 'JWT' })
    .setSubject(user.id)
    .setIssuer(s.issuer)
    .setJti(randomUUID())
    .setIssuedAt(now)
    .setExpirationTime(now + s.idTokenTtl)
    .sign(key.privateKey);
  return { IdToken: idToken, AccessToken: accessToken, RefreshToken: refreshToken, ExpiresIn: s.idTokenTtl, TokenType: 'Bearer' };
}

export class TokenError extends Error {
  constructor(
    readonly reason: 'invalid' | 'expired' | 'revoked',
    message: string,
  ) {
    super(message);
  }
}

/**
 * Tokens already verified, per signing key (so per server process and database): the signature,
 * issuer, audience, use and client checks depend only on the token string and the settings, so
 * each token pays them once (an RS256 verification through WebCrypto, 1.5 to 3 ms under load: the
 * chart's year is ~25 page requests with the same token). Only the time-dependent claims are
 * checked again on every use, as jose checks them (`exp <= now` expired, `nbf > now` not yet
 * valid, in whole seconds); an entry failing them is dropped and the token verified in full, so
 * the error is jose's as before. Bounded: least recently used first out. Public keys are never
 * removed from the key table (keys.ts keeps every key it has met), so a cached verification
 * cannot outlive its key.
 */
export const VERIFIED_TOKENS_MAX = 1024;
interface Verified {
  use: string;
  issuer: string;
  clientId: string;
  payload: Record<string, unknown>;
}
const verified = new WeakMap<SigningKey, Map<string, Verified>>();

function verifiedBefore(key: SigningKey, s: Pick<TokenSettings, 'issuer' | 'clientId'>, token: string, use: string, nowMs: number) {
  const cache = verified.get(key);
  const hit = cache?.get(token);
  if (!cache || !hit || hit.use !== use || hit.issuer !== s.issuer || hit.clientId !== s.clientId) return undefined;
  cache.delete(token);
  const now = Math.floor(nowMs / 1000);
  const { exp, nbf } = hit.payload as { exp: number; nbf?: number };
  if (exp <= now || (nbf !== undefined && nbf > now)) return undefined;
  cache.set(token, hit); // most recently used last
  return { ...hit.payload }; // a caller's changes stay its own
}

function remember(key: SigningKey, s: Pick<TokenSettings, 'issuer' | 'clientId'>, token: string, use: string, payload: Record<string, unknown>) {
  let cache = verified.get(key);
  if (!cache) verified.set(key, (cache = new Map()));
  cache.delete(token);
  cache.set(token, { use, issuer: s.issuer, clientId: s.clientId, payload });
  while (cache.size > VERIFIED_TOKENS_MAX) cache.delete(cache.keys().next().value!);
}

/** How many verified tokens a key's cache holds (tests). */
export const verifiedTokenCount = (key: SigningKey) => verified.get(key)?.size ?? 0;

/**
 * Verifies signature, issuer, expiry (which must be present), use, and that the token was made
 * for our app client (`aud` of an ID token, `client_id` of access and refresh tokens), then that
 * the sign-in it came from was not revoked.
 */
export async function verifyToken(
  db: Queryable,
  key: SigningKey,
  s: Pick<TokenSettings, 'issuer' | 'now' | 'clientId'>,
  token: string,
  use: 'id' | 'access' | 'refresh',
): Promise<IdClaims & Record<string, unknown>> {
  const { payload, origin } = await verifyTokenUnrevoked(db, key, s, token, use);
  // the revocation check is never cached: a revoked sign-in is refused on its next request
  const rows = await db.query<{ revoked_at: number | null }>('SELECT revoked_at FROM refresh_tokens WHERE jti = $1', [origin]);
  if (!rows[0] || rows[0].revoked_at) throw new TokenError('revoked', 'Token has been revoked.');
  return payload;
}

/**
 * verifyToken without its last step: the claims and the sign-in they came from (`origin`, the
 * refresh token's jti), whose revocation the caller must still check, as verifyToken does
 * (a route that asks its own database question anyway asks that one in the same statement).
 */
export async function verifyTokenUnrevoked(
  db: Queryable,
  key: SigningKey,
  s: Pick<TokenSettings, 'issuer' | 'now' | 'clientId'>,
  token: string,
  use: 'id' | 'access' | 'refresh',
): Promise<{ payload: IdClaims & Record<string, unknown>; origin: string }> {
  const nowMs = s.now?.() ?? Date.now();
  let payload = verifiedBefore(key, s, token, use, nowMs);
  if (!payload) {
    try {
      ({ payload } = await jwtVerify(token, verificationKey(db, key), {
        issuer: s.issuer,
        algorithms: ['RS256'],
        currentDate: new Date(nowMs),
        requiredClaims: ['exp', 'iat', 'sub', 'token_use'],
        ...(use === 'id' ? { audience: s.clientId } : {}),
      }));
    } catch (err) {
      if (err instanceof joseErrors.JWTExpired) throw new TokenError('expired', 'Token has expired.');
      throw new TokenError('invalid', 'Invalid token.');
    }
    if (payload.token_use !== use) throw new TokenError('invalid', `Not an ${use} token.`);
    if (use !== 'id' && payload.client_id !== s.clientId) throw new TokenError('invalid', 'Invalid token.');
    remember(key, s, token, use, payload);
  }
  const origin = (use === 'refresh' ? payload.jti : payload.origin_jti) as string | undefined;
  if (!origin) throw new TokenError('invalid', 'Invalid token.');
  return { payload: payload as IdClaims & Record<string, unknown>, origin };
}

/**
 * Revokes one sign-in (RevokeToken), or all of a user's (GlobalSignOut, password reset), or all
 * but the one named in `except` (ChangePassword keeps the session that changed it).
 */
export async function revokeSignIns(db: Db | Queryable, where: { jti: string } | { userId: string; except?: string }, at = Date.now()) {
  if ('jti' in where) await db.query('UPDATE refresh_tokens SET revoked_at = $2 WHERE jti = $1 AND revoked_at IS NULL', [where.jti, at]);
  else
    await db.query('UPDATE refresh_tokens SET revoked_at = $2 WHERE user_id = $1 AND revoked_at IS NULL AND jti IS DISTINCT FROM $3', [
      where.userId,
      at,
      where.except ?? null,
    ]);
}
