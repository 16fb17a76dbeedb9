import { createHmac, randomBytes } from 'node:crypto';
import type { AppContext } from '../context';
import type { Db, Queryable } from '../db/db';

const SECRET_KEY = 'demo_device_secret';

/**
 * Demo device keys are not stored anywhere: each is HMAC-SHA256(secret, serial), the secret lives
 * in app_meta, and sensors keep only the sha256 of their key like any real device.
 */
export const deriveDeviceKey = (secret: string, serial: string) => createHmac('sha256', secret).update(serial).digest('hex');

/** Creates the per-database secret inside the seeding transaction. */
export async function createDeviceSecret(q: Queryable): Promise<string> {
  const secret = randomBytes(32).toString('hex');
  await q.query(`INSERT INTO app_meta (key, value) VALUES ($1, $2)`, [SECRET_KEY, JSON.stringify(secret)]);
  return secret;
}

const secrets = new WeakMap<Db, Promise<string | undefined>>();

/** The device key of a demo sensor (for the simulator and tests); throws when the world is not seeded. */
export async function demoDeviceKey(ctx: Pick<AppContext, 'db'>, serial: string): Promise<string> {
  let p = secrets.get(ctx.db);
  if (!p) {
    p = ctx.db.query<{ value: string }>('SELECT value FROM app_meta WHERE key = $1', [SECRET_KEY]).then((r) => r[0]?.value);
    secrets.set(ctx.db, p);
  }
  const secret = await p;
  if (!secret) {
    secrets.delete(ctx.db); // not seeded yet: ask again next time
    throw new Error('the demo world is not seeded: no demo device secret');
  }
  return deriveDeviceKey(secret, serial.toUpperCase());
}
