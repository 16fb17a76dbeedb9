import { createHash, randomInt, randomUUID, timingSafeEqual } from 'node:crypto';
import { one, type Queryable } from '../db/db';
import { errors } from './cognito-errors';

/**
 * One-time codes sent by email: stored only as a hash, valid 24 h (email verification) or 1 h
 * (password reset), single use, dead after 5 wrong tries. A new code replaces the previous one.
 */
export type CodePurpose = 'verify_email' | 'reset_password';

export const CODE_TTL_MS: Record<CodePurpose, number> = { verify_email: 24 * 3_600_000, reset_password: 3_600_000 };
export const MAX_CODE_ATTEMPTS = 5;
/** Codes of one purpose a user can be sent per hour (stops mail bombing). */
export const MAX_CODES_PER_HOUR = 5;

const hashCode = (id: string, code: string) => createHash('sha256').update(`${id}:${code.trim()}`).digest();

/**
 * Creates a code and returns it, or null when the user was sent too many in the last hour, or when
 * `exists` is false: an unknown account (ForgotPassword), for which `userId` is an id no user has.
 * Every call runs the same statements and makes and hashes a code, whether a code is stored or
 * not (their parameters say so), so an unknown account costs what a known one does.
 */
export async function issueCode(q: Queryable, userId: string, purpose: CodePurpose, now: number, exists = true): Promise<string | null> {
  const recent = await one<{ n: number }>(
    q,
    'SELECT count(*)::int AS n FROM identity_codes WHERE user_id = $1 AND purpose = $2 AND created_at > $3',
    [userId, purpose, now - 3_600_000],
  );
  const make = exists && (recent?.n ?? 0) < MAX_CODES_PER_HOUR;
  // spent and expired codes are kept a week (for the hourly count and audits), then dropped
  await q.query('DELETE FROM identity_codes WHERE user_id = $1 AND created_at < $2 AND $3::boolean', [userId, now - 7 * 86_400_000, make]);
  // the older codes are spent, and marked replaced: their links say so rather than that they are wrong
  await q.query('UPDATE identity_codes SET used_at = $3, superseded_at = $3 WHERE user_id = $1 AND purpose = $2 AND used_at IS NULL AND $4::boolean', [userId, purpose, now, make]);
  const id = randomUUID();
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  await q.query(
    `INSERT INTO identity_codes (id, user_id, purpose, code_hash, expires_at, created_at)
     SELECT $1::uuid, $2::uuid, $3::text, $4::text, $5::bigint, $6::bigint WHERE $7::boolean`,
    [id, userId, purpose, hashCode(id, code).toString('hex'), now + CODE_TTL_MS[purpose], now, make],
  );
  return make ? code : null;
}

/** Spends every unused code of the user for `purpose` (a withdrawn email change: its link must prove nothing). */
export async function voidCodes(q: Queryable, userId: string, purpose: CodePurpose, now: number): Promise<void> {
  await q.query('UPDATE identity_codes SET used_at = $3 WHERE user_id = $1 AND purpose = $2 AND used_at IS NULL', [userId, purpose, now]);
}

/**
 * Spends the user's current code if it matches; otherwise throws the Cognito error Amplify expects.
 * Run it outside the caller's transaction: a wrong try must count even when the caller rolls back.
 * `uniform` (the unsigned confirmations, which an unknown address can call too) answers every
 * failure, expired, spent or exhausted included, as a mismatch, as an unknown address gets.
 */
export async function consumeCode(q: Queryable, userId: string, purpose: CodePurpose, code: string, now: number, uniform = false): Promise<void> {
  try {
    await consume(q, userId, purpose, code, now);
  } catch (err) {
    throw uniform ? errors.codeMismatch() : err;
  }
}

async function consume(q: Queryable, userId: string, purpose: CodePurpose, code: string, now: number): Promise<void> {
  const row = await one<{ id: string; code_hash: string; expires_at: number; attempts: number }>(
    q,
    `SELECT id, code_hash, expires_at, attempts FROM identity_codes
     WHERE user_id = $1 AND purpose = $2 AND used_at IS NULL ORDER BY created_at DESC LIMIT 1`,
    [userId, purpose],
  );
  if (!row || Number(row.expires_at) <= now) {
    if (await superseded(q, userId, purpose, code, now)) throw errors.codeSuperseded();
    throw errors.codeExpired();
  }
  if (row.attempts >= MAX_CODE_ATTEMPTS) throw errors.attemptLimit();
  const expected = Buffer.from(row.code_hash, 'hex');
  if (!timingSafeEqual(hashCode(row.id, code), expected)) {
    // an older email's code is no guess: it is not counted against the current one
    if (await superseded(q, userId, purpose, code, now)) throw errors.codeSuperseded();
    await q.query('UPDATE identity_codes SET attempts = attempts + 1 WHERE id = $1', [row.id]);
    throw errors.codeMismatch();
  }
  // the used_at condition makes the code single use even when two requests race
  const spent = await q.query('UPDATE identity_codes SET used_at = $2 WHERE id = $1 AND used_at IS NULL RETURNING id', [row.id, now]);
  if (!spent.length) throw errors.codeExpired();
}

/** Whether `code` is one of the user's codes for `purpose` that a newer one replaced while it was still valid. */
async function superseded(q: Queryable, userId: string, purpose: CodePurpose, code: string, now: number): Promise<boolean> {
  const rows = await q.query<{ id: string; code_hash: string }>(
    `SELECT id, code_hash FROM identity_codes
     WHERE user_id = $1 AND purpose = $2 AND superseded_at IS NOT NULL AND expires_at > $3 ORDER BY created_at DESC LIMIT ${MAX_CODES_PER_HOUR * 24}`,
    [userId, purpose, now],
  );
  return rows.some((r) => timingSafeEqual(hashCode(r.id, code), Buffer.from(r.code_hash, 'hex')));
}
