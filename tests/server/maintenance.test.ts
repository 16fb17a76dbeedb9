import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { freshDb, testDrivers } from './harness';
import { makeOrg, makeSensor } from './fixtures';
import type { Db } from '../../server/db/db';
import { migrate } from '../../server/db/migrate';
import type { AppContext } from '../../server/context';
import { createMaintenanceJob, REWRITTEN_TABLES } from '../../server/scheduler/maintenance';

// PGlite runs no autovacuum: the server vacuums the tables it rewrites itself (hourly). On
// PostgreSQL that is autovacuum's work, and the job leaves it alone.
describe.each(testDrivers)('the embedded database is vacuumed on %s', (driver) => {
  let db: Db;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ db, drop } = await freshDb(driver));
    await migrate(db);
  });
  afterAll(() => drop?.());

  const vacuumed = async () =>
    (await db.query<{ relname: string }>('SELECT relname FROM pg_stat_user_tables WHERE last_vacuum IS NOT NULL AND relname = ANY($1::text[]) ORDER BY relname', [[...REWRITTEN_TABLES]])).map((r) => r.relname);

  it(driver === 'pglite' ? 'vacuums the tables rewritten in place, without losing a row' : 'leaves vacuuming to autovacuum', async () => {
    const org = await makeOrg(db);
    const s = await makeSensor(db, org.id);
    for (let i = 0; i < 20; i++) await db.query(`UPDATE sensors SET latest_data = jsonb_build_object('n', $2::int) WHERE id = $1`, [s.id, i]);
    const job = createMaintenanceJob({ db, log: pino({ level: 'silent' }) } as unknown as AppContext);
    expect(await vacuumed()).toEqual([]);
    const n = await job.runOnce();
    if (driver === 'pglite') {
      expect(n).toBe(REWRITTEN_TABLES.length);
      expect(await vacuumed()).toEqual([...REWRITTEN_TABLES].sort());
    } else {
      expect(n).toBe(0);
      expect(await vacuumed()).toEqual([]);
    }
    expect(await db.query('SELECT latest_data FROM sensors WHERE id = $1', [s.id])).toEqual([{ latest_data: { n: 19 } }]);
  });
});
