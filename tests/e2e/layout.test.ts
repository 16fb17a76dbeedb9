import { describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useBrowser } from './session';

const ORG = '/org/riverbend-water';
const HARBOUR = '708192A3'; // the demo sensor with an open threshold alarm
const RESERVOIR = '1A2B3C4D';
const SHOTS = 'test-results/layout';

/** Width of the page's content beyond the window: anything over 0 scrolls sideways. */
const sidewaysOverflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

/** The chart's plot area (uPlot's drawing surface) once the chart has drawn its data. */
async function plotBox(page: Page) {
  await page.locator('[data-testid="chart-pane"][data-status="ready"]').waitFor({ timeout: 60_000 });
  const box = await page.locator('[data-testid="chart-pane"] .u-over').boundingBox();
  if (!box) throw new Error('the chart has no plot area');
  return box;
}

/**
 * Issue 34, layout: the chart (plot area included) on the first screen of a 1366 x 860 laptop on
 * every sensor's dashboard, an open alarm too; on a 390 x 844 phone the chart right after the latest
 * measurement; nothing scrolls sideways at 320 px (WCAG 1.4.10 reflow).
 */
describe('layout at a laptop, a phone and 320 px', () => {
  const baseUrl = inject('baseUrl');
  const b = useBrowser({ shots: SHOTS });

  it('1366 x 860: the plot area is within the first screen, with and without an open alarm', async () => {
    const page = await b.signedIn(baseUrl, 'owner@demo.test', { width: 1366, height: 860 });
    try {
      for (const serial of [RESERVOIR, HARBOUR]) {
        await page.goto(`${baseUrl}${ORG}/sensors/${serial}`);
        if (serial === HARBOUR) await page.getByRole('region', { name: 'Status alerts' }).getByText('Threshold alarm').waitFor({ timeout: 30_000 });
        const plot = await plotBox(page);
        await page.screenshot({ path: `${SHOTS}/dashboard-${serial}-1366.png` });
        expect(await page.evaluate(() => scrollY)).toBe(0);
        expect(plot.y).toBeGreaterThan(0);
        expect(plot.y + plot.height).toBeLessThanOrEqual(860);
      }
    } finally {
      await page.close();
    }
  });

  it('390 x 844: the chart comes right after the latest measurement, the map after the chart', async () => {
    const page = await b.signedIn(baseUrl, 'owner@demo.test', { width: 390, height: 844 });
    try {
      await page.goto(`${baseUrl}${ORG}/sensors/${RESERVOIR}`);
      const plot = await plotBox(page);
      const latest = await page.getByTestId('latest-level').boundingBox();
      const chart = await page.getByTestId('chart-pane').boundingBox();
      const info = await page.getByRole('table', { name: 'Sensor information' }).boundingBox();
      expect(latest && chart && info).toBeTruthy();
      expect(chart!.y).toBeGreaterThan(latest!.y);
      expect(info!.y).toBeGreaterThan(plot.y + plot.height);
      // nothing between the measurement's pane and the chart: the map and the table are below it
      const between = await page.evaluate(
        ([top, bottom]) => [...document.querySelectorAll('[data-testid="sensor-map"], [aria-label="Sensor information"]')].filter((e) => { const r = e.getBoundingClientRect(); return r.top > top && r.top < bottom; }).length,
        [latest!.y, chart!.y],
      );
      expect(between).toBe(0);
      expect(await sidewaysOverflow(page)).toBe(0);
    } finally {
      await page.close();
    }
  });

  it('320 px: the sensors list, a dashboard with an alarm, its setup and the notifications do not scroll sideways', async () => {
    const page = await b.signedIn(baseUrl, 'owner@demo.test', { width: 320, height: 700 });
    try {
      const pages: [string, string, () => Promise<unknown>][] = [
        ['sensors', `${ORG}/sensors`, () => page.getByText('Harbour Tide Gauge').first().waitFor()],
        ['dashboard', `${ORG}/sensors/${HARBOUR}`, () => Promise.all([plotBox(page), page.getByRole('region', { name: 'Status alerts' }).waitFor({ timeout: 30_000 })])],
        ['setup', `${ORG}/sensors/${HARBOUR}/setup`, () => page.getByRole('tab', { name: 'Sensor Setup', selected: true }).waitFor()],
        ['notifications', `${ORG}/notifications`, () => page.getByRole('article').first().waitFor()],
      ];
      for (const [name, path, ready] of pages) {
        await page.goto(`${baseUrl}${path}`);
        await ready();
        expect({ name, overflow: await sidewaysOverflow(page) }).toEqual({ name, overflow: 0 });
        await page.screenshot({ path: `${SHOTS}/${name}-320.png`, fullPage: true });
      }
    } finally {
      await page.close();
    }
  });
});
