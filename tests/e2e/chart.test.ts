import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { readFileSync } from 'node:fs';
import { DateTime } from 'luxon';
import { launchBrowser, signIn } from './browser';

const ZONE = 'Pacific/Auckland'; // Riverbend Water's time zone
const DAY = 86_400_000;
const YEAR_SENSOR = '1A2B3C4D'; // "Main Reservoir": a year of 1-minute levels
const FLOW_SENSOR = '3C4D5E6F'; // "Kaituna River Weir": WEIR_FLOW_SCR
const VOLUME_SENSOR = '2B3C4D5E'; // "Stock Tank North": VOLUME_CYLINDER
const FUEL_TANK = '6F708192'; // "Diesel Depot Tank 1": VOLUME_CYLINDER_HORIZONTAL, drawn down and refilled every 12 days

interface Drawn {
  points: number;
  xMin: number;
  xMax: number;
  yMin: number;
  yMax: number;
}

describe('the chart on the demo sensors (issue 5; monitoring-client 2.6, 4, 5, 9)', () => {
  const baseUrl = inject('baseUrl');
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1440, height: 1000 }, acceptDownloads: true });
    page = await context.newPage();
    await signIn(page, baseUrl, 'owner@demo.test');
  });
  afterAll(() => browser?.close());

  const pane = () => page.getByTestId('chart-pane');
  const plot = () => page.getByTestId('chart-plot');
  const ready = async () => {
    await page.waitForFunction(() => {
      const s = document.querySelector('[data-testid=chart-pane]')?.getAttribute('data-status');
      return s === 'ready' || s === 'empty' || s === 'failed';
    }, null, { timeout: 60_000 });
    return pane().getAttribute('data-status');
  };
  const drawn = async (): Promise<Drawn> => {
    const d = await plot().evaluate((e) => ({ ...(e as HTMLElement).dataset }));
    return { points: Number(d.points), xMin: Number(d.xMin), xMax: Number(d.xMax), yMin: Number(d.yMin), yMax: Number(d.yMax) };
  };
  /** Waits until the chart has drawn what is wanted (the dataset is written by uPlot's draw hook). */
  const drawnWith = async (want: { xMin?: number; xMax?: number; span?: number; spanBelow?: number; yMinAtMost?: number; yMinAbove?: number; tol?: number }) => {
    await page.waitForFunction(
      (w) => {
        const el = document.querySelector('[data-testid=chart-plot]') as HTMLElement | null;
        const status = document.querySelector('[data-testid=chart-pane]')?.getAttribute('data-status');
        if (!el || (status !== 'ready' && status !== 'empty')) return false;
        const d = el.dataset;
        const [x0, x1, y0] = [Number(d.xMin), Number(d.xMax), Number(d.yMin)];
        const near = (a: number, b: number) => Math.abs(a - b) <= (w.tol ?? 0);
        return (
          (w.xMin === undefined || near(x0, w.xMin)) &&
          (w.xMax === undefined || near(x1, w.xMax)) &&
          (w.span === undefined || near(x1 - x0, w.span)) &&
          (w.spanBelow === undefined || x1 - x0 < w.spanBelow) &&
          (w.yMinAtMost === undefined || y0 <= w.yMinAtMost) &&
          (w.yMinAbove === undefined || y0 > w.yMinAbove)
        );
      },
      want,
      { timeout: 60_000 },
    );
    return drawn();
  };
  const open = async (serial: string, query = '') => {
    await page.goto(`${baseUrl}/org/riverbend-water/sensors/${serial}${query}`);
    await pane().waitFor();
    return ready();
  };
  const rangeButton = () => page.getByRole('button', { name: 'Date range' });
  const pickPreset = async (label: string) => {
    await rangeButton().click();
    await page.getByRole('listbox', { name: 'Date presets' }).getByRole('option', { name: label, exact: true }).click();
  };
  const caption = () => page.getByTestId('chart-caption').textContent();
  const nzNow = () => DateTime.now().setZone(ZONE);

  it('starts on Last 3 Days, and each preset shows its own range with the organisation day boundaries', async () => {
    expect(await open(YEAR_SENSOR)).toBe('ready');
    await expect(rangeButton().textContent()).resolves.toContain('Last 3 Days');
    const first = await drawn();
    expect(Math.abs(first.xMax - first.xMin - 3 * DAY)).toBeLessThan(2 * 3_600_000); // 72 h (73 or 71 across DST)
    expect(first.points).toBeGreaterThan(100);

    const cases: [string, Parameters<typeof drawnWith>[0]][] = [
      ['Today', { xMin: nzNow().startOf('day').toMillis(), xMax: Date.now(), tol: 0 }],
      ['Last 30 Days', { xMin: nzNow().minus({ days: 30 }).toMillis(), xMax: Date.now(), tol: 120_000 }],
      ['This Month', { xMin: nzNow().startOf('month').toMillis(), xMax: Date.now(), tol: 0 }],
      ['Last Month', { xMin: nzNow().startOf('month').minus({ months: 1 }).toMillis(), xMax: nzNow().startOf('month').toMillis() - 1 }],
      ['Last 3 Days', { xMin: nzNow().minus({ days: 3 }).toMillis(), xMax: Date.now(), tol: 120_000 }],
    ];
    for (const [label, want] of cases) {
      await pickPreset(label);
      await page.waitForFunction((l) => document.querySelector('[data-testid="chart-range-text"]')?.parentElement?.textContent?.includes(l), label);
      // presets end now: allow the seconds the test takes for the end (and Today's start is exact)
      const d = await drawnWith(label === 'Today' || label === 'This Month' ? { xMin: want.xMin } : { ...want, xMax: undefined });
      if (want.xMax !== undefined) expect(Math.abs(d.xMax - want.xMax), label).toBeLessThanOrEqual(label === 'Last Month' ? 0 : 120_000);
      expect(await pane().getAttribute('data-status')).toBe('ready'); // the year sensor has data in every preset
    }
  });

  it('manual picking of days gives Custom from the first day midnight to the end of the last day', async () => {
    await open(YEAR_SENSOR);
    const first = nzNow().minus({ days: 5 }).startOf('day');
    const last = nzNow().minus({ days: 1 }).startOf('day');
    // the calendar shows one month, today's: early in a month the first (or last) day is in the month before
    const monthsBack = (d: typeof first) => (nzNow().year - d.year) * 12 + nzNow().month - d.month;
    await rangeButton().click();
    for (let i = 0; i < monthsBack(first); i++) await page.getByRole('button', { name: 'Previous month' }).click();
    await page.getByRole('button', { name: first.toFormat('d MMMM yyyy'), exact: true }).click();
    const asked: string[] = [];
    const onRequest = (r: { url(): string }) => void (r.url().includes('/measurements') && asked.push(r.url()));
    page.on('request', onRequest);
    for (let i = 0; i < monthsBack(first) - monthsBack(last); i++) await page.getByRole('button', { name: 'Next month' }).click();
    await page.getByRole('button', { name: last.toFormat('d MMMM yyyy'), exact: true }).click();
    await drawnWith({ xMin: first.toMillis(), xMax: last.endOf('day').toMillis() });
    page.off('request', onRequest);
    await expect(rangeButton().textContent()).resolves.toContain('Custom');
    // the click starts the fetch and the chart's own load takes it over: the one chunk (5 days, not
    // settled) is asked for once, not once by each
    expect(asked).toHaveLength(1);
    expect(new URL(asked[0]).searchParams.get('startTime')).toBe(String(first.toMillis()));
  });

  it('valid URL start and end give Custom; an invalid pair (start in the future) falls back to Last 3 Days', async () => {
    const start = nzNow().minus({ days: 10 }).toMillis();
    const end = start + 6 * 3_600_000;
    expect(await open(YEAR_SENSOR, `?start=${start}&end=${end}`)).toBe('ready');
    await expect(rangeButton().textContent()).resolves.toContain('Custom');
    expect(await drawn()).toMatchObject({ xMin: start, xMax: end });
    // about 6 hours of 1-minute data
    expect(await caption()).toMatch(/3[56]\d measurements/);

    await open(YEAR_SENSOR, `?start=${Date.now() + DAY}&end=${Date.now() + 2 * DAY}`);
    await expect(rangeButton().textContent()).resolves.toContain('Last 3 Days');
  });

  it('zooms a year down to the 30-minute minimum by dragging, without refetching, and resets', async () => {
    const end = Date.now();
    const start = end - 365 * DAY;
    expect(await open(YEAR_SENSOR, `?start=${start}&end=${end}`)).toBe('ready');
    expect(await caption()).toMatch(/52\d,\d{3} measurements/);
    let fetches = 0;
    const count = (r: { url(): string }) => void (r.url().includes('/measurements') && fetches++);
    page.on('request', count);
    const over = plot().locator('.u-over');
    const drag = async () => {
      const box = (await over.boundingBox())!;
      await page.mouse.move(box.x + box.width * 0.45, box.y + box.height / 2);
      await page.mouse.down();
      await page.mouse.move(box.x + box.width * 0.5, box.y + box.height / 2, { steps: 4 });
      await page.mouse.up();
    };
    // each drag keeps 5 percent of the window: a year, 18 days, 22 hours, 65 minutes, then the 30-minute floor
    let drags = 0;
    for (let span = end - start; span > 1_800_000 && drags < 8; drags++) {
      await drag();
      const d = await drawnWith({ spanBelow: span });
      span = d.xMax - d.xMin;
    }
    expect(drags).toBe(4);
    await drag(); // at the minimum a narrower drag still shows 30 minutes
    await page.waitForTimeout(500);
    const zoomed = await drawn();
    expect(zoomed.xMax - zoomed.xMin).toBe(1_800_000);
    expect(zoomed.points).toBeGreaterThan(20); // full resolution again: ~30 one-minute points
    expect(await caption()).toMatch(/zoomed to/);
    expect(fetches).toBe(0);
    await page.getByRole('button', { name: 'Reset zoom' }).click();
    await drawnWith({ xMin: start, xMax: end });
    expect(fetches).toBe(0);
    page.off('request', count);
  });

  it('a year is drawn as its chunks land: what is held over the whole year, the progress above it, then the complete year (issue 34)', async () => {
    const end = Date.now();
    const start = end - 365 * DAY;
    const fresh = await context.newPage(); // a new page: an empty worker, so every chunk is fetched
    // every drawing of the chart, stamped in the page as it happens
    await fresh.addInitScript(`
      window.draws = [];
      new MutationObserver((records) => {
        for (const r of records) {
          const d = r.target.dataset;
          const pane = document.querySelector('[data-testid=chart-pane]');
          window.draws.push({ xMin: Number(d.xMin), xMax: Number(d.xMax), points: Number(d.points), held: pane?.getAttribute('data-held') === 'true', progress: !!document.querySelector('[data-testid=chart-held] [data-testid=chart-progress]') });
        }
      }).observe(document, { attributes: true, attributeFilter: ['data-drawn'], subtree: true });
    `);
    await fresh.goto(`${baseUrl}/org/riverbend-water/sensors/${YEAR_SENSOR}?start=${start}&end=${end}`);
    await fresh.locator('[data-testid="chart-pane"][data-status="ready"]').waitFor({ timeout: 60_000 });
    const draws = (await fresh.evaluate('window.draws')) as { xMin: number; xMax: number; points: number; held: boolean; progress: boolean }[];
    const year = draws.filter((d) => d.xMin === start && d.xMax === end && d.points > 0);
    const held = year.filter((d) => d.held);
    expect(held.length, 'drawings of the year before it had all arrived').toBeGreaterThan(0);
    expect(held.every((d) => d.progress), 'the progress stays in view above them').toBe(true);
    const last = year.at(-1)!;
    expect(last.held).toBe(false);
    expect(await fresh.getByTestId('chart-held').count()).toBe(0); // gone with the complete drawing
    await fresh.close();
  });

  it('a flow sensor defaults to Flow Rate (Live disabled); Water Level switches back to Normal and refreshes', async () => {
    expect(await open(FLOW_SENSOR)).toBe('ready');
    const select = page.getByRole('combobox', { name: 'Chart data' });
    await expect(select.inputValue()).resolves.toBe('Flow Rate');
    expect(await caption()).toContain('Flow Rate (l/s)');
    await expect(page.getByRole('radio', { name: 'Live Mode' }).isDisabled()).resolves.toBe(true);
    // the switch refreshes: the worker asks for the measurements again (its requests reach the page's events)
    const refreshed = page.waitForRequest((r) => r.url().includes('/measurements'), { timeout: 30_000 });
    await select.click();
    await page.getByRole('option', { name: 'Water Level' }).click();
    await page.waitForFunction(() => document.querySelector('[data-testid=chart-pane]')?.getAttribute('data-mode') === 'level');
    await refreshed;
    await ready();
    expect(await caption()).toContain('Water Level (m)');
    await expect(page.getByRole('radio', { name: 'Live Mode' }).isDisabled()).resolves.toBe(false);
  });

  it('a volume sensor defaults to Water Volume in litres', async () => {
    expect(await open(VOLUME_SENSOR)).toBe('ready');
    await expect(page.getByRole('combobox', { name: 'Chart data' }).inputValue()).resolves.toBe('Water Volume');
    expect(await caption()).toContain('Water Volume (l)');
    const d = await drawn();
    expect(d.yMax).toBeGreaterThan(1000); // litres, not metres
  });

  it('exports the CSV the chart shows, in the chosen format, and disables Export for 2 s after the click', async () => {
    const cases = [
      { serial: FLOW_SENSOR, name: 'Kaituna River Weir', format: 'ISO8601 UTC', header: 'Time (UTC),Kaituna River Weir - Flow Rate (l/s)', row: /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ,\d+$/ },
      { serial: VOLUME_SENSOR, name: 'Stock Tank North', format: 'DD/MM/YYYY HH:mm:ss', header: `Time (${ZONE}),Stock Tank North - Water Volume (l)`, row: /^\d\d\/\d\d\/\d{4} \d\d:\d\d:\d\d,\d+$/ },
      { serial: YEAR_SENSOR, name: 'Main Reservoir', format: 'ISO8601 local', header: `Time (${ZONE}),Main Reservoir - Water Level (m)`, row: /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]1[23]:00,\d+\.\d{3}$/ },
    ];
    for (const c of cases) {
      await open(c.serial);
      const expectedRows = Number((await caption())!.match(/([\d,]+) measurements/)![1].replace(/,/g, ''));
      const exportButton = page.getByRole('button', { name: 'Export', exact: true });
      await exportButton.click();
      const dialog = page.getByRole('dialog', { name: 'Export Options' });
      await dialog.getByRole('radio', { name: c.format }).check();
      const [download] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: 'Download CSV' }).click()]);
      const clickedAt = Date.now();
      await expect(exportButton.isDisabled()).resolves.toBe(true);
      expect(download.suggestedFilename()).toMatch(new RegExp(`^${c.name.replace(/ /g, '_')}_${c.serial}_.*\\.csv$`));
      const lines = readFileSync((await download.path())!, 'utf8').trimEnd().split(/\r?\n/);
      expect(lines[0]).toBe(c.header);
      expect(lines.length - 1).toBe(expectedRows);
      for (const line of [lines[1], lines[Math.floor(lines.length / 2)], lines.at(-1)!]) expect(line).toMatch(c.row);
      // aria-disabled (the button keeps keyboard focus while it waits)
      await page.waitForFunction(() => (document.evaluate("//button[.//text()='Export']", document, null, 9).singleNodeValue as HTMLButtonElement)?.getAttribute('aria-disabled') === 'false', null, { timeout: 5_000 });
      expect(Date.now() - clickedAt).toBeGreaterThanOrEqual(1_500);
    }
  });

  it("the usage pane (issue 38): a tank's days until empty with its band and date, daily use and last fill, and the usage CSV; a weir's flow totals", async () => {
    expect(await open(FUEL_TANK)).toBe('ready');
    const usage = page.getByTestId('usage-pane');
    await usage.waitFor({ timeout: 60_000 });
    expect(await usage.getAttribute('data-kind')).toBe('volume');
    // the seeded months of a 12-day cycle give a forecast: "about N days (Wed 16 Dec)", likely a band of days
    await expect(page.getByTestId('usage-days').textContent()).resolves.toMatch(/^(about \d+ days?|less than a day) \((Mon|Tue|Wed|Thu|Fri|Sat|Sun) \d{1,2} [A-Z][a-z]{2}\)$/);
    await expect(usage.getByText(/^likely \d+( to \d+)? days?$/).count()).resolves.toBe(1);
    await expect(page.getByTestId('usage-average').textContent()).resolves.toMatch(/^[\d,]+ L$/);
    await expect(page.getByTestId('usage-last-fill').textContent()).resolves.toMatch(/^[\d,]+ L$/);
    // the chart continues its line with the forecast: dashed, from the latest point to empty, the axis reaching past the range to show it
    const forecastDrawn = async () => {
      await page.waitForFunction(() => !!(document.querySelector('[data-testid=chart-plot]') as HTMLElement | null)?.dataset.forecast, null, { timeout: 30_000 });
      return JSON.parse((await plot().getAttribute('data-forecast'))!) as { x0: number; y0: number; x1: number; y1: number; early: number; late: number; dash: number[]; xMax: number; points: [number, number][] };
    };
    const volume = await forecastDrawn();
    const range = await drawn();
    expect(volume.dash).toEqual([8, 5]);
    expect(volume.y1).toBe(0);
    expect(volume.y0).toBeGreaterThan(1000);
    expect(volume.x0 * 1000).toBeLessThanOrEqual(range.xMax);
    expect(volume.early).toBeLessThanOrEqual(volume.x1);
    expect(volume.late).toBeGreaterThanOrEqual(volume.x1);
    expect(volume.xMax * 1000).toBeGreaterThan(range.xMax);
    expect(volume.points).toEqual([
      [volume.x0, volume.y0],
      [volume.x1, volume.y1],
    ]); // the volume falls linearly: a straight line
    // in Water Level mode it ends at the empty level, in metres
    await page.getByRole('combobox', { name: 'Chart data' }).click();
    await page.getByRole('option', { name: 'Water Level' }).click();
    await page.waitForFunction(() => document.querySelector('[data-testid=chart-pane]')?.getAttribute('data-mode') === 'level');
    await ready();
    await page.waitForFunction(() => JSON.parse((document.querySelector('[data-testid=chart-plot]') as HTMLElement).dataset.forecast || '{"y0":1e9}').y0 < 10, null, { timeout: 30_000 });
    const level = await forecastDrawn();
    expect(level.y0).toBeLessThan(3);
    expect(level.y1).toBeLessThan(level.y0);
    // the horizontal cylinder's level as its volume falls linearly: a curve off the straight line between the ends
    expect(level.points.length).toBeGreaterThan(32);
    expect(level.points[0]).toEqual([level.x0, level.y0]);
    const offChord = level.points.map(([x, y]) => Math.abs(y - (level.y0 + ((level.y1 - level.y0) * (x - level.x0)) / (level.x1 - level.x0))));
    expect(Math.max(...offChord)).toBeGreaterThan(0.001);
    await pane().screenshot({ path: 'test-results/e2e/chart-forecast-level.png' });
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('usage-export').click()]);
    expect(download.suggestedFilename()).toMatch(new RegExp(`^Diesel_Depot_Tank_1_usage_${FUEL_TANK}_.*\\.csv$`));
    const lines = readFileSync((await download.path())!, 'utf8').split(/\r?\n/);
    expect(lines[0]).toBe(`Date (${ZONE}),Diesel Depot Tank 1 - Use (l),Covered (h),Fills,Filled (l)`);
    expect(lines).toContain(`Fill start (${ZONE}),Fill end (${ZONE}),Delivered (l)`);

    expect(await open(FLOW_SENSOR)).toBe('ready');
    await page.locator('[data-testid=usage-pane][data-kind=flow]').waitFor({ timeout: 60_000 });
    expect(await plot().getAttribute('data-forecast')).toBe(''); // a weir has totals, no forecast
    for (const id of ['usage-today', 'usage-month', 'usage-range']) await expect(page.getByTestId(id).textContent()).resolves.toMatch(/^[\d,]+\.\d m³$/);
  });

  it('Y-axis zoom fits the data; off, zero and the display limits are in view (1 percent padding)', async () => {
    await open(YEAR_SENSOR);
    const toggle = page.getByRole('button', { name: 'Y-axis zoom' });
    await expect(toggle.getAttribute('aria-pressed')).resolves.toBe('false');
    const full = await drawn();
    expect(full.yMin).toBeLessThanOrEqual(0);
    expect(full.yMax).toBeGreaterThanOrEqual(6); // max level 6000 mm
    await toggle.click();
    await expect(toggle.getAttribute('aria-pressed')).resolves.toBe('true');
    const fitted = await drawnWith({ yMinAbove: 0 });
    expect(fitted.yMin).toBeGreaterThan(3);
    expect(fitted.yMax).toBeLessThan(6);
    await toggle.click();
    expect((await drawnWith({ yMinAtMost: 0 })).yMax).toBe(full.yMax);
  });

  it('Refresh loads again from the server and brings a preset up to now', async () => {
    await open(YEAR_SENSOR);
    const before = await drawn();
    const requests: string[] = [];
    page.on('request', (r) => void (r.url().includes('/measurements') && requests.push(r.url())));
    await page.waitForTimeout(1_100);
    await page.getByRole('button', { name: 'Refresh' }).click();
    const after = await drawnWith({ xMin: before.xMin + 1_100, xMax: Date.now(), tol: 60_000 });
    expect(after.xMax).toBeGreaterThan(before.xMax);
    expect(Math.abs(after.xMax - after.xMin - (before.xMax - before.xMin))).toBeLessThan(3_600_001); // the same 3 days, moved on
    expect(requests.length).toBeGreaterThan(0);
  });

  it('Live Mode shows the last hour of the level sensor', async () => {
    await open(YEAR_SENSOR);
    await page.locator('label', { hasText: 'Live Mode' }).click();
    await page.waitForFunction(() => document.querySelector('[data-testid=chart-pane]')?.getAttribute('data-view-mode') === 'live');
    const d = await drawnWith({ span: 3_600_000 });
    expect(Math.abs(d.xMax - Date.now())).toBeLessThan(60_000);
    expect(await page.getByText('Live · last hour').isVisible()).toBe(true);
  });
});
