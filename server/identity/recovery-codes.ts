import { createHash, randomInt } from 'node:crypto';
import type { Queryable } from '../db/db';
import { normaliseRecoveryCode } from '../../src/domain/totp-key';

/**
 * Recovery codes for a lost authenticator (TOTP MFA): ten codes, shown once when made, each
 * accepted once at the sign-in's code step (the SOFTWARE_TOKEN_MFA challenge's
 * SOFTWARE_TOKEN_MFA_CODE, so aws-amplify's confirmSignIn carries it unchanged) in place of a
 * code from the app. 16 characters of a 31-letter alphabet (79 bits): only a SHA-256 of each is
 * kept, which is as hard to reverse as guessing the code. Making new ones replaces the old.
 */
export const RECOVERY_CODE_COUNT = 10;
// no i, l, o, 0 or 1: nothing to misread when typed from paper
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const GROUPS = 4;
const GROUP = 4;

// 'abcd-efgh-jkmn-pqrs' as typed in any case, with or without the hyphens and spaces (the rule the login view checks too)
export { looksLikeRecoveryCode } from '../../src/domain/totp-key';

function newCode(): string {
  const chars = Array.from({ length: GROUPS * GROUP }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
  return chars.match(new RegExp(`.{${GROUP}}`, 'g'))!.join('-');
}

const hashOf = (code: string) => createHash('sha256').update(normaliseRecoveryCode(code)).digest('base64');

/** New codes for the user (the old ones stop working); the only time their text exists. */
export async function replaceRecoveryCodes(q: Queryable, userId: string, now: number): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newCode);
  await q.query('DELETE FROM mfa_recovery_codes WHERE user_id = $1', [userId]);
  for (const code of codes) await q.query('INSERT INTO mfa_recovery_codes (user_id, code_hash, created_at) VALUES ($1, $2, $3)', [userId, hashOf(code), now]);
  return codes;
}

/** Spends a code: true once for each unused code (the UPDATE's condition lets two racing sign-ins have it once). */
export async function spendRecoveryCode(q: Queryable, userId: string, code: string, now: number): Promise<boolean> {
  const rows = await q.query('UPDATE mfa_recovery_codes SET used_at = $3 WHERE user_id = $1 AND code_hash = $2 AND used_at IS NULL RETURNING user_id', [userId, hashOf(code), now]);
  return rows.length > 0;
}

export async function remainingRecoveryCodes(q: Queryable, userId: string): Promise<number> {
  const [row] = await q.query<{ n: number | string }>('SELECT count(*) AS n FROM mfa_recovery_codes WHERE user_id = $1 AND used_at IS NULL', [userId]);
  return Number(row?.n ?? 0);
}

export const deleteRecoveryCodes = (q: Queryable, userId: string) => q.query('DELETE FROM mfa_recovery_codes WHERE user_id = $1', [userId]);
