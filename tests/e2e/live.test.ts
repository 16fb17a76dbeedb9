import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, signIn } from './browser';

// Main Reservoir (1A2B3C4D) transmits every 10 minutes of simulated time; the e2e server runs the
// simulator at E2E_SIMULATOR_SPEED, so the wait for its next uplink is 10 min / speed.
const speed = Number(process.env.E2E_SIMULATOR_SPEED ?? 60); // global-setup's default
const waitMs = (10 * 60_000) / speed + 30_000;

describe.skipIf(waitMs > 100_000)('live mode on the chart (monitoring-client.md 4: switching to live triggers a live load; DESIGN.md Live data)', () => {
  let browser: Browser;
  const baseUrl = inject('baseUrl');
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser?.close());

  it('draws a point from the simulator without a reload', { timeout: waitMs + 120_000 }, async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    await signIn(page, baseUrl, 'owner@demo.test');
    // the next simulator point for Main Reservoir, as the browser's MQTT connection receives it
    // only a point that arrives once the status recorder below is in place counts: one that came while
    // live mode was loading was drawn before anything watched (the next comes 10 min / speed later)
    let armed = false;
    const pointArrived = new Promise<{ measurements: unknown[] }>((resolve) => {
      page.on('websocket', (ws) => {
        if (!ws.url().endsWith('/mqtt')) return;
        ws.on('framereceived', ({ payload }) => {
          if (!armed) return;
          const text = Buffer.isBuffer(payload) ? payload.toString('latin1') : payload;
          const json = text.slice(text.indexOf('{"sensorId"'));
          if (!json.includes('"serial":"1A2B3C4D"')) return;
          try {
            const msg = JSON.parse(Buffer.from(json, 'latin1').toString('utf8')) as { measurements: unknown[] };
            if (msg.measurements.length) resolve(msg);
          } catch {
            /* not one whole message in this frame */
          }
        });
      });
    });
    // listening before the page opens its MQTT connection (goto returns once the page has settled)
    await page.goto(`${baseUrl}/org/riverbend-water/sensors/1A2B3C4D`);
    const pane = page.getByTestId('chart-pane');
    await pane.waitFor({ timeout: 60_000 });
    await page.getByLabel('View mode').getByText('Live Mode').click();
    await expect.poll(() => pane.getAttribute('data-view-mode'), { timeout: 30_000 }).toBe('live');
    // the hour fitted to its own data, not the display range's flat line (issue 36 item 11); the toggle stays
    await expect(page.getByRole('button', { name: 'Y-axis zoom' }).getAttribute('aria-pressed')).resolves.toBe('true');
    await expect.poll(() => pane.getAttribute('data-status'), { timeout: 60_000 }).toBe('ready');
    // from here on: every status the chart passes through, and a marker proving no reload
    await page.evaluate(() => {
      const w = window as unknown as { liveMarker: number; chartStatuses: string[] };
      w.liveMarker = 42;
      w.chartStatuses = [];
      const el = document.querySelector('[data-testid="chart-pane"]')!;
      new MutationObserver(() => w.chartStatuses.push(el.getAttribute('data-status') ?? '')).observe(el, { attributes: true, attributeFilter: ['data-status'] });
    });
    armed = true;
    const point = await pointArrived;
    expect(point.measurements.length).toBeGreaterThan(0);
    // the chart took the point in: it redrew its live window and is ready again
    await expect.poll(() => page.evaluate(() => (window as unknown as { chartStatuses: string[] }).chartStatuses), { timeout: 30_000 }).toContain('drawing');
    await expect.poll(() => pane.getAttribute('data-status'), { timeout: 30_000 }).toBe('ready');
    expect(await page.evaluate(() => (window as unknown as { liveMarker?: number }).liveMarker)).toBe(42);
    expect(await pane.getAttribute('data-view-mode')).toBe('live');
    await page.screenshot({ path: '/tmp/live-e2e.png' });
  });
});
