import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Db } from '../db/db';

/** The MQTT 5 user property that carries a live message's signature on an external broker. */
export const LIVE_SIGNATURE_PROPERTY = 'tw-sig';

const NAME = 'live-signing';

/**
 * The key every server process of a deployment signs its live messages with on an external broker
 * (MQTT_URL), so a process relays to its browsers only what a server published: 32 random bytes in
 * the database (server_secrets), made by the first process that asks and read by every other one.
 * Nothing to configure, and nothing a device or a browser ever sees.
 */
export async function loadLiveSigningKey(db: Db): Promise<Buffer> {
  await db.query('INSERT INTO server_secrets (name, secret, created_at) VALUES ($1, $2, $3) ON CONFLICT (name) DO NOTHING', [
    NAME,
    randomBytes(32).toString('base64'),
    Date.now(),
  ]);
  const [row] = await db.query<{ secret: string }>('SELECT secret FROM server_secrets WHERE name = $1', [NAME]);
  return Buffer.from(row.secret, 'base64');
}

/** HMAC-SHA256 over the topic, a zero byte and the payload, as hex. */
export function signLive(key: Buffer, topic: string, payload: Buffer | string): string {
  return createHmac('sha256', key).update(topic).update('\0').update(payload).digest('hex');
}

/** Whether `sig` (the user property as the broker delivered it: absent, a string or repeated) is this topic and payload's signature. */
export function verifyLive(key: Buffer, topic: string, payload: Buffer, sig: unknown): boolean {
  if (typeof sig !== 'string' || sig.length !== 64) return false;
  const want = Buffer.from(signLive(key, topic, payload), 'hex');
  const got = Buffer.from(sig, 'hex');
  return got.length === want.length && timingSafeEqual(got, want);
}
