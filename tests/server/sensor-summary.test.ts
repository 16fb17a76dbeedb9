import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, testDrivers, type TestServer } from './harness';
import { addMember, makeOrg, makeSensor, makeUser } from './fixtures';
import { sensorResponseSchema } from '../../src/contract/sensor.schema';
import { SENSOR_CHANGE_OVERLAP_MS, SUMMARY_FIELDS, sensorSummaryBodySchema } from '../../src/contract/sensor-summary.schema';
import { SUMMARY_SQL, wholeSummaryList } from '../../server/gateway/sensors.routes';

// The compact list (DESIGN.md "At a customer's size") and the one-sensor read beside the spec's list.
describe.each(testDrivers)('compact sensor list on %s', (driver) => {
  let s: TestServer;
  let org: { id: string };
  let member: string;
  let outsider: string;
  let alpha: { id: string; serial: string };
  let broken: { id: string; serial: string };

  beforeAll(async () => {
    s = await startTestServer(driver);
    const db = s.ctx.db;
    org = await makeOrg(db, { name: 'Riverbend' });
    const other = await makeOrg(db, { name: 'Elsewhere' });
    const u = await makeUser(db);
    await addMember(db, org.id, u.id, 1);
    member = await s.tokenFor(u.id);
    const o = await makeUser(db);
    await addMember(db, other.id, o.id, 3);
    outsider = await s.tokenFor(o.id);
    await makeSensor(db, org.id, { name: 'zeta tank', serial: 'AA000001', config: { schedulerEnabled: false, measurementInterval: 5, transmissionInterval: 30 } });
    alpha = await makeSensor(db, org.id, { name: 'Alpha weir', serial: 'AA000002', displayInfo: { referenceLines: [], offsetMeasurement: 3000, minLevel: 0, maxLevel: 2000 } });
    broken = await makeSensor(db, org.id, { name: 'Mid river', serial: 'AA0003' });
    await makeSensor(db, other.id, { name: 'Not yours', serial: 'BB000001' });
    await db.query(
      `UPDATE sensors SET latitude = -41.29, longitude = 174.78, conversion_configs = '[{"type":"VOLUME_CYLINDER","diameter":2}]',
         latest_data = '{"lastSeen":1700000000000,"battery":55,"alertAsserted":true,"lastMeasurement":{"time":1699999990000,"rawDistance":1200}}' WHERE id = $1`,
      [alpha.id],
    );
    // a stored value of the wrong type goes through as stored: the client marks it, the list still comes
    await db.query(`UPDATE sensors SET latest_data = '{"battery":"low","lastSeen":"yesterday"}' WHERE id = $1`, [broken.id]);
  });
  afterAll(() => s?.close());

  it('answers view=summary as one array per sensor in the fields order, sorted by name, with server time', async () => {
    const res = await s.api(`/organisations/${org.id}/sensors?view=summary`, { token: member });
    expect(res.status).toBe(200);
    expect(res.headers.get('server-timing')).toMatch(/db;dur=\d+(\.\d+)?.*total;dur=\d+(\.\d+)?/);
    const body = sensorSummaryBodySchema.parse(await res.json());
    expect(body.fields).toEqual([...SUMMARY_FIELDS]);
    const named = body.rows.map((r) => Object.fromEntries(body.fields.map((f, i) => [f, (r as unknown[])[i]])));
    expect(named.map((r) => r.name)).toEqual(['Alpha weir', 'Mid river', 'zeta tank']);
    expect(named[0]).toEqual({
      id: alpha.id,
      serial: 'AA000002',
      name: 'Alpha weir',
      latitude: -41.29,
      longitude: 174.78,
      schedulerEnabled: true,
      lastSeen: 1700000000000,
      alertAsserted: true,
      offlineAsserted: null,
      battery: 55,
      measurementTime: 1699999990000,
      rawDistance: 1200,
      offsetMeasurement: 3000,
      minLevel: 0,
      maxLevel: 2000,
      conversion: { type: 'VOLUME_CYLINDER', diameter: 2 },
    });
    expect(named[1]).toMatchObject({ serial: 'AA0003', battery: 'low', lastSeen: 'yesterday', measurementTime: null, latitude: null });
    expect(named[2]).toMatchObject({ serial: 'AA000001', schedulerEnabled: false });
  });

  it('streams the whole list through a cursor in batches: the same rows as one statement builds, in order, with a cursor', async () => {
    const [one] = await s.ctx.db.query<{ rows: string }>(SUMMARY_SQL, [org.id]);
    const expected = JSON.parse(one!.rows) as unknown[];
    expect(expected).toHaveLength(3);
    // batches of 2 and of 1: the rows split over reads and joined with no row lost, doubled or out of order
    for (const perFetch of [1, 2, 3, 5_000]) {
      const body = sensorSummaryBodySchema.parse(JSON.parse(await new Response(await wholeSummaryList(s.ctx.db, org.id, perFetch)).text()));
      expect(body.fields, String(perFetch)).toEqual([...SUMMARY_FIELDS]);
      expect(body.rows, String(perFetch)).toEqual(expected);
      expect(body.cursor).toBeGreaterThan(Date.now() - SENSOR_CHANGE_OVERLAP_MS - 60_000);
      expect(body.removed).toBeUndefined();
    }
    // the route's whole list: compressed as it streams (no length known ahead), the same rows once decoded
    const { request } = await import('node:http');
    const { gunzipSync } = await import('node:zlib');
    const url = new URL(`${s.url}/api/organisations/${org.id}/sensors?view=summary`);
    const res = await new Promise<{ headers: Record<string, string | string[] | undefined>; body: Buffer }>((done, fail) =>
      request(url, { headers: { Authorization: member, 'Accept-Encoding': 'gzip' } }, (r) => {
        const parts: Buffer[] = [];
        r.on('data', (d: Buffer) => parts.push(d));
        r.on('end', () => done({ headers: r.headers, body: Buffer.concat(parts) }));
      })
        .on('error', fail)
        .end(),
    );
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers['content-length']).toBeUndefined();
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['server-timing']).toMatch(/db;dur=\d+(\.\d+)?.*total;dur=/);
    expect(sensorSummaryBodySchema.parse(JSON.parse(gunzipSync(res.body).toString())).rows).toEqual(expected);
  });

  it('answers the whole list of an organisation without sensors as an empty list with a cursor', async () => {
    const empty = await makeOrg(s.ctx.db, { name: 'Nobody yet' });
    const body = JSON.parse(await new Response(await wholeSummaryList(s.ctx.db, empty.id, 2)).text());
    expect(body).toEqual({ fields: [...SUMMARY_FIELDS], rows: [], cursor: expect.any(Number) });
  });

  it('keeps the spec\'s full list without a view, with server time too', async () => {
    const res = await s.api(`/organisations/${org.id}/sensors`, { token: member });
    expect(res.status).toBe(200);
    expect(res.headers.get('server-timing')).toMatch(/total;dur=/);
    const body = (await res.json()) as { sensors: { serial: string; radio: unknown }[] };
    expect(body.sensors.map((x) => x.serial)).toEqual(['AA000002', 'AA0003', 'AA000001']);
    expect(body.sensors[0].radio).toEqual({ type: 'cellular' });
  });

  it('refuses an unknown view with a 400 that says what is allowed', async () => {
    const res = await s.api(`/organisations/${org.id}/sensors?view=compact`, { token: member });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ code: 'INVALID_QUERY', message: 'view must be "summary" (or left out for the full records), not "compact".' });
    const empty = await s.api(`/organisations/${org.id}/sensors?view=`, { token: member });
    expect(empty.status).toBe(400);
  });

  it('answers view=summary&limit=N as the first N rows in the list\'s order with the organisation\'s total', async () => {
    const res = await s.api(`/organisations/${org.id}/sensors?view=summary&limit=2`, { token: member });
    expect(res.status).toBe(200);
    expect(res.headers.get('server-timing')).toMatch(/total;dur=/);
    const body = sensorSummaryBodySchema.parse(await res.json());
    expect(body.fields).toEqual([...SUMMARY_FIELDS]);
    expect(body.total).toBe(3);
    expect(body.rows.map((r) => (r as unknown[])[2])).toEqual(['Alpha weir', 'Mid river']);
    const all = sensorSummaryBodySchema.parse(await (await s.api(`/organisations/${org.id}/sensors?view=summary`, { token: member })).json());
    // the same rows, value for value, as the whole list's first two
    expect(body.rows).toEqual(all.rows.slice(0, 2));
    const more = sensorSummaryBodySchema.parse(await (await s.api(`/organisations/${org.id}/sensors?view=summary&limit=1000`, { token: member })).json());
    const { cursor, ...rest } = all;
    expect(cursor).toEqual(expect.any(Number));
    expect(more).toEqual({ ...rest, total: 3, cursor: expect.any(Number) });
  });

  it('refuses a limit outside 1 to 1,000, or without view=summary, with a 400 that says why', async () => {
    for (const bad of ['0', '1001', '-1', '2.5', 'ten', '', '01']) {
      const res = await s.api(`/organisations/${org.id}/sensors?view=summary&limit=${bad}`, { token: member });
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ code: 'INVALID_QUERY', message: `limit must be a whole number from 1 to 1000, not "${bad}".` });
    }
    const full = await s.api(`/organisations/${org.id}/sensors?limit=5`, { token: member });
    expect(full.status).toBe(400);
    expect(await full.json()).toEqual({ code: 'INVALID_QUERY', message: 'limit goes with view=summary only (the full records are one list).' });
  });

  it('answers a stranger 404 whatever the query', async () => {
    for (const q of ['?view=summary', '?view=summary&limit=10', '?view=bad']) {
      const res = await s.api(`/organisations/${org.id}/sensors${q}`, { token: outsider });
      expect(res.status).toBe(404);
    }
  });

  it('reads one sensor\'s full record, and 404s one of another organisation or a malformed id', async () => {
    const res = await s.api(`/organisations/${org.id}/sensors/${alpha.id}`, { token: member });
    expect(res.status).toBe(200);
    const { sensor } = sensorResponseSchema.parse(await res.json());
    expect(sensor).toMatchObject({ id: alpha.id, serial: 'AA000002', conversionConfigs: [{ type: 'VOLUME_CYLINDER', diameter: 2 }], latestData: { battery: 55 } });
    const mine = await s.api(`/organisations/${org.id}/sensors/${alpha.id}`, { token: outsider });
    expect(mine.status).toBe(404);
    const notMine = (await s.ctx.db.query<{ id: string }>(`SELECT id FROM sensors WHERE serial = 'BB000001'`))[0].id;
    expect((await s.api(`/organisations/${org.id}/sensors/${notMine}`, { token: member })).status).toBe(404);
    expect((await s.api(`/organisations/${org.id}/sensors/not-a-uuid`, { token: member })).status).toBe(404);
  });

  it('reads one sensor\'s full record by its serial (a dashboard opened by link, before the list), in any case; another organisation\'s serial 404s', async () => {
    for (const serial of ['AA000002', 'aa000002']) {
      const res = await s.api(`/organisations/${org.id}/sensors/${serial}`, { token: member });
      expect(res.status).toBe(200);
      expect(sensorResponseSchema.parse(await res.json()).sensor).toMatchObject({ id: alpha.id, serial: 'AA000002' });
    }
    const other = await s.api(`/organisations/${org.id}/sensors/BB000001`, { token: member });
    expect(other.status).toBe(404);
    expect(await other.json()).toEqual({ code: 'SENSOR_NOT_FOUND', message: 'Sensor not found.' });
    expect((await s.api(`/organisations/${org.id}/sensors/AA000002`, { token: outsider })).status).toBe(404);
  });

  it('answers an organisation without sensors an empty list', async () => {
    const empty = await makeOrg(s.ctx.db, { name: 'Empty' });
    const u = await makeUser(s.ctx.db);
    await addMember(s.ctx.db, empty.id, u.id, 1);
    const res = await s.api(`/organisations/${empty.id}/sensors?view=summary`, { token: await s.tokenFor(u.id) });
    expect(await res.json()).toEqual({ fields: [...SUMMARY_FIELDS], rows: [], cursor: expect.any(Number) });
  });

  describe('changes since a cursor (the list\'s refresh)', () => {
    let owner: string;
    const summary = async (q: string, token = owner) => {
      const res = await s.api(`/organisations/${org.id}/sensors?view=summary${q}`, { token });
      expect(res.status).toBe(200);
      return sensorSummaryBodySchema.parse(await res.json());
    };
    const serials = (b: { rows: unknown[] }) => b.rows.map((r) => (r as unknown[])[1]).sort();
    /** The clock of a read whose cursor is given: what changed after that read and nothing before. */
    const afterRead = (cursor: number) => `&since=${cursor + SENSOR_CHANGE_OVERLAP_MS}`;

    beforeAll(async () => {
      const u = await makeUser(s.ctx.db);
      await addMember(s.ctx.db, org.id, u.id, 3);
      owner = await s.tokenFor(u.id);
    });

    it('answers only what changed after the read: an uplink\'s latest data, a setup save, a claim; the cursor moves on; the overlap repeats the last minute', async () => {
      const whole = await summary('');
      expect(whole.removed).toBeUndefined();
      await new Promise((r) => setTimeout(r, 5));
      expect(await summary(afterRead(whole.cursor!))).toMatchObject({ rows: [], removed: [] });

      // ingest's write path: latest data on the sensor row
      await s.ctx.db.query(`UPDATE sensors SET latest_data = '{"lastSeen":1800000000000,"battery":80}' WHERE id = $1`, [alpha.id]);
      // the setup save, over HTTP
      const zeta = (await s.ctx.db.query<{ id: string }>(`SELECT id FROM sensors WHERE serial = 'AA000001'`))[0]!;
      expect((await s.api(`/organisations/${org.id}/sensors/${zeta.id}`, { method: 'PUT', token: owner, json: { name: 'Zeta renamed' } })).status).toBe(200);
      // a claim: the sensor arrives
      await makeSensor(s.ctx.db, null, { serial: 'CC000001', claimCode: '12345678-1234-1234-1234-123456789012', name: 'Claimed' });
      const claim = await s.api(`/organisations/${org.id}/add-sensor`, { method: 'POST', token: owner, json: { serial: 'CC000001', claimCode: '12345678-1234-1234-1234-123456789012' } });
      expect(claim.status).toBe(200);

      const changes = await summary(afterRead(whole.cursor!));
      expect(changes.fields).toEqual([...SUMMARY_FIELDS]);
      expect(serials(changes)).toEqual(['AA000001', 'AA000002', 'CC000001']);
      expect(changes.removed).toEqual([]);
      const a = changes.rows.find((r) => (r as unknown[])[1] === 'AA000002') as unknown[];
      expect(a[SUMMARY_FIELDS.indexOf('battery')]).toBe(80);
      expect((changes.rows.find((r) => (r as unknown[])[1] === 'AA000001') as unknown[])[2]).toBe('Zeta renamed');
      // the next cursor is later than the last, and a minute behind the read
      expect(changes.cursor!).toBeGreaterThan(whole.cursor!);
      // another organisation's sensor changing is not in this one's changes
      await s.ctx.db.query(`UPDATE sensors SET name = 'Still not yours' WHERE serial = 'BB000001'`);
      expect(serials(await summary(afterRead(whole.cursor!)))).toEqual(['AA000001', 'AA000002', 'CC000001']);
      // the cursor itself reaches a minute back: everything changed within it comes again
      expect(serials(await summary(`&since=${changes.cursor}`))).toEqual(expect.arrayContaining(['AA000001', 'AA000002', 'CC000001']));
    });

    it('answers the ids of sensors that left the organisation (moved elsewhere, or deleted), not their rows', async () => {
      const whole = await summary('');
      await new Promise((r) => setTimeout(r, 5));
      const moved = await makeSensor(s.ctx.db, org.id, { serial: 'DD000001', name: 'Moving' });
      const gone = await makeSensor(s.ctx.db, org.id, { serial: 'DD000002', name: 'Going' });
      const other = (await s.ctx.db.query<{ org_id: string }>(`SELECT org_id FROM sensors WHERE serial = 'BB000001'`))[0]!.org_id;
      await s.ctx.db.query('UPDATE sensors SET org_id = $2 WHERE id = $1', [moved.id, other]);
      await s.ctx.db.query('DELETE FROM sensors WHERE id = $1', [gone.id]);
      const changes = await summary(afterRead(whole.cursor!));
      expect(changes.removed!.sort()).toEqual([moved.id, gone.id].sort());
      expect(serials(changes)).not.toContain('DD000001');
      expect(serials(changes)).not.toContain('DD000002');
    });

    it('answers the whole list for a cursor from ahead of the server\'s clock (another database, a clock set back)', async () => {
      const ahead = await summary(`&since=${Date.now() + 86_400_000}`);
      expect(ahead.removed).toBeUndefined();
      expect(ahead.rows).toEqual((await summary('')).rows);
      expect(ahead.cursor).toEqual(expect.any(Number));
    });

    it('refuses a since that is not a cursor, or with limit, or without view=summary, with a 400 that says why; a stranger gets 404', async () => {
      for (const bad of ['', 'yesterday', '-5', '1.5', '1e12', '1234567890123456']) {
        const res = await s.api(`/organisations/${org.id}/sensors?view=summary&since=${bad}`, { token: member });
        expect(res.status).toBe(400);
        expect(await res.json()).toEqual({ code: 'INVALID_QUERY', message: `since must be the cursor of an earlier answer (a whole number), not "${bad}".` });
      }
      const paged = await s.api(`/organisations/${org.id}/sensors?view=summary&limit=10&since=5`, { token: member });
      expect(await paged.json()).toEqual({ code: 'INVALID_QUERY', message: 'since and limit cannot be asked together: a change set is never paged.' });
      const full = await s.api(`/organisations/${org.id}/sensors?since=5`, { token: member });
      expect(full.status).toBe(400);
      expect(await full.json()).toEqual({ code: 'INVALID_QUERY', message: 'since goes with view=summary only (the full records are one list).' });
      expect((await s.api(`/organisations/${org.id}/sensors?view=summary&since=5`, { token: outsider })).status).toBe(404);
    });
  });
});
