import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, makeOrg, makeSensor, makeUser } from '../tests/server/fixtures';
import { startTestServer, testDrivers, type TestServer } from '../tests/server/harness';
import { COLUMNS_MEDIA_TYPE } from '../src/contract/measurement-columns';
import { loadCore } from '../wasm-core/core';
import { CACHE_HIGH, CACHE_LOW, toEvict } from './cache-policy';
import { planChunks } from './chunk-plan';
import type { LoadProgress } from './data-api';
import { DataWorker, EMPTY_REQUEST_MS, NOT_LOGGED_IN } from './data-worker';

// monitoring-client.md 7 (15-day chunks, 6 in flight, requests grouped 10 at a time, paging
// cursor, non-200 throws the response text) and sensor-setup.md 9 (cache caps 172800 / 43200,
// an empty request resolves after 500 ms), against the real server.
const core = await loadCore();
const DAY = 86_400_000;
const START = Date.UTC(2026, 0, 1);

describe.each(testDrivers)('the data worker against the server (%s)', (driver) => {
  let srv: TestServer;
  let token = '';
  let outsiderToken = '';
  const target = { orgId: '', sensorId: '' };

  beforeAll(async () => {
    srv = await startTestServer(driver);
    const db = srv.ctx.db;
    const user = await makeUser(db);
    const outsider = await makeUser(db);
    const org = await makeOrg(db);
    await addMember(db, org.id, user.id, 1);
    const sensor = await makeSensor(db, org.id, { name: 'Main Reservoir', serial: '1A2B3C4D' });
    // 40 days of 1-minute measurements, written straight into the database
    await db.query(
      `INSERT INTO measurements (sensor_id, time, raw_distance)
       SELECT $1, $2::bigint + i::bigint * 60000, 1000 + (i % 1440) FROM generate_series(0, 40 * 1440 - 1) AS i`,
      [sensor.id, START],
    );
    Object.assign(target, { orgId: org.id, sensorId: sensor.id });
    token = await srv.tokenFor(user.id);
    outsiderToken = await srv.tokenFor(outsider.id);
  }, 120_000);
  afterAll(() => srv?.close());

  /** A worker whose fetch records how many chunk requests are in flight. */
  function instrumented(tok = token, now?: () => number) {
    const log = { inFlight: 0, maxInFlight: 0, started: [] as number[], doneAtStart: [] as number[], done: 0, requests: 0 };
    const w = new DataWorker({
      core,
      now,
      fetch: async (input, init) => {
        log.requests++;
        log.started.push(Number(new URL(String(input)).searchParams.get('startTime')));
        log.doneAtStart.push(log.done);
        log.inFlight++;
        log.maxInFlight = Math.max(log.maxInFlight, log.inFlight);
        try {
          return await fetch(input, init);
        } finally {
          log.inFlight--;
          log.done++;
        }
      },
    });
    w.configure({ apiBase: `${srv.url}/api`, token: tok });
    return { w, log };
  }

  it('loads a range in 15-day chunks with the caller token, reports progress and holds every point', async () => {
    const { w, log } = instrumented();
    const progress: LoadProgress[] = [];
    const r = await w.load({ ...target, startTime: START, endTime: START + 40 * DAY - 1 }, (p) => progress.push(p));
    expect(r).toEqual({ points: 40 * 1440, firstTime: START, lastTime: START + (40 * 1440 - 1) * 60_000 });
    expect(log.requests).toBe(3); // 15 + 15 + 10 days
    expect(progress[0]).toEqual({ chunksDone: 0, chunksTotal: 3, points: 0 });
    // none for the last chunk: the load's answer follows at once (a report is a render on the main thread)
    expect(progress.every((p) => p.chunksDone < 3)).toBe(true);
    // the first chunk landed is reported at once, whatever the throttle: the chart draws it (issue 34)
    expect(progress[1]).toMatchObject({ chunksDone: 1, chunksTotal: 3 });
    expect(progress[1].points).toBeGreaterThan(0);
    // zoom into 30 minutes without refetching
    const v = await w.view({ ...target, startTime: START + 30 * 60_000, endTime: START + 60 * 60_000, widthPx: 800, mode: 'level', offsetMm: 3000, conversion: null, unit: 'Metres' });
    expect(log.requests).toBe(3);
    expect(v.rawPoints).toBe(31);
    expect(v.time[1]).toBe((START + 30 * 60_000) / 1000);
    expect(v.value[1]).toBe((3000 - 1030) / 1000);
    expect(v.min).toBe((3000 - 1060) / 1000);
    expect(v.max).toBe((3000 - 1030) / 1000);
    w.clear();
  });

  it('keeps 6 requests in flight and groups them 10 at a time', async () => {
    const { w, log } = instrumented();
    const chunks = planChunks(START - 200 * DAY, START + 40 * DAY - 1);
    expect(chunks.length).toBe(16);
    await w.load({ ...target, startTime: START - 200 * DAY, endTime: START + 40 * DAY - 1 });
    expect(log.requests).toBe(16);
    expect(log.maxInFlight).toBe(6);
    // the second group (chunks 11-16) starts only after all of the first ten are answered
    expect(log.started.slice(0, 10).sort()).toEqual(chunks.slice(0, 10).map((c) => c.startTime).sort());
    expect(log.doneAtStart[10]).toBe(10);
    expect(log.doneAtStart.slice(0, 6)).toEqual([0, 0, 0, 0, 0, 0]);
    w.clear();
  });

  it('hands the binary column form to the core, and holds the same as from the JSON form', async () => {
    const range = { ...target, startTime: START, endTime: START + 40 * DAY - 1 };
    const types: string[] = [];
    const binary = new DataWorker({
      core,
      fetch: async (input, init) => {
        const res = await fetch(input, init);
        types.push(res.headers.get('content-type') ?? '');
        return res;
      },
    });
    // a client of a server without the binary form: the Accept header is dropped, JSON comes back
    const json = new DataWorker({
      core,
      fetch: async (input, init) => {
        const headers = new Headers(init?.headers);
        headers.delete('Accept');
        const res = await fetch(input, { ...init, headers });
        types.push(res.headers.get('content-type') ?? '');
        return res;
      },
    });
    for (const w of [binary, json]) w.configure({ apiBase: `${srv.url}/api`, token });
    const a = await binary.load(range);
    const b = await json.load(range);
    expect(types).toEqual([...Array(3).fill(COLUMNS_MEDIA_TYPE), ...Array(3).fill('application/json; charset=utf-8')]);
    expect(a).toEqual(b);
    expect(a.points).toBe(40 * 1440);
    const view = { ...target, startTime: START, endTime: START + 40 * DAY - 1, widthPx: 700, mode: 'level' as const, offsetMm: 3000, conversion: null, unit: 'Metres' as const };
    const va = await binary.view(view);
    const vb = await json.view(view);
    expect(Array.from(va.time)).toEqual(Array.from(vb.time));
    expect(Array.from(va.value)).toEqual(Array.from(vb.value));
    expect(va.value.length).toBeGreaterThan(700);
    binary.clear();
    json.clear();
  });

  it('refuses a binary page that is not one (wrong length), without holding part of it', async () => {
    const w = new DataWorker({
      core,
      fetch: async (input, init) => {
        const body = new Uint8Array(await (await fetch(input, init)).arrayBuffer());
        return new Response(body.subarray(0, body.length - 4), { headers: { 'Content-Type': COLUMNS_MEDIA_TYPE } });
      },
    });
    w.configure({ apiBase: `${srv.url}/api`, token });
    await expect(w.load({ ...target, startTime: START, endTime: START + DAY - 1 })).rejects.toThrow(/not a valid column page/);
    expect(w.held()[`${target.orgId}/${target.sensorId}`]).toBe(0);
  });

  it('follows the next cursor across pages', async () => {
    const w = new DataWorker({
      core,
      fetch: (input, init) => {
        const url = new URL(String(input));
        url.searchParams.set('limit', '1000'); // small pages, so one chunk spans many
        return fetch(url, init);
      },
    });
    w.configure({ apiBase: `${srv.url}/api`, token });
    const r = await w.load({ ...target, startTime: START, endTime: START + 2 * DAY - 1 });
    expect(r.points).toBe(2 * 1440);
    w.clear();
  });

  it('does not ask again for settled chunks it already holds, unless refreshing', async () => {
    const { w, log } = instrumented();
    const range = { ...target, startTime: START, endTime: START + 40 * DAY - 1 };
    await w.load(range);
    await w.load(range);
    expect(log.requests).toBe(3); // all three ended long before they were fetched
    await w.load({ ...range, refresh: true });
    expect(log.requests).toBe(6);
    w.clear();
  });

  it('throws the response text when the server refuses (a non-member)', async () => {
    const { w } = instrumented(outsiderToken);
    await expect(w.load({ ...target, startTime: START, endTime: START + DAY })).rejects.toThrow(/ORGANISATION_NOT_FOUND/);
  });

  it('fails with the spec message when there is no session', async () => {
    const w = new DataWorker({ core });
    await expect(w.load({ ...target, startTime: START, endTime: START + DAY })).rejects.toThrow(NOT_LOGGED_IN);
  });

  it('resolves an empty request after 500 ms without asking the server', async () => {
    const slept: number[] = [];
    const w = new DataWorker({ core, fetch: () => Promise.reject(new Error('no request expected')), sleep: async (ms) => void slept.push(ms) });
    const r = await w.load({ ...target, startTime: START + DAY, endTime: START });
    expect(r).toEqual({ points: 0, firstTime: null, lastTime: null });
    expect(slept).toEqual([EMPTY_REQUEST_MS]);
  });

  it('exports the held range as CSV named from sensor name, serial and time, with live points appended', async () => {
    const { w } = instrumented();
    await w.load({ ...target, startTime: START, endTime: START + 2 * DAY - 1 });
    w.append(target, [{ time: START + 2 * DAY, rawDistance: 500 }]);
    const out = await w.exportCsv({
      ...target,
      startTime: START + 2 * DAY - 60_000,
      endTime: START + 2 * DAY,
      mode: 'level',
      offsetMm: 3000,
      conversion: null,
      unit: 'Metres',
      format: 'ISO8601 UTC',
      timeZone: 'Pacific/Auckland',
      sensorName: 'Main Reservoir',
      serial: '1A2B3C4D',
    });
    expect(out.filename).toMatch(/^Main_Reservoir_1A2B3C4D_\d{8}-\d{6}\.csv$/);
    expect(Papa.parse(out.csv.trimEnd(), { newline: '\r\n' }).data).toEqual([
      ['Time (UTC)', 'Main Reservoir - Water Level (m)'],
      ['2026-01-02T23:59:00Z', `${((3000 - (1000 + 1439)) / 1000).toFixed(3)}`],
      ['2026-01-03T00:00:00Z', '2.500'],
    ]);
    w.clear();
  });
});

describe('the cache caps (sensor-setup.md 9: 172800 and 43200)', () => {
  it('drops the least recently used other sensors until they hold at most 43,200, never the one in view', () => {
    const entries = [
      { key: 'a', points: 100_000, lastUsed: 1 },
      { key: 'b', points: 40_000, lastUsed: 2 },
      { key: 'c', points: 30_000, lastUsed: 3 },
      { key: 'view', points: 525_600, lastUsed: 4 },
    ];
    // 695,600 > 172,800: without a, the others hold 70,000 > 43,200; without b, 30,000
    expect(toEvict(entries, 'view')).toEqual(['a', 'b']);
    expect(toEvict(entries.slice(1, 3), 'view')).toEqual([]); // 70,000 is under the high cap
  });

  it('evicts through the worker: a year in view stays, the others go oldest first', () => {
    const w = new DataWorker({ core });
    const series = (n: number) => Array.from({ length: n }, (_, i) => ({ time: START + i * 60_000, rawDistance: 1000 }));
    const t = (id: string) => ({ orgId: 'o', sensorId: id });
    w.append(t('old'), series(30_000));
    w.append(t('mid'), series(30_000));
    w.append(t('new'), series(20_000));
    expect(Object.keys(w.held())).toEqual(['o/old', 'o/mid', 'o/new']); // 80,000 <= 172,800
    // viewing a fourth sensor with a year of data pushes the total over the high cap
    void w.view({ ...t('year'), startTime: 0, endTime: 1, widthPx: 10, mode: 'level', offsetMm: 0, conversion: null, unit: 'Metres' });
    w.append(t('year'), series(525_600));
    const held = w.held();
    expect(held['o/year']).toBe(525_600);
    // others held 80,000 > 43,200: old goes (50,000 left), then mid (20,000 left)
    expect(held).toEqual({ 'o/new': 20_000, 'o/year': 525_600 });
    expect(CACHE_HIGH).toBe(172_800);
    expect(CACHE_LOW).toBe(43_200);
    w.clear();
  });
});
