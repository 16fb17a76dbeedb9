import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startOwnDemoServer, useBrowser } from './session';
import type { TestServer } from '../server/harness';
import { sendUplink } from '../server/live-helpers';
import { fleetSerial, seedFleet } from '../../server/cli/seed-fleet';
import { demoDeviceKey } from '../../server/seed/device-keys';
import { NOTIFICATION_LIMIT } from '../../server/gateway/notifications.routes';

const SHOTS = 'test-results/e2e';
const ORG = '/org/riverbend-water';
const FLEET = 2_000;
const DEMO_SENSORS = 10;
/** The list's row height in CSS pixels (src/features/sensors/sensor-list.tsx). */
const ROW_HEIGHT = 60;
/**
 * Fleet sensor 1103 (F000044F, 'Blenheim Diesel Tank 1103') is in alert: its open threshold alarm
 * started 47 hours ago, the oldest of the fleet's open notifications (npm run seed:fleet), so
 * more than 200 of the organisation's notifications are newer.
 */
const ALERTED = { serial: fleetSerial(1103), name: 'Blenheim Diesel Tank 1103' };

describe('a fleet of 2,000 sensors in the browser: the virtualised list, search, live rows, a sensor\'s alerts, notification filters (issue 32)', () => {
  let s: TestServer;
  let orgId: string;
  beforeAll(async () => {
    s = await startOwnDemoServer();
    ({ orgId } = await seedFleet(s.ctx.db, { sensors: FLEET, notifications: 2_000 }));
  }, 120_000);
  afterAll(() => s?.close());
  // after the server's afterAll: hooks run last first, so the browser closes before the server
  const b = useBrowser({ shots: SHOTS, hookTimeout: 120_000 });

  const list = (page: Page) => page.getByRole('list', { name: 'Sensors' });
  const rows = (page: Page) => list(page).getByRole('listitem');
  const setSize = async (page: Page) => Number(await rows(page).first().getAttribute('aria-setsize'));

  it('draws only the rows on screen, finds a sensor by name, and a live uplink reaches a visible row deep in the list', { timeout: 60_000 }, async () => {
    const page = await b.signedIn(s.url, 'owner@demo.test', { path: `${ORG}/sensors`, timeout: 30_000 });
    await list(page).locator('[data-serial]').first().waitFor();
    expect(await setSize(page)).toBe(FLEET + DEMO_SENSORS);
    const onScreen = Math.ceil(900 / ROW_HEIGHT);
    await expect.poll(() => rows(page).count()).toBeLessThan(onScreen + 40);

    // half way down: the rows there are drawn, still only a screenful and the overscan
    const middle = 1_000;
    await list(page).evaluate((el, top) => el.parentElement!.scrollTo(0, top), middle * ROW_HEIGHT);
    const row = list(page).locator(`[aria-posinset="${middle + 3}"][data-serial]`);
    await row.waitFor();
    expect(await rows(page).count()).toBeLessThan(onScreen + 40);
    const serial = (await row.getAttribute('data-serial'))!;
    const { offset } = (await s.ctx.db.query<{ offset: number }>(`SELECT (display_info->>'offsetMeasurement')::float8 AS offset FROM sensors WHERE serial = $1`, [serial]))[0];
    await page.waitForTimeout(1_500); // the organisation's live subscription settles
    // the uplink reaches the list through the data worker's own connection: the page's main thread
    // (its target's WebSocket frames, which do not include the worker's) does not see it
    const cdp = await page.context().newCDPSession(page);
    const pageFrames: string[] = [];
    // MQTT packets are binary frames, which CDP gives in base64
    cdp.on('Network.webSocketFrameReceived', (e: { response: { opcode: number; payloadData: string } }) =>
      pageFrames.push(e.response.opcode === 2 ? Buffer.from(e.response.payloadData, 'base64').toString('latin1') : e.response.payloadData),
    );
    await cdp.send('Network.enable');
    const sent = Date.now();
    const res = await sendUplink(s, await demoDeviceKey(s.ctx, serial), { serial, measurements: [{ time: Date.now(), rawDistance: offset - 1234 }] });
    expect(res.status, await res.clone().text()).toBe(200);
    await expect.poll(() => list(page).locator(`[data-serial="${serial}"]`).textContent()).toContain('1.234 m');
    console.log(`fleet e2e: live uplink to the visible row ${serial} in ${Date.now() - sent} ms; page frames ${pageFrames.length}`);
    expect(pageFrames.filter((f) => f.includes(serial))).toEqual([]);
    // the open sensor's uplink reaches its dashboard too (the worker's feed watches it for the page)
    const open = new URL(page.url()).pathname.split('/').pop()!;
    const openOffset = (await s.ctx.db.query<{ offset: number }>(`SELECT (display_info->>'offsetMeasurement')::float8 AS offset FROM sensors WHERE serial = $1`, [open]))[0]!.offset;
    expect((await sendUplink(s, await demoDeviceKey(s.ctx, open), { serial: open, measurements: [{ time: Date.now(), rawDistance: openOffset - 1111 }] })).status).toBe(200);
    await expect.poll(() => page.getByTestId('latest-level').textContent()).toContain('1.111');
    expect(pageFrames.filter((f) => f.includes(open))).toEqual([]);
    // and live mode, the page's own connection, whose MQTT client is a worker of its own too
    // (src/shared/live-link.ts): its frames are there to be seen on that worker's socket (which
    // Playwright reports with the page's), and still none on the page's main thread
    const linkFrames: string[] = [];
    page.on('websocket', (ws) => ws.on('framereceived', ({ payload }) => linkFrames.push(Buffer.isBuffer(payload) ? payload.toString('latin1') : payload)));
    await page.getByLabel('View mode').getByText('Live Mode').click();
    await page.waitForTimeout(1_500); // live mode's subscription settles
    expect((await sendUplink(s, await demoDeviceKey(s.ctx, open), { serial: open, measurements: [{ time: Date.now(), rawDistance: openOffset - 1222 }] })).status).toBe(200);
    await expect.poll(() => linkFrames.some((f) => f.includes(open)), { timeout: 15_000 }).toBe(true);
    expect(pageFrames.filter((f) => f.includes(open))).toEqual([]);
    await page.getByLabel('View mode').getByText('Normal Mode').click();
    await cdp.detach();

    const search = page.getByLabel('Search sensors');
    await search.fill(ALERTED.name.toLowerCase());
    await expect.poll(() => list(page).locator('[aria-posinset="1"]').getAttribute('data-serial')).toBe(ALERTED.serial);
    const found = await setSize(page);
    expect(found).toBeLessThan(100); // its neighbours in the numbering are within the spec's fuzzy threshold
    expect(await rows(page).count()).toBeLessThanOrEqual(Math.min(found, onScreen + 40));
    await page.screenshot({ path: `${SHOTS}/fleet-search-1280.png` });
    await search.fill('   ');
    await expect.poll(() => setSize(page)).toBe(FLEET + DEMO_SENSORS);
    await page.close();
  });

  it('a sensor opened by its link deep in the list is scrolled into view; the bare route\'s first sensor needs no scroll', { timeout: 60_000 }, async () => {
    const page = await b.signedIn(s.url, 'owner@demo.test', { path: `${ORG}/sensors/${ALERTED.serial}`, timeout: 30_000 });
    const current = list(page).locator(`[data-serial="${ALERTED.serial}"][aria-current="page"]`);
    await current.waitFor();
    const position = Number(await current.getAttribute('aria-posinset'));
    expect(position).toBeGreaterThan(Math.ceil(900 / ROW_HEIGHT));
    const viewport = list(page).locator('xpath=..');
    const [box, view] = [await current.boundingBox(), await viewport.boundingBox()];
    expect(box!.y).toBeGreaterThanOrEqual(view!.y - 1);
    expect(box!.y + box!.height).toBeLessThanOrEqual(view!.y + view!.height + 1);

    await page.goto(`${s.url}${ORG}/sensors`);
    await list(page).locator('[data-serial][aria-current="page"]').waitFor();
    await page.waitForTimeout(500);
    expect(await viewport.evaluate((el) => el.scrollTop)).toBe(0);
    await expect.poll(() => list(page).locator('[aria-current="page"]').getAttribute('aria-posinset')).toBe('1');
  });

  it('the map draws the first page of sensors while the whole list loads and says how many are in', { timeout: 120_000 }, async () => {
    // the page talks to the server through a proxy that holds the whole list (the data worker's
    // request without a limit) until released, as a slow list would be
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const target = new URL(s.url);
    const proxy = createServer((req, res) => {
      const url = new URL(req.url!, s.url);
      const wait = url.pathname.endsWith('/sensors') && url.search === '?view=summary' ? held : Promise.resolve();
      void wait.then(() => {
        const up = request({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers }, (r) => {
          res.writeHead(r.statusCode!, r.headers);
          r.pipe(res);
        });
        up.on('error', () => res.destroy());
        req.pipe(up);
      });
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    try {
      const page = await b.signedIn(base, 'owner@demo.test', { width: 1280, height: 800, timeout: 30_000 });
      // deck.gl's instanced draws (MapLibre draws nothing instanced): the largest instance count so far
      await page.addInitScript(() => {
        const w = window as unknown as { drawn: number };
        w.drawn = 0;
        const gl = WebGL2RenderingContext.prototype as unknown as Record<string, (...a: number[]) => void>;
        for (const m of ['drawArraysInstanced', 'drawElementsInstanced']) {
          const f = gl[m]!;
          gl[m] = function (this: unknown, ...a: number[]) {
            w.drawn = Math.max(w.drawn, a[a.length - 1]!);
            return f.apply(this, a);
          };
        }
      });
      await page.goto(`${base}${ORG}/map`);
      const loading = page.getByTestId('map-loading');
      await expect.poll(() => loading.textContent(), { timeout: 30_000 }).toMatch(/Loading sensors: 100 of 2,010 so far/);
      await expect.poll(() => page.evaluate(() => (window as unknown as { drawn: number }).drawn), { timeout: 30_000 }).toBeGreaterThan(0);
      release();
      // the whole list in: the status goes, and the map still draws sensors
      await loading.waitFor({ state: 'detached' });
      expect(await page.evaluate(() => (window as unknown as { drawn: number }).drawn)).toBeGreaterThan(0);
      await page.close();
    } finally {
      release();
      proxy.closeAllConnections();
      await new Promise((r) => proxy.close(r));
    }
  });

  it("the minute's refresh reads only what changed since the list was read, and a change made with no live message reaches the list", { timeout: 60_000 }, async () => {
    // the fleet as if written an hour ago (it was seeded seconds ago, within the refresh's overlap); triggers off for it
    await s.ctx.db.tx(async (q) => {
      await q.query(`SET LOCAL session_replication_role = replica`);
      await q.query(`UPDATE sensors SET changed_at = changed_at - 3600000 WHERE org_id = $1`, [orgId]);
    });
    const page = await b.signedIn(s.url, 'owner@demo.test', { timeout: 30_000 });
    // the page's clock, so the minute's refresh (SENSORS_REFRESH_MS) comes when the test says
    await page.clock.install();
    await page.goto(`${s.url}${ORG}/sensors`);
    await list(page).locator('[aria-posinset="3"][data-serial]').waitFor();
    const serial = (await list(page).locator('[aria-posinset="3"]').getAttribute('data-serial'))!;
    // written to the database alone: no live message tells the page
    await s.ctx.db.query(`UPDATE sensors SET name = 'Aaa renamed out of band' WHERE serial = $1`, [serial]);
    const refreshed = page.waitForResponse((r) => r.url().includes('/sensors?view=summary&since='));
    await page.clock.fastForward(60_000);
    const body = (await (await refreshed).json()) as { rows: unknown[][]; removed: string[] };
    // the changes since the read, not the fleet: the renamed sensor and at most what else changed in the overlap
    expect(body.rows.map((r) => r[1])).toContain(serial);
    expect(body.rows.length).toBeLessThan(FLEET / 10);
    await expect.poll(() => list(page).locator('[aria-posinset="1"]').getAttribute('data-serial')).toBe(serial);
    expect(await list(page).locator('[aria-posinset="1"]').textContent()).toContain('Aaa renamed out of band');
    expect(await setSize(page)).toBe(FLEET + DEMO_SENSORS);
    await page.close();
  });

  it("the dashboard shows a sensor's open alarm however many newer notifications the organisation has", { timeout: 60_000 }, async () => {
    // the precondition: the organisation's spec list (the newest 200) does not hold the alarm
    const newer = await s.ctx.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM notifications n, (SELECT o.start_time FROM notifications o JOIN sensors x ON x.id = o.sensor_id
         WHERE x.serial = $2 AND o.type = 'THRESHOLD_ALARM' AND o.end_time IS NULL) a WHERE n.org_id = $1 AND n.start_time > a.start_time`,
      [orgId, ALERTED.serial],
    );
    expect(newer[0].n).toBeGreaterThan(NOTIFICATION_LIMIT);
    const page = await b.signedIn(s.url, 'member@demo.test', { path: `${ORG}/sensors/${ALERTED.serial}`, timeout: 30_000 });
    await page.getByRole('heading', { name: ALERTED.name }).waitFor();
    const alerts = page.getByRole('region', { name: 'Status alerts' });
    await expect.poll(() => alerts.textContent()).toMatch(/^Threshold alarm.*Since .*\(2 days ago\)$/);
    await page.close();
  });

  it('filters the notifications by type, state and a sensor searched in the fleet', { timeout: 60_000 }, async () => {
    const page = await b.signedIn(s.url, 'owner@demo.test', { path: `${ORG}/notifications`, timeout: 30_000 });
    const cards = page.getByRole('article');
    await cards.first().waitFor();
    const read = () => cards.evaluateAll((els) => els.map((e) => `${e.getAttribute('aria-label')}|${e.getAttribute('data-badge')}`));
    await page.getByRole('combobox', { name: 'Type' }).click();
    await page.getByRole('option', { name: 'Threshold alarm' }).click();
    await page.getByRole('combobox', { name: 'State' }).click();
    await page.getByRole('option', { name: 'Open', exact: true }).click();
    await page.waitForURL(/type=THRESHOLD_ALARM&state=open/);
    await expect.poll(async () => new Set(await read())).toEqual(new Set(['Threshold alarm|ACTIVE']));
    expect(await cards.count()).toBeGreaterThan(20);
    const sensor = page.getByRole('combobox', { name: 'Sensor' });
    await sensor.click();
    await sensor.fill(ALERTED.name.toLowerCase());
    await page.getByRole('option', { name: `${ALERTED.name} · ${ALERTED.serial}` }).click();
    await page.waitForURL(/sensor=/);
    await expect.poll(read).toEqual(['Threshold alarm|ACTIVE']);
    await expect(cards.first().textContent()).resolves.toContain(`${ALERTED.name} · ${ALERTED.serial}`);
    await page.close();
  });
});
