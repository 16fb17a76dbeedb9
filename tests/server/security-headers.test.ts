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
