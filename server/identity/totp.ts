import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import type { Config } from '../config';
import type { Db, Queryable } from '../db/db';

/**
 * TOTP as Cognito's software token MFA does it (RFC 6238: SHA-1, 6 digits, 30 s steps). A code is
 * accepted one step either side of the server's clock, and only for a step later than the last
 * one accepted for the user, so a code seen once (over a shoulder, in a log) never works again.
 */
export const PERIOD_S = 30;
export const WINDOW_STEPS = 1;
const SECRET_BYTES = 20;

export const newTotpSecret = () => new Secret({ size: SECRET_BYTES }).base32;

/** The time step a code belongs to when it is right for `secret` at `now` (±1 step), else null. */
export function codeStep(secretBase32: string, code: string, now: number): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const totp = new TOTP({ secret: Secret.fromBase32(secretBase32), algorithm: 'SHA1', digits: 6, period: PERIOD_S });
  const delta = totp.validate({ token: code, timestamp: now, window: WINDOW_STEPS });
  return delta === null ? null : Math.floor(now / 1000 / PERIOD_S) + delta;
}

/**
 * Spends the step of a right code: true only when it is later than the user's last accepted step
 * (the condition in the UPDATE makes two racing requests with one code accept it once).
 */
export async function spendStep(q: Queryable, userId: string, step: number): Promise<boolean> {
  const rows = await q.query('UPDATE users SET totp_last_step = $2 WHERE id = $1 AND totp_last_step < $2 RETURNING id', [userId, step]);
  return rows.length > 0;
}

// Secrets at rest: AES-256-GCM under MFA_SECRET_KEY ("k:" values), or under a key the server keeps
// in server_secrets when none is configured ("d:" values). A database dump with the key configured
// outside it holds no usable secret; logs never see one.
const DB_KEY_NAME = 'totp-encryption';
const dbKeys = new WeakMap<Db, Promise<Buffer>>();

async function databaseKey(db: Db): Promise<Buffer> {
  let key = dbKeys.get(db);
  if (!key) {
    key = (async () => {
      await db.query('INSERT INTO server_secrets (name, secret, created_at) VALUES ($1, $2, $3) ON CONFLICT (name) DO NOTHING', [
        DB_KEY_NAME,
        randomBytes(32).toString('base64'),
        Date.now(),
      ]);
      const [row] = await db.query<{ secret: string }>('SELECT secret FROM server_secrets WHERE name = $1', [DB_KEY_NAME]);
      return Buffer.from(row!.secret, 'base64');
    })();
    key.catch(() => dbKeys.delete(db));
    dbKeys.set(db, key);
  }
  return key;
}

type KeySource = { db: Db; config: Pick<Config, 'MFA_SECRET_KEY'> };

export async function sealSecret(k: KeySource, secret: string): Promise<string> {
  const tag = k.config.MFA_SECRET_KEY ? 'k' : 'd';
  const key = k.config.MFA_SECRET_KEY ? Buffer.from(k.config.MFA_SECRET_KEY, 'base64') : await databaseKey(k.db);
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return [tag, iv.toString('base64'), body.toString('base64'), cipher.getAuthTag().toString('base64')].join(':');
}

export async function openSecret(k: KeySource, sealed: string): Promise<string> {
  const [tag, iv, body, auth] = sealed.split(':');
  if (tag === 'k' && !k.config.MFA_SECRET_KEY) throw new Error('A TOTP secret was sealed with MFA_SECRET_KEY, which is not set.');
  const key = tag === 'k' ? Buffer.from(k.config.MFA_SECRET_KEY!, 'base64') : await databaseKey(k.db);
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv!, 'base64'));
  decipher.setAuthTag(Buffer.from(auth!, 'base64'));
  return Buffer.concat([decipher.update(Buffer.from(body!, 'base64')), decipher.final()]).toString('utf8');
}
