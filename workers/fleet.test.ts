import { describe, expect, it } from 'vitest';
import { SUMMARY_FIELDS } from '../src/contract/sensor-summary.schema';
import { Fleet, FleetWorker } from './fleet';

const row = (name: string, serial: string, id = `id-${serial}`, battery: unknown = 80) => [id, serial, name, -41, 174, true, 1, false, false, battery, 1, 1000, 3000, 0, 2000, null];
const body = (rows: unknown[]) => ({ fields: [...SUMMARY_FIELDS], rows });

describe('the fleet in the data worker (issue 32)', () => {
  it('holds the list sorted by name, answers the rows asked for, and searches with the spec rules', () => {
    const f = new Fleet();
    const loaded = f.load(body([row('zeta', 'AA000001'), row('Alpha', 'AA000002'), row('mid', 'AA000003')]));
    expect(loaded).toMatchObject({ total: 3, count: 3, invalid: [] });
    expect(f.rows(0, 10).rows.map((r) => r.sensor.name)).toEqual(['Alpha', 'mid', 'zeta']);
    expect(f.rows(1, 2).rows).toEqual([{ index: 1, sensor: expect.objectContaining({ name: 'mid' }) }]);
    expect(f.setQuery('alpah').count).toBe(1);
    expect(f.rows(0, 10).rows.map((r) => r.sensor.serial)).toEqual(['AA000002']);
    expect(f.find('AA000001')).toMatchObject({ index: -1 });
    expect(f.setQuery('  ').count).toBe(3);
  });

  it('keeps every valid sensor and marks the malformed one (issue 36 item 12)', () => {
    const f = new Fleet();
    const loaded = f.load(body([row('Alpha', 'AA000001'), row('Broken', 'AA000002', 'id-2', 'low'), 'not a row']));
    expect(loaded.total).toBe(2);
    expect(loaded.invalid).toEqual([
      { serial: 'AA000002', fields: ['battery'] },
      { serial: 'row 3', fields: ['row'] },
    ]);
    expect(f.rows(0, 2).rows[1]!.sensor.invalid).toEqual(['battery']);
  });

  it('applies live uplinks and answers only the changed rows inside the window held', () => {
    const f = new Fleet();
    f.load(body(Array.from({ length: 100 }, (_, i) => row(`Sensor ${String(i).padStart(3, '0')}`, `AB${String(i).padStart(6, '0')}`))));
    const before = f.rows(0, 10).rows[5]!.sensor;
    const r = f.applyLive(
      [
        { sensorId: 'id-AB000005', latestData: { alertAsserted: true } },
        { sensorId: 'id-AB000050', latestData: { battery: 5 } },
        { sensorId: 'unknown', latestData: { battery: 5 } },
      ],
      0,
      10,
    );
    expect(r.rows.map((x) => x.index)).toEqual([5]);
    expect(r.rows[0]!.sensor.latestData?.alertAsserted).toBe(true);
    expect(f.rows(0, 10).rows[4]!.sensor).toBe(f.rows(0, 10).rows[4]!.sensor);
    expect(f.rows(5, 6).rows[0]!.sensor).not.toBe(before);
    expect(f.rows(50, 51).rows[0]!.sensor.latestData?.battery).toBe(5);
  });

  it('tells the map which sensors a live batch touched and whether a mapped status changed (monitoring-client 4: alert shows as ALERT)', () => {
    const f = new Fleet();
    f.load(body([row('Alpha', 'AA000001'), row('Beta', 'AA000002')]));
    expect(f.points().map((p) => [p.serial, p.status])).toEqual([
      ['AA000001', 'OK'],
      ['AA000002', 'OK'],
    ]);
    const quiet = f.applyLive([{ sensorId: 'id-AA000002', latestData: { battery: 70 } }], 0, 0);
    expect(quiet).toMatchObject({ serials: ['AA000002'], statusChanged: false, rows: [] });
    const alarm = f.applyLive([{ sensorId: 'id-AA000001', latestData: { alertAsserted: true } }], 0, 0);
    expect(alarm).toMatchObject({ serials: ['AA000001'], statusChanged: true });
    expect(f.points().find((p) => p.serial === 'AA000001')?.status).toBe('ALERT');
  });

  it('builds the organisation CSV of the whole fleet', () => {
    const f = new Fleet();
    f.load(body([row('Alpha', 'AA000001')]));
    expect(f.csv().split('\r\n')[1]).toBe('AA000001,Alpha,100.0,,2.000,-41.000,174.000');
  });

  it('fetches the compact list with the token, and a failure is the server text', async () => {
    const calls: [string, RequestInit | undefined][] = [];
    const w = new FleetWorker({
      fetch: async (input, init) => {
        calls.push([String(input), init]);
        return new Response(JSON.stringify(body([row('Alpha', 'AA000001')])), { status: 200 });
      },
    });
    expect(await w.fleetLoad({ apiBase: 'http://x/api', token: 'tok', orgId: 'o1' })).toMatchObject({ total: 1, count: 1 });
    expect(calls[0]![0]).toBe('http://x/api/organisations/o1/sensors?view=summary');
    expect((calls[0]![1]!.headers as Record<string, string>).Authorization).toBe('tok');
    const failing = new FleetWorker({ fetch: async () => new Response('{"code":"FORBIDDEN"}', { status: 403 }) });
    await expect(failing.fleetLoad({ apiBase: 'http://x/api', token: 't', orgId: 'o1' })).rejects.toThrow('FORBIDDEN');
  });
});
