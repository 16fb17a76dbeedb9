import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, testDrivers, type TestServer } from './harness';
import { makeUser } from './fixtures';
import { clientErrorPageSchema } from '../../src/contract/client-error.schema';

const report = (over: Record<string, unknown> = {}) => ({
  kind: 'error',
  message: 'TypeError: x is undefined',
  stack: 'TypeError: x is undefined\n    at render (app.js:1:2)',
  url: 'http://localhost/org/riverbend/sensors',
  release: '0.1.0',
  ...over,
});

describe.each(testDrivers)('client error reports on %s (monitoring-client 9)', (driver) => {
  let s: TestServer;
  let clock = 1_750_000_000_000;
  let admin: string;
  let member: string;
  let memberEmail: string;
  const nextMinute = () => (clock += 61_000); // a new rate-limit window

  beforeAll(async () => {
    s = await startTestServer(driver, {}, { now: () => clock });
    admin = await s.tokenFor((await makeUser(s.ctx.db, { isSiteAdmin: true })).id);
    const m = await makeUser(s.ctx.db);
    memberEmail = m.email;
    member = await s.tokenFor(m.id);
  });
  afterAll(() => s?.close());

  const send = (body: unknown, token: string | null = null) => s.api('/client-errors', { method: 'POST', token, json: body });
  const list = (token: string | null, q = '') => s.api(`/admin/client-errors${q}`, { token });

  it('stores a report sent signed out, and one signed in with its user; site admins read them newest first', async () => {
    nextMinute();
    expect((await send(report({ message: 'signed out' }))).status).toBe(201);
    clock += 1000;
    expect((await send(report({ kind: 'render', message: 'signed in', componentStack: '\n    at Chart' }), member)).status).toBe(201);
    clock += 1000;
    // a bad token does not lose the report: it is kept without a user
    expect((await send(report({ message: 'stale token' }), 'Bearer not-a-token')).status).toBe(201);
    const res = await list(admin);
    expect(res.status).toBe(200);
    const page = clientErrorPageSchema.parse(await res.json());
    expect(page.clientErrors.map((e) => e.message)).toEqual(['stale token', 'signed in', 'signed out']);
    expect(page.clientErrors[1]).toMatchObject({ kind: 'render', user: { email: memberEmail }, componentStack: '\n    at Chart', release: '0.1.0' });
    expect(page.clientErrors[2]).toMatchObject({ user: null, clientAddress: expect.stringMatching(/127\.0\.0\.1/), userAgent: expect.any(String) });
    expect(page.clientErrors[0].user).toBeNull();

    const first = clientErrorPageSchema.parse(await (await list(admin, '?limit=2')).json());
    expect(first.clientErrors).toHaveLength(2);
    const rest = clientErrorPageSchema.parse(await (await list(admin, `?limit=2&start=${first.next}`)).json());
    expect(rest.clientErrors.map((e) => e.message)).toEqual(['signed out']);
    expect(rest.next).toBeNull();
  });

  it('is readable by site admins only', async () => {
    expect((await list(member)).status).toBe(403);
    expect((await list(null)).status).toBe(401);
    expect((await list(admin, `?start=${Buffer.from('99999999999999999999:x').toString('base64url')}`)).status).toBe(400);
  });

  it('refuses a malformed report with 400 and a body over 16 KiB with 413, storing neither', async () => {
    nextMinute();
    const before = (await s.ctx.db.query('SELECT id FROM client_errors')).length;
    expect((await send(report({ kind: 'nonsense' }))).status).toBe(400);
    expect((await send(report({ message: '' }))).status).toBe(400);
    expect((await send(report({ message: 'a\u0000b' }))).status).toBe(400);
    expect((await send(report({ url: 'http://x/\r\nInjected' }))).status).toBe(400);
    const big = await send(report({ stack: 'x'.repeat(17 * 1024) }));
    expect(big.status).toBe(413);
    expect(await big.json()).toEqual({ code: 'PAYLOAD_TOO_LARGE', message: 'The request body is larger than 16 KiB.' });
    expect((await s.ctx.db.query('SELECT id FROM client_errors')).length).toBe(before);
  });

  it('limits reports per address: 10 a minute, then 429 until the next minute', async () => {
    nextMinute();
    for (let i = 0; i < 10; i++) expect((await send(report({ message: `loop ${i}` }))).status).toBe(201);
    const limited = await send(report({ message: 'one too many' }));
    expect(limited.status).toBe(429);
    expect(await limited.json()).toMatchObject({ code: 'TOO_MANY_REQUESTS' });
    expect((await send(report({ message: 'signed in too' }), member)).status).toBe(429); // per address, signed in or not
    nextMinute();
    expect((await send(report({ message: 'later' }))).status).toBe(201);
  });
});
