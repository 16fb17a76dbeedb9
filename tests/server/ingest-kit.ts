import { freshDb } from './harness';
import { makeOrg, type makeSensor } from './fixtures';
import type { Db } from '../../server/db/db';
import { migrate } from '../../server/db/migrate';
import type { Pending } from '../../server/ingest/batch-write';
import { uplinkSchema, type UplinkInput } from '../../src/contract/uplink.schema';

/** What the ingest's server tests share: a database to write uplinks into and the uplinks. */
export const MIN = 60_000;
export const T0 = Date.UTC(2026, 3, 1);
export type Sensor = Awaited<ReturnType<typeof makeSensor>>;

/** A fresh database on the driver, migrated, with one organisation; drop() removes it. */
export async function ingestDb(driver: Parameters<typeof freshDb>[0]): Promise<{ db: Db; drop(): Promise<void>; orgId: string }> {
  const { db, drop } = await freshDb(driver);
  try {
    await migrate(db);
    return { db, drop, orgId: (await makeOrg(db)).id };
  } catch (err) {
    await drop();
    throw err;
  }
}

/** An uplink of the sensor as the ingest receives it at `now`, with the sensor's device key unless another is given. */
export const pending = (s: Sensor, body: Omit<UplinkInput, 'serial'>, now = T0 + 10 * MIN, key = s.deviceKey): Pending => ({ deviceKey: key, up: uplinkSchema.parse({ serial: s.serial, ...body }), now });

/** An uplink with one reading of `mm` of level (level = 3000 - raw distance: the tests' sensors' offset), received 5 s after it. */
export const level = (s: Sensor, time: number, mm: number, extra: Omit<UplinkInput, 'serial'> = {}) => pending(s, { measurements: [{ time, rawDistance: 3000 - mm }], ...extra }, time + 5_000);
