import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDb, testDrivers } from './harness';
import { makeOrg } from './fixtures';
import type { Db } from '../../server/db/db';
import { migrate } from '../../server/db/migrate';
import { fleetSerial, seedFleet } from '../../server/cli/seed-fleet';
import { deriveDeviceKey } from '../../server/seed/device-keys';

describe.each(testDrivers)('npm run seed:fleet on %s', (driver) => {
  let db: Db;
  let drop: () => Promise<void>;
  let orgId: string;
  const now = Date.UTC(2026, 11, 1);

  beforeAll(async () => {
    ({ db, drop } = await freshDb(driver));
    await migrate(db);
    const org = await makeOrg(db, { name: 'Riverbend Water' });
    orgId = org.id;
    await db.query(`UPDATE organisations SET slug = 'riverbend-water' WHERE id = $1`, [orgId]);
    await db.query(`INSERT INTO app_meta (key, value) VALUES ('demo_device_secret', $1)`, [JSON.stringify('s3cret')]);
  });
  afterAll(() => drop?.());

  it('adds N realistic sensors with latest data and the open notifications their statuses imply', async () => {
    const r = await seedFleet(db, { sensors: 1000, notifications: 300, now });
    expect(r).toMatchObject({ orgId, sensorsAdded: 1000, fleetSensors: 1000 });
    const rows = await db.query<{ serial: string; name: string; latitude: number; longitude: number; config: { schedulerEnabled: boolean }; latest_data: Record<string, unknown> | null }>(
      'SELECT serial, name, latitude, longitude, config, latest_data FROM sensors WHERE org_id = $1',
      [orgId],
    );
    expect(new Set(rows.map((x) => x.name)).size).toBe(1000);
    // every position over New Zealand
    for (const x of rows) {
      expect(x.latitude).toBeGreaterThan(-47.5);
      expect(x.latitude).toBeLessThan(-34.3);
      expect(x.longitude).toBeGreaterThan(166);
      expect(x.longitude).toBeLessThan(179);
    }
    const count = (f: (x: (typeof rows)[number]) => boolean) => rows.filter(f).length;
    expect(count((x) => !x.config.schedulerEnabled)).toBe(30);
    expect(count((x) => x.latest_data?.alertAsserted === true)).toBe(50);
    expect(count((x) => x.latest_data?.offlineAsserted === true)).toBe(50);
    expect(count((x) => x.latest_data === null)).toBe(40);
    expect(count((x) => typeof x.latest_data?.battery === 'number' && (x.latest_data.battery as number) < 10)).toBe(30);
    const open = await db.query<{ type: string; n: number }>('SELECT type, count(*)::int AS n FROM notifications WHERE org_id = $1 AND end_time IS NULL GROUP BY type ORDER BY type', [orgId]);
    expect(open).toEqual([
      { type: 'LOW_BATTERY', n: 30 },
      { type: 'SENSOR_OFFLINE', n: 50 },
      { type: 'THRESHOLD_ALARM', n: 50 },
    ]);
    const cleared = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM notifications WHERE org_id = $1 AND end_time IS NOT NULL', [orgId]);
    expect(cleared[0].n).toBe(300);
    expect(r.notificationsAdded).toBe(430);
  });

  it('gives each sensor the demo device key scheme, so uplinks can be sent for it', async () => {
    const row = (await db.query<{ device_key_hash: string }>('SELECT device_key_hash FROM sensors WHERE serial = $1', [fleetSerial(7)]))[0];
    expect(row.device_key_hash).toBe(createHash('sha256').update(deriveDeviceKey('s3cret', fleetSerial(7))).digest('hex'));
  });

  it('is idempotent: a second run adds nothing, a larger one only the missing sensors', async () => {
    expect(await seedFleet(db, { sensors: 1000, notifications: 300, now })).toMatchObject({ sensorsAdded: 0, notificationsAdded: 0, fleetSensors: 1000 });
    expect(await seedFleet(db, { sensors: 1200, now })).toMatchObject({ sensorsAdded: 200, fleetSensors: 1200 });
  });

  it('refuses a bad count and a missing organisation with a clear message', async () => {
    await expect(seedFleet(db, { sensors: 0 })).rejects.toThrow('--sensors must be a whole number from 1 to 1000000, not 0.');
    await expect(seedFleet(db, { sensors: 10, orgSlug: 'nowhere' })).rejects.toThrow('No organisation with the slug nowhere');
  });
});
