import { connect } from 'node:net';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, testDrivers, type TestServer } from './harness';
import { makeUser } from './fixtures';
import { bodyLimits, KiB, MiB, routeBodyLimit } from '../../server/http/body-limit';

const big = (bytes: number) => JSON.stringify({ name: 'x'.repeat(bytes) });

/** Sends a body declared as `declared` bytes and keeps writing; resolves with what the server answered and how much it took. */
function floodUpload(url: string, path: string, declared: number): Promise<{ head: string; written: number }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const chunk = Buffer.alloc(64 * KiB, 0x61);
    let written = 0;
    let head = '';
    const pump = () => {
      while (written < declared && !socket.destroyed) {
        written += chunk.length;
        if (!socket.write(chunk)) return void socket.once('drain', pump);
      }
    };
    socket.on('connect', () => {
      socket.write(`POST ${path} HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: application/json\r\nContent-Length: ${declared}\r\n\r\n`);
      pump();
    });
    socket.on('data', (d) => (head += d.toString('latin1')));
    socket.on('error', () => {}); // the server closing mid-upload is the expected end
    socket.on('close', () => resolve({ head, written }));
    setTimeout(() => reject(new Error(`still open after ${written} bytes`)), 20_000).unref();
  });
}

describe.each(testDrivers)('request limits and JSON fallbacks on %s (issue 9)', (driver) => {
  let s: TestServer;
  let token: string;

  beforeAll(async () => {
    s = await startTestServer(driver);
    token = await s.tokenFor((await makeUser(s.ctx.db)).id);
  });
  afterAll(() => s?.close());

  it('refuses a JSON body over 64 KiB with 413, signed in or not, on /api, /identity and /ingest', async () => {
    const body = big(70 * KiB);
    const signup = await fetch(`${s.url}/api/signup`, { method: 'POST', body, headers: { 'Content-Type': 'application/json' } });
    expect(signup.status).toBe(413);
    expect(await signup.json()).toEqual({ code: 'PAYLOAD_TOO_LARGE', message: 'The request body is larger than 64 KiB.' });
    const patch = await s.api('/create-self', { method: 'POST', token, body, headers: { 'Content-Type': 'application/json' } });
    expect(patch.status).toBe(413);
    const identity = await fetch(`${s.url}/identity/`, { method: 'POST', body, headers: { 'X-Amz-Target': 'AWSCognitoIdentityProviderService.SignUp' } });
    expect(identity.status).toBe(413);
    expect(await identity.json()).toMatchObject({ __type: 'InvalidParameterException' });
    const ingest = await fetch(`${s.url}/ingest/uplink`, { method: 'POST', body, headers: { 'Content-Type': 'application/json' } });
    expect(ingest.status).toBe(413);
    // just under the limit is read and judged on its content
    expect((await fetch(`${s.url}/api/signup`, { method: 'POST', body: big(60 * KiB), headers: { 'Content-Type': 'application/json' } })).status).toBe(400);
  });

  it('counts a body sent without Content-Length (chunked) and stops it at the limit', async () => {
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= 10 * MiB) return controller.close();
        sent += 16 * KiB;
        controller.enqueue(new Uint8Array(16 * KiB).fill(0x61));
      },
    });
    const res = await fetch(`${s.url}/api/signup`, { method: 'POST', body: stream, duplex: 'half', headers: { 'Content-Type': 'application/json' } } as RequestInit);
    expect(res.status).toBe(413);
    expect(sent).toBeLessThan(10 * MiB);
  });

  it('answers a declared 100 MB upload at once and closes the connection instead of reading it', async () => {
    const { head, written } = await floodUpload(s.url, '/api/signup', 100 * MiB);
    expect(head).toMatch(/^HTTP\/1\.1 413/);
    expect(head.toLowerCase()).toContain('connection: close');
    console.log(`413 after ${(written / MiB).toFixed(1)} MiB written of a declared 100 MiB`);
    expect(written).toBeLessThan(20 * MiB);
  });

  it('answers unknown /api paths with JSON 404 and known paths with the wrong method with 405', async () => {
    const unknown = await s.api('/no-such-thing', { token });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ code: 'NOT_FOUND', message: 'No route GET /api/no-such-thing' });
    const wrong = await s.api('/organisations', { method: 'DELETE', token });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('GET');
    expect(await wrong.json()).toMatchObject({ code: 'METHOD_NOT_ALLOWED' });
    const identity = await fetch(`${s.url}/identity/`);
    expect(identity.status).toBe(405);
    expect(await identity.json()).toMatchObject({ __type: 'MethodNotAllowedException' });
    const ingest = await fetch(`${s.url}/ingest/uplink`);
    expect(ingest.status).toBe(405);
    expect(ingest.headers.get('allow')).toBe('POST');
    const elsewhere = await fetch(`${s.url}/ingest/nothing`, { method: 'POST' });
    expect(elsewhere.status).toBe(404);
    // unsigned, an unknown gateway path tells nothing about which routes exist
    expect((await s.api('/no-such-thing', { token: null })).status).toBe(401);
  });
});

describe('a route can name its own body limit (e.g. an import)', () => {
  const app = new Hono();
  app.use('*', bodyLimits(1 * KiB));
  app.post('/import', routeBodyLimit(4 * KiB), async (c) => c.json({ bytes: (await c.req.text()).length }));
  app.post('/form', async (c) => c.json({ bytes: (await c.req.text()).length }));

  it('takes up to its own limit there and the default elsewhere', async () => {
    const body = 'x'.repeat(3 * KiB);
    expect((await app.request('/import', { method: 'POST', body })).status).toBe(200);
    expect((await app.request('/form', { method: 'POST', body })).status).toBe(413);
    expect((await app.request('/import', { method: 'POST', body: 'x'.repeat(5 * KiB) })).status).toBe(413);
    expect((await app.request('/form', { method: 'POST', body: 'x'.repeat(KiB) })).status).toBe(200);
  });
});
