import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { brotliCompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { startTestServer, type TestServer } from './harness';
import { addMember, makeOrg, makeSensor, makeUser } from './fixtures';
import { createApp } from '../../server/http/app';
import { IMMUTABLE, REVALIDATE } from '../../server/http/static-files';

const BOTH = { 'Accept-Encoding': 'br, gzip' };

/** The body as sent on the wire (fetch would decode it): undici decodes br and gzip, so ask Node's http. */
async function raw(url: string, headers: Record<string, string> = {}) {
  const { request } = await import('node:http');
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>((done, fail) => {
    request(url, { headers }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (d: Buffer) => parts.push(d));
      res.on('end', () => done({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts) }));
      res.on('error', fail);
    })
      .on('error', fail)
      .end();
  });
}

// issue 34: the build writes .br and .gz beside each file; the server picks by Accept-Encoding
describe('the built client (dist/): compressed, hashed assets immutable, index.html revalidated', () => {
  const dist = resolve('dist');
  let s: TestServer;
  beforeAll(async () => {
    if (!existsSync(join(dist, 'index.html'))) throw new Error('dist/ has no build: run `npm run build` first (npm test does)');
    s = await startTestServer('pglite', { STATIC_DIR: dist });
  });
  afterAll(() => s?.close());

  it('serves every hashed asset brotli-compressed (gzip when only that is accepted) with the immutable header and Vary', async () => {
    const assets = readdirSync(join(dist, 'assets')).filter((f) => !/\.(br|gz|map)$/.test(f));
    expect(assets.length).toBeGreaterThan(20);
    const scripts = assets.filter((f) => /\.(js|mjs|css|wasm)$/.test(f) && statSync(join(dist, 'assets', f)).size > 1024);
    expect(scripts.length).toBeGreaterThan(10);
    for (const f of assets) {
      const original = readFileSync(join(dist, 'assets', f));
      const big = original.length > 1024;
      const br = await raw(`${s.url}/assets/${f}`, BOTH);
      expect(br.status, f).toBe(200);
      expect(br.headers['cache-control'], f).toBe(IMMUTABLE);
      if (big) {
        // anything worth compressing is: the build must have written its .br and .gz
        expect(br.headers['content-encoding'], f).toBe('br');
        expect(br.headers.vary, f).toMatch(/accept-encoding/i);
        expect(br.body.length, f).toBeLessThan(original.length);
        const gz = await raw(`${s.url}/assets/${f}`, { 'Accept-Encoding': 'gzip' });
        expect(gz.headers['content-encoding'], f).toBe('gzip');
        expect(gz.headers['cache-control'], f).toBe(IMMUTABLE);
        // and fetch decodes both to the file itself
        expect(Buffer.from(await (await fetch(`${s.url}/assets/${f}`, { headers: BOTH })).arrayBuffer()).equals(original), f).toBe(true);
      }
    }
    // a browser that accepts neither gets the file itself, still marked as varying
    const plain = await raw(`${s.url}/assets/${scripts[0]}`);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toMatch(/accept-encoding/i);
    expect(plain.body.equals(readFileSync(join(dist, 'assets', scripts[0]!)))).toBe(true);
  });

  it('serves index.html (at /, by name and as every client route) compressed but revalidated, never immutable', async () => {
    for (const path of ['/', '/index.html', '/login', '/org/some-org/sensors/ABC123']) {
      const res = await raw(`${s.url}${path}`, BOTH);
      expect(res.status, path).toBe(200);
      expect(res.headers['content-type'], path).toMatch(/^text\/html/);
      expect(res.headers['cache-control'], path).toBe(REVALIDATE);
      expect(res.headers['content-encoding'], path).toBe('br');
      expect(res.headers['content-security-policy'], path).toContain("default-src 'self'");
    }
  });

  it('preloads /config.json from index.html, before the chunks, and serves it revalidated (the client reads it with the default cache mode)', async () => {
    const html = readFileSync(join(dist, 'index.html'), 'utf8');
    const preload = html.indexOf('<link rel="preload" href="/config.json" as="fetch" crossorigin="anonymous"');
    expect(preload).toBeGreaterThan(0);
    expect(preload).toBeLessThan(html.indexOf('<script type="module"'));
    // the classic script every module needs first, asked for before the chunks too
    expect(html.indexOf('<script defer src="/zod-jitless.js"></script>')).toBeGreaterThan(0);
    expect(html.indexOf('<script defer src="/zod-jitless.js"></script>')).toBeLessThan(html.indexOf('<script type="module"'));
    const res = await fetch(`${s.url}/config.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe(REVALIDATE);
  });

  it('answers a missing /assets/ file 404, not with the app page under a year-long cache', async () => {
    const res = await fetch(`${s.url}/assets/index-00000000.js`, { headers: BOTH });
    expect(res.status).toBe(404);
    expect(res.headers.get('cache-control')).not.toBe(IMMUTABLE);
  });
});

describe('cache rules for what the build puts outside /assets/ (the reader app, its service worker)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tw-static-'));
  let s: TestServer;
  const put = (file: string, text: string) => {
    mkdirSync(join(dir, file, '..'), { recursive: true });
    writeFileSync(join(dir, file), text);
    writeFileSync(join(dir, `${file}.br`), brotliCompressSync(text));
    writeFileSync(join(dir, `${file}.gz`), gzipSync(text));
  };
  beforeAll(async () => {
    const filler = 'x'.repeat(4000);
    put('index.html', `<!doctype html><title>app</title>${filler}`);
    put('reader/index.html', `<!doctype html><title>reader</title>${filler}`);
    put('reader.html', `<!doctype html><title>reader entry</title>${filler}`);
    put('sw.js', `self.addEventListener('fetch', () => {}); // ${filler}`);
    put('reader/sw.js', `self.addEventListener('fetch', () => {}); // ${filler}`);
    put('manifest.webmanifest', JSON.stringify({ name: 'Reader', filler }));
    put('registerSW.js', `navigator.serviceWorker.register('/sw.js') // ${filler}`);
    put('assets/reader-Ab12Cd34.js', `console.log(1) // ${filler}`);
    put('assets/sw.js', `/* a worker script under assets is still revalidated */ ${filler}`);
    s = await startTestServer('pglite', { STATIC_DIR: dir });
  });
  afterAll(async () => {
    await s?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('revalidates service workers, the manifest and every page; hashed reader chunks are immutable', async () => {
    const expected: [string, string][] = [
      ['/sw.js', REVALIDATE],
      ['/reader/sw.js', REVALIDATE],
      ['/assets/sw.js', REVALIDATE],
      ['/registerSW.js', REVALIDATE],
      ['/manifest.webmanifest', REVALIDATE],
      ['/reader/', REVALIDATE],
      ['/reader/index.html', REVALIDATE],
      ['/assets/reader-Ab12Cd34.js', IMMUTABLE],
    ];
    for (const [path, cache] of expected) {
      const res = await raw(`${s.url}${path}`, BOTH);
      expect(res.status, path).toBe(200);
      expect(res.headers['cache-control'], path).toBe(cache);
      expect(res.headers['content-encoding'], path).toBe('br');
    }
  });

  // issue 33: the meter reader's app is the build's second entry, reader.html, for /reader and every path under it
  it('answers /reader and the paths under it that are not files with reader.html, revalidated; other paths with the app', async () => {
    for (const path of ['/reader/tasks/1042', '/reader/walk?q=1']) {
      const res = await fetch(`${s.url}${path}`);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('cache-control'), path).toBe(REVALIDATE);
      expect(await res.text(), path).toContain('<title>reader entry</title>');
    }
    for (const path of ['/readers', '/org/x/reader']) expect(await (await fetch(`${s.url}${path}`)).text(), path).toContain('<title>app</title>');
    expect((await fetch(`${s.url}/reader/sw.js`)).headers.get('content-type')).toMatch(/javascript/);
  });

  it('a file under /reader/ that is not there is a 404, not the reader page (a service worker precaching a wrong address fails to install)', async () => {
    for (const path of ['/reader/assets/reader-Ab12Cd34.js', '/reader/reader.html', '/reader/workbox-00000000.js']) {
      const res = await fetch(`${s.url}${path}`);
      expect(res.status, path).toBe(404);
      expect(await res.text(), path).not.toContain('<title>');
    }
  });
});

describe('API JSON compressed at level 1 (issue 34)', () => {
  let s: TestServer;
  let token: string;
  let path: string;
  beforeAll(async () => {
    s = await startTestServer('pglite');
    const org = await makeOrg(s.ctx.db);
    const u = await makeUser(s.ctx.db);
    await addMember(s.ctx.db, org.id, u.id, 1);
    token = await s.tokenFor(u.id);
    const sensor = await makeSensor(s.ctx.db, org.id);
    await s.ctx.db.query(
      `INSERT INTO measurements (sensor_id, time, raw_distance) SELECT $1, 1700000000000 + g::bigint * 60000, 1000 + g FROM generate_series(0, 499) g`,
      [sensor.id],
    );
    path = `/api/organisations/${org.id}/sensors/${sensor.id}/measurements`;
  });
  afterAll(() => s?.close());

  it('gzips JSON above 1 KiB at level 1 with Vary and keeps the security headers; small answers go as they are', async () => {
    const big = await raw(`${s.url}/api/openapi.json`, { 'Accept-Encoding': 'gzip, deflate, br' });
    expect(big.status).toBe(200);
    expect(big.headers['content-encoding']).toBe('gzip');
    // zlib's level 1 (a large list is compressed in a third of the default's time): gzip's header says 'fastest' (XFL 4)
    expect(big.body[8]).toBe(4);
    expect(JSON.parse(gunzipSync(big.body).toString())).toHaveProperty('openapi');
    expect(big.headers.vary).toMatch(/accept-encoding/i);
    expect(big.headers['content-security-policy']).toContain("default-src 'self'");
    expect(big.headers['x-content-type-options']).toBe('nosniff');
    const decoded = await (await fetch(`${s.url}/api/openapi.json`)).json();
    expect(decoded).toHaveProperty('openapi');
    const small = await raw(`${s.url}/api/health`, { 'Accept-Encoding': 'gzip' });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(small.body.toString()).status).toBeDefined();
  });

  it('leaves measurement pages uncompressed on both listeners, the same bytes either way', async () => {
    const headers = { Authorization: token, 'Accept-Encoding': 'gzip' };
    // the plain query goes to the direct listener (measurements-http.ts)
    const direct = await raw(`${s.url}${path}?startTime=1700000000000&endTime=1800000000000&limit=500`, headers);
    // the app's own route, as when the direct listener hands a request back
    const viaApp = await createApp(s.ctx).request(`${path}?startTime=1700000000000&endTime=1800000000000&limit=500`, { headers });
    expect(direct.status).toBe(200);
    expect(viaApp.status).toBe(200);
    expect(direct.body.length).toBeGreaterThan(10_000);
    expect(direct.headers['content-encoding']).toBeUndefined();
    expect(viaApp.headers.get('content-encoding')).toBeNull();
    expect(Buffer.from(await viaApp.arrayBuffer()).equals(direct.body)).toBe(true);
  });
});
