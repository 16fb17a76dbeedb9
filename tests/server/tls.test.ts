import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:https';
import { connect, constants, type ClientHttp2Session } from 'node:http2';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../../server/config';
import { startTestServer, type TestServer } from './harness';
import { addMember, makeOrg, makeSensor, makeUser } from './fixtures';
import { collect, connectWs } from './live-helpers';
import { writeSelfSignedCert } from './tls-cert';

/** One request over an HTTP/2 session: status, headers and body as text. */
function h2Get(session: ClientHttp2Session, path: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
    const req = session.request({ [constants.HTTP2_HEADER_PATH]: path, ...headers });
    let head: Record<string, string | string[] | undefined> = {};
    const chunks: Buffer[] = [];
    req.on('response', (h) => (head = h));
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve({ status: Number(head[':status']), headers: head, body: Buffer.concat(chunks) }));
    req.on('error', reject);
    req.end();
  });
}

/** An HTTP/2 session, once its TLS handshake (and ALPN's choice of protocol) is done. */
function h2Connect(url: string, ca: string) {
  return new Promise<ClientHttp2Session>((resolve, reject) => {
    const session = connect(url, { ca });
    session.once('connect', () => resolve(session));
    session.once('error', reject);
  });
}

/** Offers only HTTP/1.1 in the TLS handshake (ALPN), as a device's or an older client's stack does (a TLS option Node's https types leave out). */
const HTTP1_ONLY = { ALPNProtocols: ['http/1.1'] } as object;

/** One HTTP/1.1 request over TLS (Node's https), as a device or an older client sends it. */
function h1(url: string, ca: string, method = 'GET', headers: Record<string, string> = {}, body?: string) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string; alpn: string | false | null }>((resolve, reject) => {
    const req = request(url, { method, ca, headers, ...HTTP1_ONLY }, (res) => {
      let text = '';
      const alpn = (res.socket as import('node:tls').TLSSocket).alpnProtocol;
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text, alpn }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('HTTPS from the server itself (TLS_CERT_FILE and TLS_KEY_FILE): HTTP/2 for browsers, HTTP/1.1 for WebSockets and devices on the same port', () => {
  let dir: string;
  let cert: string;
  let s: TestServer;
  let org: { id: string };
  let user: { id: string };
  let sensor: Awaited<ReturnType<typeof makeSensor>>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tw-tls-'));
    const pems = await writeSelfSignedCert(dir);
    cert = pems.cert;
    if (!existsSync(join('dist', 'index.html'))) throw new Error('dist/ has no build: run `npm run build` first (npm test does)');
    s = await startTestServer('pglite', { TLS_CERT_FILE: pems.certFile, TLS_KEY_FILE: pems.keyFile });
    org = await makeOrg(s.ctx.db);
    user = await makeUser(s.ctx.db);
    await addMember(s.ctx.db, org.id, user.id, 1);
    sensor = await makeSensor(s.ctx.db, org.id);
  });
  afterAll(async () => {
    await s?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is reached at an https address, which the client configuration names for the API, the identity endpoint and live (wss)', async () => {
    expect(s.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const session = connect(s.url, { ca: cert });
    try {
      const res = await h2Get(session, '/config.json');
      expect(res.status).toBe(200);
      const config = JSON.parse(res.body.toString()) as { api: { endpoint: string }; auth: { userPoolEndpoint: string }; mqtt: { url: string } };
      expect(config.api.endpoint).toBe(`${s.url}/api`);
      expect(config.auth.userPoolEndpoint).toBe(`${s.url}/identity`);
      expect(config.mqtt.url).toBe(`${s.url.replace('https', 'wss')}/mqtt`);
    } finally {
      session.close();
    }
  });

  it('answers a browser over HTTP/2: the app page with HSTS, a hashed asset brotli-compressed and immutable, the signed API', async () => {
    const session = await h2Connect(s.url, cert);
    try {
      expect(session.alpnProtocol).toBe('h2');
      const page = await h2Get(session, '/org/some-org/sensors');
      expect(page.status).toBe(200);
      expect(page.headers['content-type']).toMatch(/text\/html/);
      // served over HTTPS by this server: browsers are told to stay on HTTPS
      expect(page.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
      const script = /src="(\/assets\/[^"]+\.js)"/.exec(page.body.toString())?.[1];
      expect(script).toBeDefined();
      const asset = await h2Get(session, script!, { 'accept-encoding': 'br, gzip' });
      expect(asset.status).toBe(200);
      expect(asset.headers['content-encoding']).toBe('br');
      expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      // many requests share the one connection: the point of HTTP/2 for a page of many chunks
      const answers = await Promise.all(Array.from({ length: 20 }, () => h2Get(session, `/api/organisations`, { authorization: '' })));
      expect(answers.every((a) => a.status === 401)).toBe(true);
      const token = await s.tokenFor(user.id);
      const orgs = await h2Get(session, '/api/organisations', { authorization: token });
      expect(orgs.status).toBe(200);
      expect((JSON.parse(orgs.body.toString()) as { organisations: { id: string }[] }).organisations.map((o) => o.id)).toContain(org.id);
    } finally {
      session.close();
    }
  });

  it('answers HTTP/1.1 on the same port, and a device uplink over it reaches a browser subscribed over wss:// (the WebSocket upgrade on /mqtt)', async () => {
    const page = await h1(`${s.url}/login`, cert);
    expect(page.alpn).toBe('http/1.1');
    expect(page.status).toBe(200);
    expect(page.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    const c = await connectWs(s, await s.tokenFor(user.id), { ca: cert });
    try {
      const inbox = collect(c);
      await c.subscribeAsync(`orgs/${org.id}/#`, { qos: 0 });
      const time = Math.floor(Date.now() / 60_000) * 60_000;
      const body = JSON.stringify({ serial: sensor.serial, measurements: [{ time, rawDistance: 1234 }] });
      const res = await h1(`${s.url}/ingest/uplink`, cert, 'POST', { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)), 'X-Device-Key': sensor.deviceKey }, body);
      expect(res.status).toBe(200);
      const m = await inbox.next((x) => x.topic === `orgs/${org.id}/sensors/${sensor.id}/measurements`);
      expect(m.body).toMatchObject({ serial: sensor.serial, measurements: [{ time, rawDistance: 1234 }] });
    } finally {
      await c.endAsync();
    }
  });

  it('refuses a client that does not trust the certificate (nothing is served in the clear)', async () => {
    await expect(h1(`${s.url}/login`, '')).rejects.toThrow(/self[- ]signed|unable to verify|certificate/i);
  });

  it('stops while a browser still holds an HTTP/2 session and a device an HTTP/1.1 keep-alive connection open', async () => {
    const dir2 = mkdtempSync(join(tmpdir(), 'tw-tls-'));
    const pems = await writeSelfSignedCert(dir2);
    const other = await startTestServer('pglite', { TLS_CERT_FILE: pems.certFile, TLS_KEY_FILE: pems.keyFile });
    const session = connect(other.url, { ca: pems.cert });
    session.on('error', () => {});
    const agent = new Agent({ keepAlive: true, ca: pems.cert });
    try {
      expect((await h2Get(session, '/config.json')).status).toBe(200);
      const kept = await new Promise<number>((resolve, reject) => request(`${other.url}/login`, { agent, ...HTTP1_ONLY }, (res) => (res.resume(), res.on('end', () => resolve(res.statusCode ?? 0)))).on('error', reject).end());
      expect(kept).toBe(200);
      const stopped = other.close().then(() => 'stopped');
      const raced = await Promise.race([stopped, new Promise((r) => setTimeout(() => r('still open after 5 s'), 5_000))]);
      expect(raced).toBe('stopped');
    } finally {
      session.destroy();
      agent.destroy();
      rmSync(dir2, { recursive: true, force: true });
    }
  });
});

describe('TLS settings are checked at start', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tw-tls-config-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('wants the certificate and the key together, each a readable PEM file', async () => {
    const { certFile, keyFile } = await writeSelfSignedCert(dir);
    expect(() => loadConfig({ TLS_CERT_FILE: certFile })).toThrow(ConfigError);
    expect(() => loadConfig({ TLS_CERT_FILE: certFile })).toThrow(/TLS_KEY_FILE: is required with TLS_CERT_FILE/);
    expect(() => loadConfig({ TLS_KEY_FILE: keyFile })).toThrow(/TLS_CERT_FILE: is required with TLS_KEY_FILE/);
    expect(() => loadConfig({ TLS_CERT_FILE: join(dir, 'missing.pem'), TLS_KEY_FILE: keyFile })).toThrow(/TLS_CERT_FILE: cannot be read \(ENOENT\)/);
    const der = join(dir, 'cert.der');
    writeFileSync(der, Buffer.from([0x30, 0x82, 0x01, 0x0a]));
    expect(() => loadConfig({ TLS_CERT_FILE: der, TLS_KEY_FILE: keyFile })).toThrow(/TLS_CERT_FILE: is not a PEM file/);
    expect(loadConfig({ TLS_CERT_FILE: certFile, TLS_KEY_FILE: keyFile })).toMatchObject({ TLS_CERT_FILE: certFile, TLS_KEY_FILE: keyFile });
  });
});
