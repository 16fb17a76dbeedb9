import { randomUUID, timingSafeEqual } from 'node:crypto';
import { SIGN_UP_MESSAGES, checkClaimStep, type SignUpErrorCode } from '../../src/domain/sign-up-rules';
import { checkSignUp } from '../../src/domain/sign-up-password';
import { one, type Queryable } from '../db/db';
import { queueEmail } from './mail';
import { HttpError, badRequest } from '../http/errors';
import type { AppContext } from '../context';
import { issueCode } from './codes';
import { verificationEmail } from './emails';
import { findUserByUsername, insertUser, isUniqueViolation } from './identity-users';
import { hashPassword } from './passwords';

const invalid = (code: SignUpErrorCode, message: string) => badRequest(code, message);
const invalidClaim = () => invalid('INVALID_CLAIM_CODE', SIGN_UP_MESSAGES.claimCodeInvalid);

const sameCode = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/**
 * The unclaimed sensor with this serial and claim code, or INVALID_CLAIM_CODE: an unknown serial,
 * a wrong code and an already claimed sensor look the same from outside.
 */
export async function findClaimableSensor(q: Queryable, serial: string, claimCode: string, forUpdate = false): Promise<{ id: string }> {
  const row = await one<{ id: string; org_id: string | null; claim_code: string }>(
    q,
    `SELECT id, org_id, claim_code FROM sensors WHERE serial = $1${forUpdate ? ' FOR UPDATE' : ''}`,
    [serial],
  );
  if (!row || row.org_id !== null || !sameCode(row.claim_code.toLowerCase(), claimCode)) throw invalidClaim();
  return { id: row.id };
}

/** POST /claim-sensor: format first (INVALID_SERIAL / INVALID_CLAIM_CODE), then the claim itself. */
export async function checkClaim(q: Queryable, input: { serial: string; claimCode: string }): Promise<{ serial: string }> {
  const checked = checkClaimStep(input);
  if (!checked.ok) throw invalid(checked.error.code, checked.error.message);
  await findClaimableSensor(q, checked.value.serial, checked.value.claimCode);
  return { serial: checked.value.serial };
}

/** Lower-case words joined by hyphens, accents dropped: "Ngāti Whātua Ltd." -> "ngati-whatua-ltd". */
export function slugify(name: string): string {
  const base = name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return base || 'organisation';
}

/** The slug itself, or the first free of slug-2, slug-3 ... */
export async function uniqueSlug(q: Queryable, name: string): Promise<string> {
  const base = slugify(name);
  const taken = new Set(
    (await q.query<{ slug: string }>(`SELECT slug FROM organisations WHERE slug = $1 OR slug LIKE $2`, [base, `${base}-%`])).map((r) => r.slug),
  );
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}

export interface SignUpResult {
  organisation: { id: string; slug: string; name: string };
}

/**
 * POST /signup: the account, the organisation, the owner membership, the claimed sensor and the
 * verification email, in one transaction: all of it or none of it.
 */
/** The extra organisation-name check: a name another organisation uses (letter case and spaces aside) is refused. */
async function refuseTakenName(q: Queryable, name: string) {
  const taken = await q.query('SELECT 1 FROM organisations WHERE lower(name) = lower($1) LIMIT 1', [name.trim().replace(/\s+/g, ' ')]);
  if (taken.length) throw invalid('INVALID_ORG_NAME', SIGN_UP_MESSAGES.orgNameTaken);
}

export async function signUpWithSensor(ctx: AppContext, body: Parameters<typeof checkSignUp>[0], origin: string): Promise<SignUpResult> {
  const checked = checkSignUp(body);
  if (!checked.ok) throw invalid(checked.error.code, checked.error.message);
  const v = checked.value;
  // cheap refusals before the expensive hash; all are checked again under lock below
  await findClaimableSensor(ctx.db, v.serial, v.claimCode);
  if (await findUserByUsername(ctx.db, v.email)) throw invalid('INVALID_EMAIL', SIGN_UP_MESSAGES.emailExists);
  await refuseTakenName(ctx.db, v.organisationName);
  const passwordHash = await hashPassword(v.password);

  for (let attempt = 1; ; attempt++) {
    try {
      return await ctx.db.tx(async (q) => {
        const now = ctx.now();
        const sensor = await findClaimableSensor(q, v.serial, v.claimCode, true);
        if (await findUserByUsername(q, v.email)) throw invalid('INVALID_EMAIL', SIGN_UP_MESSAGES.emailExists);
        await refuseTakenName(q, v.organisationName);
        const userId = await insertUser(q, { email: v.email, name: v.name, passwordHash, status: 'CONFIRMED', emailVerified: false, profileCreated: true }, now);
        const org = { id: randomUUID(), slug: await uniqueSlug(q, v.organisationName), name: v.organisationName };
        await q.query('INSERT INTO organisations (id, slug, name, created_at) VALUES ($1, $2, $3, $4)', [org.id, org.slug, org.name, now]);
        await q.query('INSERT INTO memberships (org_id, user_id, role, created_at) VALUES ($1, $2, 3, $3)', [org.id, userId, now]);
        const moved = await q.query('UPDATE sensors SET org_id = $2, claimed_at = $3 WHERE id = $1 AND org_id IS NULL RETURNING id', [sensor.id, org.id, now]);
        if (!moved.length) throw invalidClaim();
        const code = await issueCode(q, userId, 'verify_email', now);
        if (code) await queueEmail(q, v.email, verificationEmail(origin, code));
        return { organisation: org };
      });
    } catch (err) {
      // a concurrent sign-up took the email or the slug between our reads and writes: run again,
      // and the checks above then give the right answer
      if (isUniqueViolation(err) && attempt < 3) continue;
      if (err instanceof HttpError || !isUniqueViolation(err)) throw err;
      throw invalid('INVALID_EMAIL', SIGN_UP_MESSAGES.emailExists);
    }
  }
}
