import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness';
import { addMember, makeOrg, makeSensor, makeUser } from './fixtures';
import { fairShareOf } from '../../server/http/fair-share';

/**
 * Issue 35, fair sharing (OWASP API4): heavy calls (measurement pages, route imports, reading
 * lists) run within per-user and per-organisation limits, and above the memory ceiling are refused
 * with 503 rather than letting the process grow; refusals carry Retry-After. The limiter's own
 * rules are in server/http/fair-share.test.ts; here the routes are wired to it.
 */
const importBody = (n: number) => ({
  routeName: 'R-1',
  readings: Array.from({ length: n }, (_, i) => ({
    sequence: i + 1, ozoneNumber: `OZ${i}`, serial: `S${i}`, valuationRef: `17${i}/00`, propertyAddress: `${i} Road`, ownerName: `Owner ${i}`, location: 'Front',
  })),
});

describe('fair shares of heavy work (issue 35)', () => {
  let s: TestServer;
  const ids: Record<string, string> = {};
  const tokens: Record<string, string> = {};
  beforeAll(async () => {
    s = await startTestServer('pglite', { HEAVY_PER_USER: '1', HEAVY_WAITING_PER_USER: '0' });
    const db = s.ctx.db;
    for (const name of ['busy', 'other']) {
      const org = await makeOrg(db, { features: { meterReading: true } });
      const user = await makeUser(db);
      await addMember(db, org.id, user.id, 3);
      const sensor = await makeSensor(db, org.id);
      Object.assign(ids, { [`${name}Org`]: org.id, [`${name}User`]: user.id, [`${name}Sensor`]: sensor.id });
      tokens[name] = await s.tokenFor(user.id);
    }
  });
  afterAll(() => s?.close());

  const page = (who: 'busy' | 'other') => s.api(`/organisations/${ids[`${who}Org`]}/sensors/${ids[`${who}Sensor`]}/measurements?startTime=0&endTime=${Date.now()}`, { token: tokens[who] });
  let imports = 0;
  const importRoute = (who: 'busy' | 'other') => s.api(`/organisations/${ids[`${who}Org`]}/routes`, { method: 'POST', token: tokens[who], json: { ...importBody(3), routeName: `R-${imports++}` } });

  it('a user at their limit is refused 429 with Retry-After on pages and imports; another organisation is served', async () => {
    const hold = await fairShareOf(s.ctx.config).acquire(ids.busyUser, ids.busyOrg); // the busy member's page in flight
    try {
      for (const res of [await page('busy'), await importRoute('busy')]) {
        expect(res.status).toBe(429);
        expect(res.headers.get('retry-after')).toBe('1');
        expect(((await res.json()) as { code: string }).code).toBe('TOO_MANY_REQUESTS');
      }
      expect((await page('other')).status).toBe(200);
      expect((await importRoute('other')).status).toBe(201);
    } finally {
      hold();
    }
    expect((await page('busy')).status).toBe(200);
    expect((await importRoute('busy')).status).toBe(201);
  });

  it('route imports parsed off the event loop answer as before: bad JSON, a bad value, too deep', async () => {
    const post = (body: string) => s.api(`/organisations/${ids.busyOrg}/routes`, { method: 'POST', token: tokens.busy, body, headers: { 'Content-Type': 'application/json' } });
    const bad = await post('{"routeName":');
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ code: 'INVALID_JSON', message: 'The request body is not valid JSON.' });
    const invalid = await post(JSON.stringify({ routeName: 'R', readings: [] }));
    expect(invalid.status).toBe(400);
    expect(await invalid.json()).toMatchObject({ code: 'INVALID_REQUEST', message: expect.stringMatching(/^readings: /) });
  });
});

describe('the memory ceiling (issue 35)', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer('pglite', { MEMORY_CEILING_MB: '64' }); // any server is past 64 MB
  });
  afterAll(() => s?.close());

  it('refuses heavy work with 503 and Retry-After instead of growing; light calls go on', async () => {
    const db = s.ctx.db;
    const org = await makeOrg(db, { features: { meterReading: true } });
    const user = await makeUser(db);
    await addMember(db, org.id, user.id, 3);
    const sensor = await makeSensor(db, org.id);
    const token = await s.tokenFor(user.id);
    const res = await s.api(`/organisations/${org.id}/sensors/${sensor.id}/measurements?startTime=0&endTime=${Date.now()}`, { token });
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('5');
    expect(await res.json()).toEqual({ code: 'SERVER_BUSY', message: 'The server is busy; try again in a moment.' });
    const imp = await s.api(`/organisations/${org.id}/routes`, { method: 'POST', token, json: importBody(2) });
    expect(imp.status).toBe(503);
    expect((await s.api(`/organisations/${org.id}/sensors`, { token })).status).toBe(200);
    expect((await fetch(`${s.url}/api/health`)).status).toBe(200);
  });
});
