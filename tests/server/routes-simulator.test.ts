import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, testDrivers, type TestServer } from './harness';
import { addMember, makeOrg, makeUser } from './fixtures';
import { createFleet } from '../../server/simulator/fleet';
import { insertRoutes } from '../../server/seed/seed-routes';
import { meterException } from '../../server/routes/exceptions';
import { DEMO_READER_EMAIL, READ_INTERVAL_MS, createMeterReader, simulatedReading } from '../../server/simulator/meter-reader';
import { meterReadingListSchema, meterReadingRecordSchema, routeProgress, routeTaskAnswerSchema, routeTaskListSchema, type ImportReading } from '../../src/contract/route.schema';

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 10, 20, 21, 0);
const SPEED = 60;
const STEP = READ_INTERVAL_MS / SPEED;

const rows = (n: number, prefix: string): ImportReading[] =>
  Array.from({ length: n }, (_, i) => ({
    sequence: (i + 1) * 10,
    ozoneNumber: `${prefix}${i}`,
    serial: `S${prefix}${i}`,
    valuationRef: `17${i}/00`,
    propertyAddress: `${i + 1} Cuba Street, Te Aro`,
    ownerName: 'Te Aro Holdings Ltd',
    location: 'Front boundary',
    latitude: -41.2952 + i * 0.0001,
    longitude: 174.7747,
    importedPrevReading: { value: 20_000 + i * 100, date: T0 - 90 * DAY },
  }));

// The demo's simulated meter reader (DESIGN.md "Organisation, user settings and service routes"), driven on an injected clock
describe.each(testDrivers)('simulated meter reader on %s', (driver) => {
  let s: TestServer;
  const clock = { now: T0 };
  let orgId: string;
  const ids: Record<string, string> = {};
  // tokens are minted per call: the injected clock runs days ahead and an ID token lasts an hour
  const call = async (who: string, method: string, path: string, json?: unknown) => s.api(path, { method, token: await s.tokenFor(ids[who]!), json });
  const importAndAssign = async (n: number, prefix: string, to: string | null) => {
    const res = await call('admin', 'POST', `/organisations/${orgId}/routes`, { routeName: `R-${prefix}`, group: 'CBD', iterationNumber: '2611', readings: rows(n, prefix) });
    const { task } = routeTaskAnswerSchema.parse(await res.json());
    if (to) expect((await call('admin', 'PATCH', `/organisations/${orgId}/routes/${task.id}`, { assignedTo: ids[to] })).status).toBe(200);
    return task;
  };
  const readings = async (taskId: string) => meterReadingListSchema.parse(await (await call('admin', 'GET', `/organisations/${orgId}/routes/${taskId}/meter-readings`)).json());

  beforeAll(async () => {
    s = await startTestServer(driver, { SIMULATOR_SPEED: String(SPEED) }, { now: () => clock.now });
    const org = await makeOrg(s.ctx.db, { name: 'Harbour City Council', features: { meterReading: true } });
    orgId = org.id;
    for (const [who, role, email] of [['admin', 2, undefined], ['reader', 4, DEMO_READER_EMAIL], ['other', 4, undefined]] as const) {
      const u = await makeUser(s.ctx.db, { name: who, email });
      await addMember(s.ctx.db, orgId, u.id, role);
      ids[who] = u.id;
    }
  });
  afterAll(() => s?.close());

  it('works through the tasks assigned to the demo reader, one meter per interval at SIMULATOR_SPEED, with photos and positions, until complete', async () => {
    const mine = await importAndAssign(6, 'A', 'reader');
    const notMine = await importAndAssign(2, 'B', 'other');
    const nobody = await importAndAssign(2, 'C', null);
    const reader = createMeterReader(s.ctx);
    expect(await reader.tick(clock.now)).toBe(1);
    expect(await reader.tick(clock.now + STEP / 2)).toBe(0); // not due yet
    for (let i = 1; i < 6; i++) {
      clock.now = T0 + i * STEP;
      expect(await reader.tick(clock.now)).toBe(1);
    }
    clock.now = T0 + 6 * STEP;
    expect(await reader.tick(clock.now)).toBe(0); // nothing left to read
    const { task, readings: got } = await readings(mine.id);
    expect(routeProgress(task)).toBe('Complete');
    expect(task).toMatchObject({ completedReadings: 6, startedAt: T0, completedAt: T0 + 5 * STEP, estTimeSpent: 5 * STEP });
    for (const [i, r] of got.entries()) {
      expect(r).toMatchObject({ completed: true, recordedBy: ids.reader, recorderName: 'reader', recordedAt: T0 + i * STEP });
      expect(r.exception).not.toBeNull();
      expect(r.position!.latitude).toBeCloseTo(-41.2952 + i * 0.0001, 3);
      const img = await call('admin', 'GET', r.photoUrl!);
      expect(img.status).toBe(200);
      expect(Buffer.from(await img.arrayBuffer()).subarray(1, 4).toString()).toBe('PNG');
    }
    for (const t of [notMine, nobody]) expect((await readings(t.id)).readings.every((r) => !r.completed)).toBe(true);
  });

  it('catches up after a pause a bounded amount at a time, skips exported tasks and moves on to the next task', async () => {
    const exported = await importAndAssign(2, 'D', 'reader');
    await call('admin', 'PATCH', `/organisations/${orgId}/routes/${exported.id}`, { exported: true });
    const next = await importAndAssign(3, 'E', 'reader');
    const reader = createMeterReader(s.ctx);
    clock.now += DAY;
    expect(await reader.tick(clock.now)).toBe(1);
    clock.now += 10 * STEP;
    expect(await reader.tick(clock.now)).toBe(2); // the other two fell due meanwhile
    expect(routeProgress((await readings(next.id)).task)).toBe('Complete');
    expect((await readings(exported.id)).readings.every((r) => !r.completed)).toBe(true);
  });

  it('two readers at once (a second server process) record every meter exactly once', async () => {
    const t = await importAndAssign(8, 'F', 'reader');
    const a = createMeterReader(s.ctx);
    const b = createMeterReader(s.ctx);
    for (let i = 0; i < 8; i++) {
      clock.now += STEP;
      await Promise.all([a.tick(clock.now), b.tick(clock.now)]);
    }
    const { task, readings: got } = await readings(t.id);
    expect(task.completedReadings).toBe(8);
    expect(new Set(got.map((r) => r.recordedAt)).size).toBeGreaterThan(1);
    const photos = await s.ctx.db.query<{ n: number }>('SELECT count(DISTINCT photo_url)::int AS n FROM meter_readings WHERE route_task_id = $1', [t.id]);
    expect(photos[0]!.n).toBe(8);
  });

  it('runs only in the process holding the simulator lease; leaves the seeded tasks as seeded; the reader lists only its own tasks', async () => {
    await s.ctx.db.query(`INSERT INTO app_meta (key, value) VALUES ('seeded', $1) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`, [JSON.stringify({ at: T0 })]);
    const first = createFleet(s.ctx);
    const second = createFleet(s.ctx);
    await first.tick(clock.now);
    await second.tick(clock.now);
    expect([first.leased(), second.leased()]).toEqual([true, false]);
    await first.release();
    expect(first.leased()).toBe(false);
    await second.tick(clock.now + 31_000);
    expect(second.leased()).toBe(true);
    await second.release();
    // tasks from before the demo world was seeded keep their state; those made since are read
    const before = await importAndAssign(1, 'G', 'reader');
    await s.ctx.db.query('UPDATE route_tasks SET created_at = $2 WHERE id = $1', [before.id, T0 - DAY]);
    const after = await importAndAssign(1, 'H', 'reader');
    const reader = createMeterReader(s.ctx);
    clock.now += STEP;
    expect(await reader.tick(clock.now)).toBe(1);
    clock.now += STEP;
    expect(await reader.tick(clock.now)).toBe(0);
    expect((await readings(before.id)).task.completedReadings).toBe(0);
    expect((await readings(after.id)).task.completedReadings).toBe(1);
    // the reader's own view: only its tasks
    const mine = routeTaskListSchema.parse(await (await call('reader', 'GET', `/organisations/${orgId}/routes`)).json()).routes;
    expect(mine.every((t) => t.assignedTo?.cognitoIdentityId === ids.reader)).toBe(true);
  });

  it('simulated readings pass the record call’s own rules and vary (values, can’t-read codes, comments)', () => {
    const outcomes = new Set<string>();
    for (let i = 0; i < 300; i++) {
      const id = `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
      const r = simulatedReading({ id, meter_info: { latitude: -41.3, longitude: 174.8 }, last_recorded_reading: 5000, imported_prev_reading: { value: 5000, date: T0 - 90 * DAY } }, T0);
      expect(meterReadingRecordSchema.safeParse(r).success).toBe(true);
      outcomes.add(r.cantReadCode ? 'cant' : r.value! < 5000 ? 'negative' : r.value === 5000 ? 'zero' : r.value! > 5000 + 300 ? 'high' : 'usual');
      if (r.commentCode) outcomes.add('comment');
    }
    expect([...outcomes].sort()).toEqual(['cant', 'comment', 'high', 'negative', 'usual', 'zero']);
  });
});

// the demo's seeded routes (server/seed/seed-routes.ts) read back through the calls and the contract
describe.each(testDrivers)('seeded service routes on %s', (driver) => {
  let s: TestServer;
  afterAll(() => s?.close());
  beforeAll(async () => {
    s = await startTestServer(driver);
  });

  it('every task and reading parses, exceptions follow the record rule, completed readings have a photo served to members', async () => {
    const org = await makeOrg(s.ctx.db, { features: { meterReading: true } });
    const reader = await makeUser(s.ctx.db, { name: 'Rangi Reader' });
    const admin = await makeUser(s.ctx.db);
    await addMember(s.ctx.db, org.id, reader.id, 4);
    await addMember(s.ctx.db, org.id, admin.id, 2);
    await insertRoutes(s.ctx.db, org.id, reader.id, T0, s.ctx);
    const token = await s.tokenFor(admin.id);
    const list = routeTaskListSchema.parse(await (await s.api(`/organisations/${org.id}/routes`, { token })).json()).routes;
    expect(new Set(list.map(routeProgress))).toEqual(new Set(['Exported', 'Complete', 'Active', 'Waiting']));
    expect(list.filter((t) => t.suburb && t.type).length).toBe(5);
    for (const t of list) {
      const { readings } = meterReadingListSchema.parse(await (await s.api(`/organisations/${org.id}/routes/${t.id}/meter-readings`, { token })).json());
      expect(readings.length).toBe(t.totalReadings);
      for (const r of readings.filter((x) => x.completed)) {
        const value = r.value === -1 ? null : r.value;
        const prev = r.importedPrevReading!;
        expect(r.exception).toBe(meterException({ value, cantReadCode: r.cantReadCode, serviceRequired: r.serviceRequired, recordedAt: r.recordedAt!, previous: prev.value, previousAt: prev.date }));
        expect(r.photoUrl).not.toBeNull();
      }
      if (t.isSpecial) expect(readings.every((r) => r.reason)).toBe(true);
    }
    const done = list.find((t) => routeProgress(t) === 'Complete')!;
    const first = meterReadingListSchema.parse(await (await s.api(`/organisations/${org.id}/routes/${done.id}/meter-readings`, { token })).json()).readings[0]!;
    const img = await s.api(first.photoUrl!, { token });
    expect(img.headers.get('content-type')).toBe('image/png');
  });
});
