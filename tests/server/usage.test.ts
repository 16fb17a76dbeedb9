import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, testDrivers, type TestServer } from './harness';
import { addMember, insertMeasurementColumns, makeOrg, makeSensor, makeUser } from './fixtures';
import { usageSchema } from '../../src/contract/usage.schema';
import { loadCore } from '../../wasm-core/core';
import { analyseUsage } from '../../wasm-core/usage';
import { syntheticTank } from '../../wasm-core/test-kit';

// Issue 38: GET .../sensors/{sensorId}/usage answers what the data core computes, with the
// measurements' access rule, on both database drivers.
const DAY = 86_400_000;
const T0 = Date.UTC(2026, 0, 5);
const DAYS = 40;
const weekday = [600, 1400, 1500, 1450, 1550, 1300, 700];
const tank = syntheticTank({ seed: 38, start: T0, days: DAYS, stepMin: 5, noiseMm: 2, start_volume: 12_000, weekday, fill: 9000, refillBelow: 3000 });
const END = T0 + DAYS * DAY - 1;

const insertColumns = (s: TestServer, sensorId: string, time: ArrayLike<number>, raw: ArrayLike<number>) => insertMeasurementColumns(s.ctx.db, sensorId, time, raw);

describe.each(testDrivers)('GET /organisations/{orgId}/sensors/{sensorId}/usage on %s (issue 38)', (driver) => {
  let s: TestServer;
  let org: { id: string };
  let sensor: { id: string };
  let weir: { id: string };
  let plain: { id: string };
  let token: string;
  const path = (q: Record<string, string | number>, sensorId = sensor.id, orgId = org.id) =>
    `/organisations/${orgId}/sensors/${sensorId}/usage?${new URLSearchParams(Object.entries(q).map(([k, v]) => [k, String(v)]))}`;

  beforeAll(async () => {
    s = await startTestServer(driver);
    org = await makeOrg(s.ctx.db);
    await s.ctx.db.query(`UPDATE organisations SET locale = '{"timezone":"UTC","country":"NZ"}' WHERE id = $1`, [org.id]);
    const u = await makeUser(s.ctx.db);
    await addMember(s.ctx.db, org.id, u.id, 1);
    token = await s.tokenFor(u.id);
    sensor = await makeSensor(s.ctx.db, org.id, { alarms: { '0': { type: 'THRESHOLD_DECREASING', threshold: 300, enabled: true } } });
    await s.ctx.db.query(`UPDATE sensors SET conversion_configs = '[{"type":"VOLUME_CYLINDER","diameter":2.5}]' WHERE id = $1`, [sensor.id]);
    await insertColumns(s, sensor.id, tank.time, tank.raw);
    weir = await makeSensor(s.ctx.db, org.id);
    await s.ctx.db.query(`UPDATE sensors SET conversion_configs = '[{"type":"PARSHALL_FLUME","x":0.5,"y":1.5}]' WHERE id = $1`, [weir.id]);
    const wt = Array.from({ length: 3 * 288 }, (_, i) => T0 + i * 300_000);
    await insertColumns(s, weir.id, wt, wt.map(() => 2500));
    plain = await makeSensor(s.ctx.db, org.id);
  });
  afterAll(() => s?.close());

  it('answers the core’s analysis of the stored series: fills, daily use and the forecasts', async () => {
    const res = await s.api(path({ startTime: T0 + 7 * DAY, endTime: END }), { token });
    expect(res.status).toBe(200);
    const body = usageSchema.parse(await res.json());
    const core = await loadCore();
    const want = analyseUsage(
      core,
      { offsetMeasurement: 3000, conversionConfigs: [{ type: 'VOLUME_CYLINDER', diameter: 2.5 }], alarms: { '0': { type: 'THRESHOLD_DECREASING', threshold: 300, enabled: true } }, maxLevel: null },
      { time: tank.time, raw: tank.raw },
      { timeZone: 'UTC', startTime: T0 + 7 * DAY, endTime: END },
    );
    expect(body).toEqual(JSON.parse(JSON.stringify(want)));
    if (body.kind !== 'volume') throw new Error('a tank answers kind volume');
    const inRange = tank.fills.filter((f) => f.start >= T0 + 7 * DAY);
    expect(body.fills.length).toBe(inRange.length);
    expect(body.fills.length).toBeGreaterThan(0);
    expect(body.days).toHaveLength(DAYS - 7);
    expect(body.forecasts.map((f) => f.target)).toEqual(['empty', 'low']);
    expect(body.forecasts[0].days).toBeGreaterThan(0);
    expect(body.forecasts[1].days!).toBeLessThan(body.forecasts[0].days!);
  });

  it('adds a forecast to a chosen level', async () => {
    const body = usageSchema.parse(await (await s.api(path({ startTime: T0, endTime: END, level: 500 }), { token })).json());
    expect(body.kind === 'volume' && body.forecasts.find((f) => f.target === 'level')?.levelMm).toBe(500);
  });

  it('answers a flume’s daily and monthly totals in m³, and kind none without a conversion', async () => {
    const body = usageSchema.parse(await (await s.api(path({ startTime: T0, endTime: T0 + 3 * DAY - 1 }, weir.id), { token })).json());
    if (body.kind !== 'flow') throw new Error('a flume answers kind flow');
    const q = Math.floor(0.5 * 0.5 * Math.sqrt(0.5) * 1000); // l/s
    expect(body.days[0].use).toBeCloseTo((q * 86_400) / 1000, 6);
    expect(body.months).toEqual([{ month: '2026-01', total: body.summary.range, covered: 3 * DAY - 300_000 }]);
    expect(usageSchema.parse(await (await s.api(path({ startTime: T0, endTime: END }, plain.id), { token })).json())).toEqual({ kind: 'none' });
  });

  it('judges its query: both times required, in order, at most ten years', async () => {
    for (const q of [{ endTime: END }, { startTime: 'x', endTime: END }, { startTime: END, endTime: T0 }, { startTime: 0, endTime: 3661 * DAY }, { startTime: T0, endTime: END, level: 'high' }]) {
      const res = await s.api(path(q as Record<string, string | number>), { token });
      expect(res.status, JSON.stringify(q)).toBe(400);
      expect(await res.json()).toMatchObject({ code: 'INVALID_QUERY' });
    }
  });

  it('has the measurements’ access: 401 without a token, 404 for another organisation, 403 for a meter reader', async () => {
    const q = { startTime: T0, endTime: END };
    expect((await s.api(path(q))).status).toBe(401);
    const otherOrg = await makeOrg(s.ctx.db);
    const outsider = await makeUser(s.ctx.db);
    await addMember(s.ctx.db, otherOrg.id, outsider.id, 3);
    const outsiderToken = await s.tokenFor(outsider.id);
    const asOutsider = await s.api(path(q), { token: outsiderToken });
    expect(asOutsider.status).toBe(404);
    expect(await asOutsider.json()).toMatchObject({ code: 'ORGANISATION_NOT_FOUND' });
    const viaOwnOrg = await s.api(path(q, sensor.id, otherOrg.id), { token: outsiderToken });
    expect(viaOwnOrg.status).toBe(404);
    expect(await viaOwnOrg.json()).toMatchObject({ code: 'SENSOR_NOT_FOUND' });
    const reader = await makeUser(s.ctx.db);
    await addMember(s.ctx.db, org.id, reader.id, 4);
    expect((await s.api(path(q), { token: await s.tokenFor(reader.id) })).status).toBe(403);
  });
});
