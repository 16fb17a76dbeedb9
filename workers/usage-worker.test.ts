import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, makeOrg, makeSensor, makeUser } from '../tests/server/fixtures';
import { startTestServer, type TestServer } from '../tests/server/harness';
import { loadCore } from '../wasm-core/core';
import { syntheticTank } from '../wasm-core/test-kit';
import { DataWorker } from './data-worker';

// Issue 38: the worker's usage fetches the 13 weeks before the range it lacks, without touching
// the chart's load, and answers what the server's usage call answers (the same core).
const core = await loadCore();
const DAY = 86_400_000;
const T0 = Date.UTC(2026, 0, 5);
const tank = syntheticTank({ seed: 9, start: T0, days: 50, stepMin: 5, noiseMm: 2, start_volume: 12_000, weekday: [600, 1400, 1500, 1450, 1550, 1300, 700], fill: 9000, refillBelow: 3000 });

describe('the data worker’s usage (issue 38)', () => {
  let srv: TestServer;
  let token = '';
  const target = { orgId: '', sensorId: '' };
  const alarms = { '0': { type: 'THRESHOLD_DECREASING', threshold: 400, enabled: true } };

  beforeAll(async () => {
    srv = await startTestServer('pglite');
    const db = srv.ctx.db;
    const user = await makeUser(db);
    const org = await makeOrg(db);
    await db.query(`UPDATE organisations SET locale = '{"timezone":"Pacific/Auckland","country":"NZ"}' WHERE id = $1`, [org.id]);
    await addMember(db, org.id, user.id, 1);
    const sensor = await makeSensor(db, org.id, { alarms });
    await db.query(`UPDATE sensors SET conversion_configs = '[{"type":"VOLUME_CYLINDER","diameter":2.5}]' WHERE id = $1`, [sensor.id]);
    await db.query(`INSERT INTO measurements (sensor_id, time, raw_distance) SELECT $1, t, r FROM unnest($2::bigint[], $3::real[]) AS x(t, r)`, [sensor.id, Array.from(tank.time), Array.from(tank.raw)]);
    Object.assign(target, { orgId: org.id, sensorId: sensor.id });
    token = await srv.tokenFor(user.id);
  }, 120_000);
  afterAll(() => srv?.close());

  it('loads what the chart has not, then answers the server’s usage call', async () => {
    const w = new DataWorker({ core });
    w.configure({ apiBase: `${srv.url}/api`, token });
    const range = { startTime: T0 + 43 * DAY, endTime: T0 + 50 * DAY };
    // the chart holds the last week only
    await w.load({ ...target, ...range });
    const got = await w.usage({ ...target, ...range, timeZone: 'Pacific/Auckland', offsetMm: 3000, conversionConfigs: [{ type: 'VOLUME_CYLINDER', diameter: 2.5 }], alarms, maxLevel: null });
    const res = await srv.api(`/organisations/${target.orgId}/sensors/${target.sensorId}/usage?startTime=${range.startTime}&endTime=${range.endTime}`, { token });
    expect(got).toEqual(await res.json());
    expect(got.kind).toBe('volume');
    if (got.kind !== 'volume') return;
    expect(got.forecasts[0].daysUsed).toBeGreaterThanOrEqual(40); // history before the chart's week was fetched
    expect(w.held()[`${target.orgId}/${target.sensorId}`]).toBe(tank.time.length);
    // the usage export: the same days and fills, as rows written by the core
    const file = await w.exportUsageCsv({ ...target, ...range, timeZone: 'Pacific/Auckland', offsetMm: 3000, conversionConfigs: [{ type: 'VOLUME_CYLINDER', diameter: 2.5 }], alarms, maxLevel: null, sensorName: 'Stock Tank', serial: '2B3C4D5E', format: 'Default' });
    expect(file.filename).toMatch(/^Stock_Tank_usage_2B3C4D5E_/);
    const [days, fills] = file.csv.split('\r\n\r\n');
    expect(days.split('\r\n').slice(1).map((l) => l.split(',')[0])).toEqual(got.days.map((d) => d.date));
    expect(fills.trimEnd().split('\r\n')).toHaveLength(1 + got.fills.length);
  });

  it('answers kind none without a conversion, and needs a session', async () => {
    const w = new DataWorker({ core });
    const req = { ...target, startTime: T0, endTime: T0 + DAY, timeZone: 'UTC', offsetMm: 3000, conversionConfigs: [], alarms: {}, maxLevel: null };
    expect(await w.usage(req)).toEqual({ kind: 'none' });
    await expect(w.usage({ ...req, conversionConfigs: [{ type: 'VOLUME_CYLINDER', diameter: 2.5 }] })).rejects.toThrow('User is not logged in');
  });
});
