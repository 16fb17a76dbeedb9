import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { launchBrowser, signIn } from './browser';
import { startOwnDemoServer } from './session';
import type { TestServer } from '../server/harness';
import { writeSelfSignedCert } from '../server/tls-cert';
import { demoDeviceKey } from '../../server/seed/device-keys';

const SERIAL = '1A2B3C4D'; // Main Reservoir, the demo's 1-minute sensor

/**
 * The product served over HTTPS by its own certificate (TLS_CERT_FILE, TLS_KEY_FILE,
 * docs/deployment.md): a browser signs in through the real form (aws-amplify against the identity
 * endpoint over HTTP/2), the pages and their chunks come over HTTP/2, and live mode's MQTT runs over
 * wss:// on the same port (a WebSocket is an HTTP/1.1 upgrade) and receives a device's uplink.
 */
describe('the product over HTTPS from its own certificate: HTTP/2 pages, sign-in, live over wss://', () => {
  let dir: string;
  let cert: string;
  let s: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tw-e2e-tls-'));
    const pems = await writeSelfSignedCert(dir);
    cert = pems.cert;
    s = await startOwnDemoServer({ TLS_CERT_FILE: pems.certFile, TLS_KEY_FILE: pems.keyFile });
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await s?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('signs in, draws a dashboard whose page and scripts came over HTTP/2, and shows a live uplink that came over wss://', { timeout: 90_000 }, async () => {
    expect(s.url).toMatch(/^https:/);
    // the browser is told to accept the test's self-signed certificate; a deployment's is trusted
    const context = await browser.newContext({ ignoreHTTPSErrors: true, viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    await signIn(page, s.url, 'owner@demo.test');
    // every MQTT frame the page receives, over the one WebSocket live mode opens
    const frames: string[] = [];
    const sockets: string[] = [];
    page.on('websocket', (ws) => {
      sockets.push(ws.url());
      ws.on('framereceived', ({ payload }) => frames.push(Buffer.isBuffer(payload) ? payload.toString('latin1') : payload));
    });
    await page.goto(`${s.url}/org/riverbend-water/sensors/${SERIAL}`);
    const pane = page.getByTestId('chart-pane');
    await pane.waitFor();
    const protocols = await page.evaluate(() => ({
      page: (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).nextHopProtocol,
      scripts: [...new Set(performance.getEntriesByType('resource').filter((e) => (e as PerformanceResourceTiming).initiatorType === 'script' || e.name.endsWith('.js')).map((e) => (e as PerformanceResourceTiming).nextHopProtocol))],
    }));
    expect(protocols).toEqual({ page: 'h2', scripts: ['h2'] });

    await page.getByLabel('View mode').getByText('Live Mode').click();
    await expect.poll(() => pane.getAttribute('data-view-mode'), { timeout: 30_000 }).toBe('live');
    await expect.poll(() => pane.getAttribute('data-status'), { timeout: 30_000 }).toBe('ready');
    expect(sockets.some((u) => u.startsWith('wss://') && u.endsWith('/mqtt'))).toBe(true);
    // a device's uplink over HTTPS (HTTP/1.1, as a device's stack sends it) reaches the open page
    // after the demo's own point of this minute (a second point at the same time is a duplicate, dropped)
    const time = Math.floor(Date.now() / 1000) * 1000;
    const body = JSON.stringify({ serial: SERIAL, measurements: [{ time, rawDistance: 1777 }] });
    const key = await demoDeviceKey(s.ctx, SERIAL);
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(`${s.url}/ingest/uplink`, { method: 'POST', ca: cert, headers: { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)), 'X-Device-Key': key } }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', reject);
      req.end(body);
    });
    expect(status).toBe(200);
    await expect.poll(() => frames.some((f) => f.includes(`"serial":"${SERIAL}"`) && f.includes('"rawDistance":1777')), { timeout: 20_000 }).toBe(true);
    await context.close();
  });
});
