import { SignJWT, jwtVerify } from 'jose';
import type { SigningKey } from './keys';

/**
 * The opaque `Session` of a sign-in challenge: a short-lived signed token naming the user, so any
 * server instance can continue the challenge without shared memory. Cognito's lasts 3 minutes.
 */
export const CHALLENGE_TTL_SECONDS = 180;

export async function signChallengeSession(key: SigningKey, issuer: string, userId: string, challenge: string, now: number, extra: Record<string, string> = {}): Promise<string> {
  const iat = Math.floor(now / 1000);
  return new SignJWT({ ...extra, token_use: 'challenge', challenge })
    .setProtectedHeader({ alg: 'RS256', kid: key.kid })
    .setSubject(userId)
    .setIssuer(issuer)
    .setIssuedAt(iat)
    .setExpirationTime(iat + CHALLENGE_TTL_SECONDS)
    .sign(key.privateKey);
}

/** The user id the session was issued to, or null when it is forged, expired or for another challenge. */
export async function readChallengeSession(key: SigningKey, issuer: string, session: string, challenge: string, now: number): Promise<string | null> {
  return (await readChallengeClaims(key, issuer, session, challenge, now))?.sub ?? null;
}

/** The session's claims (the user id as `sub`, and what the challenge was signed with), or null as above. */
export async function readChallengeClaims(key: SigningKey, issuer: string, session: string, challenge: string, now: number): Promise<(Record<string, unknown> & { sub: string }) | null> {
  try {
    const { payload } = await jwtVerify(session, key.publicKey, { issuer, algorithms: ['RS256'], currentDate: new Date(now) });
    if (payload.token_use !== 'challenge' || payload.challenge !== challenge || !payload.sub) return null;
    return { ...payload, sub: payload.sub };
  } catch {
    return null;
  }
}
