import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, testDrivers, type TestServer } from './harness';
import { addMember, makeOrg, makeSensor, makeUser } from './fixtures';
import { measurementColumnsPageSchema, measurementPageSchema } from '../../src/contract/measurement.schema';
import { COLUMNS_MEDIA_TYPE, decodeColumnsPage } from '../../src/contract/measurement-columns';
import { createApp } from '../../server/http/app';
import { revokeSignIns } from '../../server/identity/tokens';

const T0 = 1_700_000_000_000;
const MINUTE = 60_000;

/** n rows one minute apart from T0; rawDistance 1000 + i, betaRawDistance set on every 7th row. */
async function seedRows(s: TestServer, sensorId: string, n: number) {
  await s.ctx.db.query(
    `INSERT INTO measurements (sensor_id, time, raw_distance, beta_raw_distance)
     SELECT $1, $2::bigint + g::bigint * 60000, 1000 + g, CASE WHEN g % 7 = 0 THEN 2000 + g END FROM generate_series(0, $3 - 1) g`,
    [sensorId, T0, n],
  );
}

describe.each(testDrivers)('GET /organisations/{orgId}/sensors/{sensorId}/measurements on %s (monitoring-client 7)', (driver) => {
  let s: TestServer;
  let org: { id: string };
  let sensor: { id: string };
  let token: string;
  const path = (q: Record<string, string | number>, sensorId = sensor.id, orgId = org.id) =>
    `/organisations/${orgId}/sensors/${sensorId}/measurements?${new URLSearchParams(Object.entries(q).map(([k, v]) => [k, String(v)]))}`;
  const get = async (q: Record<string, string | number>, t = token) => s.api(path(q), { token: t });

  beforeAll(async () => {
    s = await startTestServer(driver);
    org = await makeOrg(s.ctx.db);
    const u = await makeUser(s.ctx.db);
    await addMember(s.ctx.db, org.id, u.id, 1);
    token = await s.tokenFor(u.id);
    sensor = await makeSensor(s.ctx.db, org.id);
    await seedRows(s, sensor.id, 1000);
  });
  afterAll(() => s?.close());

  it('answers the documented shape {measurements, next} for an inclusive range, ascending by default', async () => {
    const res = await get({ startTime: T0 + 10 * MINUTE, endTime: T0 + 20 * MINUTE });
    expect(res.status).toBe(200);
    const page = measurementPageSchema.parse(await res.json());
    expect(page.next).toBeNull();
    expect(page.measurements.map((m) => m.time)).toEqual(Array.from({ length: 11 }, (_, i) => T0 + (10 + i) * MINUTE));
    expect(page.measurements[0]).toEqual({ time: T0 + 10 * MINUTE, rawDistance: 1010, betaRawDistance: null });
    expect(page.measurements[4]).toEqual({ time: T0 + 14 * MINUTE, rawDistance: 1014, betaRawDistance: 2014 });
  });

  it('answers the compact column shape with the same values (format=columns)', async () => {
    const q = { startTime: T0, endTime: T0 + 999 * MINUTE };
    const rows = measurementPageSchema.parse(await (await get(q)).json());
    const cols = measurementColumnsPageSchema.parse(await (await get({ ...q, format: 'columns' })).json());
    expect(cols.columns.time).toEqual(rows.measurements.map((m) => m.time));
    expect(cols.columns.rawDistance).toEqual(rows.measurements.map((m) => m.rawDistance));
    expect(cols.columns.betaRawDistance).toEqual(rows.measurements.map((m) => m.betaRawDistance));
    expect(cols.columns.time).toHaveLength(1000);
  });

  it('pages through a range with the start cursor: complete, no gaps, no duplicates (asc and desc)', async () => {
    for (const order of ['asc', 'desc'] as const) {
      for (const limit of [97, 100]) {
        const seen: number[] = [];
        let next: string | null = null;
        let pages = 0;
        do {
          const res = await get({ order, startTime: T0, endTime: T0 + 999 * MINUTE, format: 'columns', limit, ...(next ? { start: next } : {}) });
          expect(res.status).toBe(200);
          const page = measurementColumnsPageSchema.parse(await res.json());
          expect(page.columns.time.length).toBeGreaterThan(0); // a cursor never leads to an empty page
          seen.push(...page.columns.time);
          next = page.next;
          pages++;
        } while (next);
        expect(pages).toBe(Math.ceil(1000 / limit));
        const expected = Array.from({ length: 1000 }, (_, i) => T0 + i * MINUTE);
        expect(seen).toEqual(order === 'asc' ? expected : expected.reverse());
      }
    }
  });

  it('answers an empty page for a range without data', async () => {
    const page = measurementPageSchema.parse(await (await get({ startTime: 0, endTime: T0 - 1 })).json());
    expect(page).toEqual({ measurements: [], next: null });
    const cols = measurementColumnsPageSchema.parse(await (await get({ startTime: 0, endTime: T0 - 1, format: 'columns' })).json());
    expect(cols).toEqual({ columns: { time: [], rawDistance: [], betaRawDistance: [] }, next: null });
  });

  it('answers the binary column form for Accept: ' + COLUMNS_MEDIA_TYPE + ' with the same rows and cursors as JSON (asc and desc)', async () => {
    const binary = { headers: { Accept: `${COLUMNS_MEDIA_TYPE}, application/json;q=0.5` } };
    for (const order of ['asc', 'desc'] as const) {
      let jsonNext: string | null = null;
      let binNext: string | null = null;
      let pages = 0;
      do {
        const q = { order, startTime: T0 + 3 * MINUTE, endTime: T0 + 997 * MINUTE, format: 'columns', limit: 97 };
        const json = measurementColumnsPageSchema.parse(await (await get({ ...q, ...(jsonNext ? { start: jsonNext } : {}) })).json());
        const res = await s.api(path({ ...q, ...(binNext ? { start: binNext } : {}) }), { token, ...binary });
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toBe(COLUMNS_MEDIA_TYPE);
        expect(res.headers.get('vary')).toMatch(/Accept/);
        const bin = decodeColumnsPage(await res.arrayBuffer());
        expect(Array.from(bin.time)).toEqual(json.columns.time);
        expect(Array.from(bin.rawDistance)).toEqual(json.columns.rawDistance);
        expect(Array.from(bin.betaRawDistance, (b) => (Number.isNaN(b) ? null : b))).toEqual(json.columns.betaRawDistance);
        expect(bin.next).toBe(json.next);
        jsonNext = json.next;
        binNext = bin.next;
        pages++;
      } while (jsonNext);
      expect(pages).toBe(Math.ceil(995 / 97));
    }
    // the row form's values too, and an empty page
    const rows = measurementPageSchema.parse(await (await get({ startTime: T0, endTime: T0 + 20 * MINUTE })).json());
    const bin = decodeColumnsPage(await (await s.api(path({ startTime: T0, endTime: T0 + 20 * MINUTE }), { token, ...binary })).arrayBuffer());
    expect(rows.measurements).toEqual(Array.from(bin.time, (time, i) => ({ time, rawDistance: bin.rawDistance[i], betaRawDistance: Number.isNaN(bin.betaRawDistance[i]) ? null : bin.betaRawDistance[i] })));
    const empty = decodeColumnsPage(await (await s.api(path({ startTime: 0, endTime: T0 - 1 }), { token, ...binary })).arrayBuffer());
    expect({ n: empty.time.length, next: empty.next }).toEqual({ n: 0, next: null });
    // JSON stays the default, and q=0 refuses the binary form
    for (const accept of [undefined, 'application/json', `${COLUMNS_MEDIA_TYPE};q=0, application/json`]) {
      const res = await s.api(path({ startTime: T0, endTime: T0 + MINUTE }), { token, ...(accept ? { headers: { Accept: accept } } : {}) });
      expect(res.headers.get('content-type'), accept).toMatch(/^application\/json/);
      await res.arrayBuffer(); // read every body: an unread one holds its connection
    }
  });

  it('refuses bad queries with 400 and a message naming the problem', async () => {
    const cases: [Record<string, string | number>, RegExp][] = [
      [{ endTime: T0 }, /startTime is required/],
      [{ startTime: T0 }, /endTime is required/],
      [{ startTime: 'yesterday', endTime: T0 }, /startTime must be a non-negative whole number/],
      [{ startTime: -5, endTime: T0 }, /startTime must be a non-negative whole number/],
      [{ startTime: T0 + 1, endTime: T0 }, /startTime must not be after endTime/],
      [{ startTime: T0, endTime: T0 + 1, order: 'sideways' }, /order/],
      [{ startTime: T0, endTime: T0 + 1, format: 'xml' }, /format/],
      [{ startTime: T0, endTime: T0 + 1, start: 'bm9wZQ' }, /start cursor/],
    ];
    for (const [q, message] of cases) {
      const res = await get(q);
      expect(res.status, JSON.stringify(q)).toBe(400);
      const body = await res.json();
      expect(body.code).toMatch(/INVALID_(QUERY|CURSOR)/);
      expect(body.message).toMatch(message);
    }
  });

  it('enforces the tenant rule: 401 without a token, 404 for another organisation, 403 for a meter reader', async () => {
    const q = { startTime: T0, endTime: T0 + MINUTE };
    expect((await s.api(path(q))).status).toBe(401);

    const otherOrg = await makeOrg(s.ctx.db);
    const outsider = await makeUser(s.ctx.db);
    await addMember(s.ctx.db, otherOrg.id, outsider.id, 3);
    const outsiderToken = await s.tokenFor(outsider.id);
    const asOutsider = await get(q, outsiderToken);
    expect(asOutsider.status).toBe(404);
    expect(await asOutsider.json()).toMatchObject({ code: 'ORGANISATION_NOT_FOUND' });
    // naming their own organisation with our sensor does not help
    const viaOwnOrg = await s.api(path(q, sensor.id, otherOrg.id), { token: outsiderToken });
    expect(viaOwnOrg.status).toBe(404);
    expect(await viaOwnOrg.json()).toMatchObject({ code: 'SENSOR_NOT_FOUND' });
    expect((await s.api(path(q, 'not-a-uuid', otherOrg.id), { token: outsiderToken })).status).toBe(400); // issue 9: a malformed id is bad input
    // membership and the sensor are checked in one query: the errors keep their order
    const badIdOutside = await s.api(path(q, 'not-a-uuid'), { token: outsiderToken });
    expect(badIdOutside.status).toBe(404); // not a member: nothing about the sensor id is told
    expect(await badIdOutside.json()).toMatchObject({ code: 'ORGANISATION_NOT_FOUND' });
    const otherSensor = await makeSensor(s.ctx.db, otherOrg.id);
    const foreign = await s.api(path(q, otherSensor.id), { token });
    expect(foreign.status).toBe(404); // a member of ours naming another organisation's sensor
    expect(await foreign.json()).toEqual({ code: 'SENSOR_NOT_FOUND', message: 'Sensor not found.' });
    const badQueryForeign = await s.api(path({ startTime: T0 + 1, endTime: T0 }, otherSensor.id), { token });
    expect(badQueryForeign.status).toBe(400); // the query is judged before the sensor, as before
    expect(await badQueryForeign.json()).toMatchObject({ code: 'INVALID_QUERY' });
    expect((await s.api(path(q, otherSensor.id, otherOrg.id), { token: outsiderToken })).status).toBe(200);

    const reader = await makeUser(s.ctx.db);
    await addMember(s.ctx.db, org.id, reader.id, 4);
    const asReader = await get(q, await s.tokenFor(reader.id));
    expect(asReader.status).toBe(403);
    expect((await s.api(path(q, 'not-a-uuid'), { token: await s.tokenFor(reader.id) })).status).toBe(403); // the role before the sensor id
  });

  it('answers the plain page on its own listener (measurements-http.ts) exactly as the app does: status, headers, body', async () => {
    const app = createApp(s.ctx);
    const binary = `${COLUMNS_MEDIA_TYPE}, application/json;q=0.5`;
    const first = decodeColumnsPage(await (await s.api(path({ startTime: T0, endTime: T0 + 999 * MINUTE, limit: 100 }), { token, headers: { Accept: binary } })).arrayBuffer());
    const cases: [Record<string, string | number>, string | undefined, string, string?][] = [
      [{ startTime: T0, endTime: T0 + 999 * MINUTE, order: 'asc', format: 'columns', limit: 100 }, binary, sensor.id],
      [{ startTime: T0, endTime: T0 + 999 * MINUTE, start: first.next! }, binary, sensor.id],
      [{ startTime: T0, endTime: T0 + 999 * MINUTE, order: 'desc', limit: 7 }, binary, sensor.id.toUpperCase(), org.id.toUpperCase()],
      [{ startTime: T0 + 5 * MINUTE, endTime: T0 + 30 * MINUTE }, undefined, sensor.id],
      [{ startTime: T0 + 5 * MINUTE, endTime: T0 + 30 * MINUTE, format: 'columns' }, 'application/json', sensor.id],
      [{ startTime: 0, endTime: T0 - 1 }, binary, sensor.id],
    ];
    for (const [q, accept, sensorId, orgId] of cases) {
      const headers: Record<string, string> = { Authorization: token, ...(accept ? { Accept: accept } : {}) };
      const viaHttp = await s.api(path(q, sensorId, orgId), { headers });
      const viaApp = await app.fetch(new Request(`${s.url}/api${path(q, sensorId, orgId)}`, { headers }));
      const label = JSON.stringify([q, accept, sensorId === sensor.id]);
      expect(viaHttp.status, label).toBe(200);
      expect(viaApp.status, label).toBe(200);
      const body = new Uint8Array(await viaHttp.arrayBuffer());
      expect(body, label).toEqual(new Uint8Array(await viaApp.arrayBuffer()));
      const transport = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);
      const own = (h: Headers) => [...h].filter(([k]) => !transport.has(k));
      expect(own(viaHttp.headers), label).toEqual(own(viaApp.headers));
      expect(viaHttp.headers.get('content-length'), label).toBe(String(body.byteLength));
    }
  });

  it('refuses a revoked sign-in on its next page request (the revocation is asked with the membership)', async () => {
    const u = await makeUser(s.ctx.db);
    await addMember(s.ctx.db, org.id, u.id, 1);
    const t = await s.tokenFor(u.id);
    const q = { startTime: T0, endTime: T0 + MINUTE };
    const accept = { Accept: `${COLUMNS_MEDIA_TYPE}, application/json;q=0.5` };
    expect((await s.api(path(q), { token: t, headers: accept })).status).toBe(200);
    await revokeSignIns(s.ctx.db, { userId: u.id });
    const res = await s.api(path(q), { token: t, headers: accept });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ message: 'Token has been revoked.' });
  });

  // Speed is measured in `npm run bench` (benchmark 6), never asserted here: these machines are noisy.
  it('reads a year of 1-minute data (525,600 rows) completely, in 50,000-row pages', async () => {
    const year = await makeSensor(s.ctx.db, org.id);
    const N = 525_600;
    await seedRows(s, year.id, N);
    const started = performance.now();
    const pages: { columns: { time: number[] }; next: string | null }[] = [];
    let next: string | null = null;
    do {
      const res = await s.api(path({ startTime: T0, endTime: T0 + N * MINUTE, format: 'columns', ...(next ? { start: next } : {}) }, year.id), { token });
      pages.push(JSON.parse(await res.text()));
      next = pages[pages.length - 1].next;
    } while (next);
    const ms = performance.now() - started;
    const rate = Math.round(N / (ms / 1000));
    console.log(`[${driver}] a year of 1-minute rows: ${N} rows in ${pages.length} pages, ${ms.toFixed(0)} ms (request, transfer and JSON.parse): ${rate} rows/s`);
    const times = pages.flatMap((p) => measurementColumnsPageSchema.parse(p).columns.time);
    expect(times).toHaveLength(N);
    expect(times.every((t, i) => t === T0 + i * MINUTE)).toBe(true);
    expect(pages).toHaveLength(Math.ceil(N / 50_000));

    // the binary form's large pages, many at once and twice over (each page's columns are swapped in
    // place in the page's own buffers and sent as they are): each answer holds exactly its own window's rows
    const binary = { token, headers: { Accept: COLUMNS_MEDIA_TYPE } };
    const windows = Array.from({ length: 12 }, (_, i) => ({ startTime: T0 + i * 20_011 * MINUTE, endTime: T0 + (i * 20_011 + 9_000 + 97 * i) * MINUTE }));
    for (let round = 0; round < 2; round++) {
      const answers = await Promise.all(windows.map(async (w) => decodeColumnsPage(await (await s.api(path({ ...w, format: 'columns' }, year.id), binary)).arrayBuffer())));
      answers.forEach((bin, i) => {
        const rows = 9_001 + 97 * i;
        expect(bin.time.length, `window ${i}`).toBe(rows);
        expect(bin.time.every((t, k) => t === windows[i].startTime + k * MINUTE), `window ${i} times`).toBe(true);
        expect(bin.next).toBeNull();
      });
      const check = await s.api(path({ ...windows[5], format: 'columns' }, year.id), { token });
      expect(Array.from(answers[5].rawDistance)).toEqual(measurementColumnsPageSchema.parse(await check.json()).columns.rawDistance);
    }
  }, 300_000);
});
