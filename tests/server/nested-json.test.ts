import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness';
import { ingestDeviceMessage } from '../../server/broker/device-ingest';

/**
 * Issue 35 (high): about 30 KB of nested arrays with a NUL or a lone-surrogate escape inside,
 * unauthenticated, answered 500 on /api (the recursive NUL check overflowed the stack) and on
 * /identity, each costing up to 1.5 s of CPU. Every JSON body past 64 levels is now a 400 before
 * anything parses or walks it. (How fast is not asserted here: that is the bench's business.)
 */
const nested = (depth: number, inner: string) => '['.repeat(depth) + inner + ']'.repeat(depth);
const PAYLOADS = {
  nul: nested(15_000, '"\\u0000"'),
  'lone surrogate': nested(15_000, '"\\ud800"'),
  'objects, no escape': '{"a":'.repeat(5_000) + '1' + '}'.repeat(5_000),
};

describe('deeply nested JSON is refused with 400 (issue 35)', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer('pglite');
  });
  afterAll(() => s?.close());

  const post = (path: string, body: string, headers: Record<string, string> = {}) =>
    fetch(`${s.url}${path}`, { method: 'POST', body, headers: { 'Content-Type': 'application/json', ...headers } });

  it.each(Object.entries(PAYLOADS))('/api, unauthenticated and signed-up routes alike: %s', async (_name, body) => {
    expect(body.length).toBeLessThan(64 * 1024);
    for (const path of ['/api/signup', '/api/organisations', '/api/no-such-route']) {
      const res = await post(path, body);
      expect(res.status, path).toBe(400);
      expect(await res.json(), path).toEqual({ code: 'INVALID_JSON', message: 'The JSON body is nested deeper than 64 levels.' });
    }
  });

  it.each(Object.entries(PAYLOADS))('/identity, in Cognito’s shape: %s', async (_name, body) => {
    for (const target of ['InitiateAuth', 'SignUp', 'ForgotPassword']) {
      const res = await post('/identity/', body, { 'X-Amz-Target': `AWSCognitoIdentityProviderService.${target}`, 'Content-Type': 'application/x-amz-json-1.1' });
      expect(res.status, target).toBe(400);
      expect(await res.json(), target).toEqual({ __type: 'InvalidParameterException', message: 'The JSON body is nested deeper than 64 levels.' });
    }
  });

  it('device uplinks over HTTP (the direct listener and the app route) and over MQTT', async () => {
    const body = PAYLOADS.nul;
    const direct = await post('/ingest/uplink', body, { 'X-Device-Key': 'k' });
    expect(direct.status).toBe(400);
    expect(await direct.json()).toEqual({ code: 'INVALID_JSON', message: 'The JSON body is nested deeper than 64 levels.' });
    // chunked (no Content-Length) goes through the app instead of the direct listener
    const stream = new Blob([body]).stream();
    const chunked = await fetch(`${s.url}/ingest/uplink`, { method: 'POST', body: stream, duplex: 'half', headers: { 'Content-Type': 'application/json' } } as RequestInit);
    expect(chunked.status).toBe(400);
    expect(((await chunked.json()) as { message: string }).message).toBe('The JSON body is nested deeper than 64 levels.');
    const mqtt = await ingestDeviceMessage(s.ctx, 'DEADBEEF', Buffer.from(body), {});
    expect(mqtt).toMatchObject({ ok: false, permanent: true, code: 'INVALID_JSON', message: 'The JSON body is nested deeper than 64 levels.' });
  });

  it('64 levels still reach the handler, and the server stays healthy', async () => {
    const res = await post('/api/signup', nested(64, '1'));
    expect(res.status).toBe(400);
    expect(((await res.json()) as { code: string }).code).toBe('INVALID_REQUEST'); // the schema's refusal, not the depth's
    expect((await fetch(`${s.url}/api/health`)).status).toBe(200);
  });
});
