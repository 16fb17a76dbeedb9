import type { AppContext } from '../context';
import type { Queryable } from '../db/db';
import { hashPassword } from '../identity/passwords';
import { announceDemoWorld } from './announce';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from './demo-people';
import { createDeviceSecret } from './device-keys';
import { bulkLoad, insertHistory } from './history';
import { addMonths, ensureMonths, monthStart, MONTHS_AHEAD } from '../db/measurement-partitions';
import { alertingSerials, deriveNotifications, insertNotifications } from './seed-notifications';
import { DEMO_PHOTOS, insertCatalogue, insertFuelInstallation } from './seed-catalogue';
import { storeDemoPhotos } from '../storage';
import { insertOrgs, insertPeople } from './seed-people';
import { insertRoutes } from './seed-routes';
import { insertSensorRows, planSensors } from './seed-sensors';
import { insertTasks } from './seed-tasks';

export { demoDeviceKey } from './device-keys';

/** Advisory lock: two processes starting on one empty PostgreSQL database must not both seed. */
const SEED_LOCK = 727_003; // its own number: seeding and key creation (727_002) need not wait on each other

export interface SeedSummary {
  ms: number;
  measurements: number;
  measurementErrors: number;
  notifications: number;
  readings: number;
}

/** What app_meta 'seeded' holds; the simulator anchors its signal models to `at`. */
export interface SeededMeta {
  at: number;
  historyDays: number;
}

const isEmpty = async (q: Queryable) =>
  (await q.query(`SELECT 1 FROM users LIMIT 1`)).length === 0 && (await q.query(`SELECT 1 FROM app_meta WHERE key = 'seeded'`)).length === 0;

/**
 * Seeds the demo world (DESIGN.md "Demo world") on an empty database, in one transaction, never
 * twice: a database with users or an earlier seed is left alone. historyDays shortens the
 * measurement history for tests; the world is otherwise identical.
 */
export async function seedDemoWorld(ctx: AppContext, opts: { historyDays?: number } = {}): Promise<SeedSummary | undefined> {
  if (!(await isEmpty(ctx.db))) {
    await announceDemoWorld(ctx);
    return undefined;
  }
  const started = performance.now();
  // scrypt runs on libuv's pool while the measurements are generated and inserted
  const hashing = Promise.all(DEMO_ACCOUNTS.map(() => hashPassword(DEMO_PASSWORD)));
  hashing.catch(() => {});
  const anchor = ctx.now();
  const historyDays = opts.historyDays ?? 365;
  const summary = await ctx.db.tx(async (q) => {
    await q.query('SELECT pg_advisory_xact_lock($1)', [SEED_LOCK]);
    if (!(await isEmpty(q))) return undefined; // another process seeded while we waited
    const secret = await createDeviceSecret(q);
    const orgs = await insertOrgs(q, anchor);
    const planned = planSensors(anchor, historyDays);
    const notifications = deriveNotifications(planned, anchor);
    await insertSensorRows(q, planned, orgs, secret, alertingSerials(notifications), anchor);
    let measurements = 0;
    let measurementErrors = 0;
    // the history's months get their partitions first, so it goes straight there (not the default)
    await ensureMonths(q, anchor - (historyDays + 1) * 86_400_000, addMonths(monthStart(anchor), MONTHS_AHEAD), anchor);
    await bulkLoad(q, async () => {
      for (const p of planned) {
        if (!p.history) continue;
        await insertHistory(q, p.id, p.history);
        measurements += p.history.times.length;
        measurementErrors += p.history.errors.length;
      }
    });
    const users = await insertPeople(q, orgs, await hashing, anchor);
    await insertNotifications(q, notifications, orgs);
    const { firmware, presets } = await insertCatalogue(q, anchor);
    const ids = new Map(planned.map((p) => [p.def.serial, p.id]));
    await insertFuelInstallation(q, ids.get('6F708192')!, presets['Horizontal 20,000 L'], anchor);
    await storeDemoPhotos(ctx, orgs.riverbend, DEMO_PHOTOS);
    await insertTasks(q, ids, users, firmware, anchor);
    const readings = await insertRoutes(q, orgs.harbour, users.reader, anchor, ctx); // ctx: the readings' photos (issue 14)
    const meta: SeededMeta = { at: anchor, historyDays };
    await q.query(`INSERT INTO app_meta (key, value) VALUES ('seeded', $1)`, [JSON.stringify(meta)]);
    return { measurements, measurementErrors, notifications: notifications.length, readings };
  });
  if (!summary) {
    await announceDemoWorld(ctx);
    return undefined;
  }
  const ms = Math.round(performance.now() - started);
  ctx.log.info({ ...summary, ms, driver: ctx.db.kind }, 'demo world seeded');
  await announceDemoWorld(ctx, ms);
  return { ms, ...summary };
}

/** When the demo world was seeded, or undefined on a database that was never seeded. */
export async function seededMeta(q: Queryable): Promise<SeededMeta | undefined> {
  return (await q.query<{ value: SeededMeta }>(`SELECT value FROM app_meta WHERE key = 'seeded'`))[0]?.value;
}
