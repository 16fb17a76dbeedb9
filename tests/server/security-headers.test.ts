import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, testDrivers, type TestServer } from './harness';

describe.each(testDrivers)('security headers on %s (issue 9)', (driver) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(driver, { PUBLIC_URL: 'https://tidewatch.example', MQTT_WS_URL: 'wss://broker.example:9001/mqtt' });
  });
  afterAll(() => s?.close());

  it('every answer (app, gateway, identity, errors) carries CSP, nosniff, Referrer-Policy and HSTS under https', async () => {
    const answers = [
      await fetch(`${s.url}/`),
      await fetch(`${s.url}/config.json`),
      await fetch(`${s.url}/api/health`),
      await fetch(`${s.url}/api/organisations`), // 401
      await fetch(`${s.url}/api/no-such-route`, { headers: { authorization: 'Bearer x' } }),
      await fetch(`${s.url}/identity`, { method: 'POST', body: 'not json' }),
    ];
    for (const res of answers) {
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp, res.url).toContain("default-src 'self'");
      expect(csp).toContain("script-src 'self' 'wasm-unsafe-eval'");
      expect(csp).toContain("worker-src 'self' blob:");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("object-src 'none'");
      expect(csp).toContain("base-uri 'self'");
      expect(csp).toMatch(/connect-src 'self' https:\/\/tidewatch\.example wss:\/\/tidewatch\.example wss:\/\/broker\.example:9001/);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
      expect(res.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
    }
  });

  it('sends no HSTS when PUBLIC_URL is not https', async () => {
    const plain = await startTestServer(driver);
    try {
      const res = await fetch(`${plain.url}/api/health`);
      expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
      expect(res.headers.get('strict-transport-security')).toBeNull();
    } finally {
      await plain.close();
    }
  });

  it('takes CSP violation reports at /csp-report', async () => {
    const res = await fetch(`${s.url}/csp-report`, { method: 'POST', headers: { 'content-type': 'application/csp-report' }, body: '{"csp-report":{}}' });
    expect(res.status).toBe(202);
  });
});

describe.each(testDrivers)('/csp-report takes a few reports of a few KiB on %s (issue 35)', (driver) => {
  let s: TestServer;
  let clock = Date.UTC(2026, 0, 5, 9);
  beforeAll(async () => {
    s = await startTestServer(driver, { TRUST_PROXY: '1' }, { now: () => clock });
  });
  afterAll(() => s?.close());
  const report = (from: string, body = '{"csp-report":{"blocked-uri":"inline"}}') =>
    fetch(`${s.url}/csp-report`, { method: 'POST', headers: { 'content-type': 'application/csp-report', 'x-forwarded-for': from }, body });

  it('refuses a body over 8 KiB with 413', async () => {
    const res = await report('198.51.100.1', JSON.stringify({ 'csp-report': { 'script-sample': 'x'.repeat(8 * 1024) } }));
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ code: 'PAYLOAD_TOO_LARGE', message: 'The request body is larger than 8 KiB.' });
    expect((await report('198.51.100.1', JSON.stringify({ 'csp-report': { 'script-sample': 'x'.repeat(7 * 1024) } }))).status).toBe(202);
  });

  it('answers 429 with Retry-After past 30 reports a minute from one address; other addresses, and the next minute, go on', async () => {
    for (let i = 0; i < 30; i++) expect((await report('203.0.113.9')).status, `report ${i + 1}`).toBe(202);
    const refused = await report('203.0.113.9');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('60');
    expect(await refused.json()).toEqual({ code: 'TOO_MANY_REQUESTS', message: 'Too many reports, please try again later' });
    expect((await report('203.0.113.10')).status).toBe(202);
    clock += 60_000;
    expect((await report('203.0.113.9')).status).toBe(202);
  });
});
