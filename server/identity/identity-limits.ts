import { decodeJwt } from 'jose';
import type { Config } from '../config';
import { errors } from './cognito-errors';
import { fixedWindowLimiter } from './rate-limit';

const WINDOW_MS = 60_000;

/** The account an identity request names: its username, or the subject of the token it carries. */
export function targetAccount(body: unknown): string | undefined {
  if (!body || typeof body !== 'object') return undefined;
  const b = body as Record<string, unknown>;
  const params = (b.AuthParameters ?? b.ChallengeResponses ?? {}) as Record<string, unknown>;
  const username = b.Username ?? params.USERNAME;
  if (typeof username === 'string' && username.trim()) return `u:${username.trim().toLowerCase()}`;
  const token = b.AccessToken ?? b.RefreshToken ?? params.REFRESH_TOKEN ?? b.Token;
  if (typeof token !== 'string') return undefined;
  try {
    const sub = decodeJwt(token).sub; // unverified: only a key for counting, the operation verifies
    return sub ? `s:${sub}` : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Per-minute limits on every identity operation: per client address and per account named.
 * Kept in memory per server process (a flood is blunted per instance; correctness never depends
 * on it). Over either, the answer is Cognito's TooManyRequestsException.
 */
export function identityLimits(config: Pick<Config, 'IDENTITY_RATE_PER_ADDRESS' | 'IDENTITY_RATE_PER_ACCOUNT'>, now: () => number) {
  const perAddress = fixedWindowLimiter(config.IDENTITY_RATE_PER_ADDRESS, WINDOW_MS, now);
  const perAccount = fixedWindowLimiter(config.IDENTITY_RATE_PER_ACCOUNT, WINDOW_MS, now);
  return (address: string, body: unknown) => {
    if (!perAddress(address)) throw errors.tooManyRequests();
    const account = targetAccount(body);
    if (account && !perAccount(account)) throw errors.tooManyRequests();
  };
}
