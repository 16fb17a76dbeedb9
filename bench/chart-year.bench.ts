// Benchmark 6 (issue 5): in headless Chromium against the running product (demo world, PGlite),
// a year of the 1-minute demo sensor from choosing the range to the drawn chart, against the
// time the database alone takes to read those rows; and no main-thread task over 50 ms meanwhile.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DateTime } from 'luxon';
import type { Page } from 'playwright-core';
import { loadConfig } from '../server/config';
import { startServer } from '../server/start';
import { launchBrowser, signIn } from '../tests/e2e/browser';
import { median, type BenchRow } from './bench-kit';

const SERIAL = '1A2B3C4D';
const ZONE = 'Pacific/Auckland';
const RUNS = Math.max(Number(process.env.BENCH_YEAR_RUNS ?? 15), 3); // each run is a fresh page (an empty worker store)

/** Picks [first day, today] in the chart's date picker; returns performance.now() of the final click. */
async function chooseYear(page: Page, firstDay: DateTime): Promise<number> {
  await page.getByRole('button', { name: 'Date range' }).click();
  const previous = page.locator('button[data-direction="previous"]').first();
  for (let i = 0; i < 12; i++) await previous.click();
  await page.getByRole('button', { name: firstDay.toFormat('d MMMM yyyy'), exact: true }).click();
  const next = page.locator('button[data-direction="next"]').first();
  for (let i = 0; i < 12; i++) await next.click();
  const today = page.getByRole('button', { name: DateTime.now().setZone(ZONE).toFormat('d MMMM yyyy'), exact: true });
  await today.waitFor();
  // the clock starts at the click that completes the choice
  return today.evaluate((b) => {
    const t = performance.now();
    (b as HTMLButtonElement).click();
    return t;
  });
}

export async function run(): Promise<BenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'tw-bench6-'));
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: join(dir, 'db'),
    SIMULATOR: 'false',
    LOG_LEVEL: 'warn',
    ...(process.env.STATIC_DIR ? { STATIC_DIR: process.env.STATIC_DIR } : {}),
  });
  const server = await startServer(config, { background: false });
  const browser = await launchBrowser();
  try {
    const db = server.ctx.db;
    const sensor = (await db.query<{ id: string }>('SELECT id FROM sensors WHERE serial = $1', [SERIAL]))[0];
    const firstDay = DateTime.now().setZone(ZONE).minus({ days: 365 }).startOf('day');
    const start = firstDay.toMillis();
    const end = DateTime.now().setZone(ZONE).endOf('day').toMillis();

    // the database alone: the year's rows into the server process, one ordered query through its driver
    const read = async () => {
      const t = performance.now();
      const rows = await db.query('SELECT time, raw_distance FROM measurements WHERE sensor_id = $1 AND time >= $2 AND time <= $3 ORDER BY time', [sensor.id, start, end]);
      if (rows.length < 500_000) throw new Error(`expected a year of 1-minute rows, read ${rows.length}`);
      return performance.now() - t;
    };
    await read();
    const dbTimes: number[] = [];
    const chartTimes: number[] = [];
    const longTasks: number[] = [];
    let points = 0;
    for (let i = 0; i < RUNS; i++) {
      dbTimes.push(await read());
      const context = await browser.newContext({ viewport: { width: 1440, height: 1000 } });
      const page = await context.newPage();
      await signIn(page, server.url, 'owner@demo.test');
      await page.goto(`${server.url}/org/riverbend-water/sensors/${SERIAL}`);
      await page.waitForFunction(() => document.querySelector('[data-testid=chart-pane]')?.getAttribute('data-status') === 'ready', null, { timeout: 60_000 });
      await page.evaluate(() => {
        const w = window as unknown as { longTasks: { start: number; duration: number }[] };
        w.longTasks = [];
        new PerformanceObserver((list) => list.getEntries().forEach((e) => w.longTasks.push({ start: e.startTime, duration: e.duration }))).observe({ type: 'longtask' });
        // a deliberate 80 ms task before the clock starts: the observer must see it, or its zero means nothing
        const until = performance.now() + 80;
        while (performance.now() < until);
      });
      await page.waitForFunction(() => (window as unknown as { longTasks: unknown[] }).longTasks.length > 0, null, { timeout: 5_000 }).catch(() => {
        throw new Error('the longtask observer saw no long task: it cannot measure this browser');
      });
      const t0 = await chooseYear(page, firstDay);
      await page.waitForFunction(
        (s) => {
          const el = document.querySelector('[data-testid=chart-plot]') as HTMLElement | null;
          return document.querySelector('[data-testid=chart-pane]')?.getAttribute('data-status') === 'ready' && Number(el?.dataset.xMin) === s;
        },
        start,
        { timeout: 120_000, polling: 20 },
      );
      const r = await page.evaluate((t) => {
        const w = window as unknown as { longTasks: { start: number; duration: number }[] };
        const el = document.querySelector('[data-testid=chart-plot]') as HTMLElement;
        const drawnAt = Number(el.dataset.drawn);
        return { ms: drawnAt - t, points: Number(el.dataset.points), long: w.longTasks.filter((x) => x.start >= t && x.start <= drawnAt).map((x) => x.duration) };
      }, t0);
      const caption = await page.getByTestId('chart-caption').textContent();
      points = Number(caption?.match(/([\d,]+) measurements/)?.[1].replace(/,/g, '') ?? 0);
      chartTimes.push(r.ms);
      longTasks.push(...r.long);
      await context.close();
    }
    const worst = longTasks.length ? Math.max(...longTasks) : 0;
    return [
      {
        bench: '6 year in the product',
        what: `choose a year (${points.toLocaleString('en-GB')} rows) to drawn chart vs the database reading those rows (${server.ctx.db.kind} driver in the server process), ${RUNS} runs`,
        ours: median(chartTimes),
        baseline: median(dbTimes),
        target: { kind: 'cost', value: 1.5 },
      },
      {
        bench: '6 year in the product',
        what: `longest main-thread task meanwhile (ms; target <= 50 ms; ${longTasks.length} tasks over 50 ms in all runs)`,
        ours: worst,
        baseline: 50,
        target: { kind: 'cost', value: 1 },
      },
    ];
  } finally {
    await browser.close();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
