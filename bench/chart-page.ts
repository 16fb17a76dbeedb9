// Helpers of benchmark 6 (chart-year.bench.ts): picking a range in the chart's date picker, the
// long-task observer, waiting for the drawn chart, and the floor (the endpoint's own queries).
import type { DateTime } from 'luxon';
import type { Page } from 'playwright-core';
import type { Db } from '../server/db/db';
import { readMeasurements } from '../server/gateway/measurements.routes';
import { planChunks } from '../workers/chunk-plan';

/**
 * Picks [first, last] in the chart's date picker, which opens at the month of `opensAt` (the
 * current range's end); returns performance.now() in the page at the click that completes the choice.
 */
export async function pickRange(page: Page, first: DateTime, last: DateTime, opensAt: DateTime): Promise<number> {
  await page.getByRole('button', { name: 'Date range' }).click();
  const previous = page.locator('button[data-direction="previous"]').first();
  const monthsBack = Math.round(opensAt.startOf('month').diff(first.startOf('month'), 'months').months);
  for (let i = 0; i < monthsBack; i++) await previous.click();
  await page.getByRole('button', { name: first.toFormat('d MMMM yyyy'), exact: true }).click();
  const next = page.locator('button[data-direction="next"]').first();
  const end = page.getByRole('button', { name: last.toFormat('d MMMM yyyy'), exact: true });
  for (let i = 0; i < 120 && !(await end.isVisible()); i++) await next.click();
  // the clock starts at the click that completes the choice
  return end.evaluate((b) => {
    const t = performance.now();
    (b as HTMLButtonElement).click();
    return t;
  });
}

/**
 * Starts recording long tasks in the page, and proves the observer sees one (or its zero means
 * nothing): a deliberate busy task before the clock starts, longer on each of three tries (on
 * this shared machine the first report has been seen to go missing).
 */
export async function observeLongTasks(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { longTasks: { start: number; duration: number }[] };
    w.longTasks = [];
    new PerformanceObserver((list) => list.getEntries().forEach((e) => w.longTasks.push({ start: e.startTime, duration: e.duration }))).observe({ type: 'longtask' });
  });
  for (const busy of [80, 200, 400]) {
    await page.evaluate((ms) => {
      const until = performance.now() + ms;
      while (performance.now() < until);
    }, busy);
    const seen = await page
      .waitForFunction(() => (window as unknown as { longTasks?: unknown[] }).longTasks?.length, null, { timeout: 10_000 })
      .then(() => true)
      .catch(() => false);
    if (seen) return;
  }
  throw new Error(`the longtask observer saw none of three long tasks at ${page.url()}: it cannot measure this browser`);
}

/** Waits until the chart is ready and drawn from xMin; returns ms from t0 to the draw and the long tasks meanwhile. */
export async function drawnSince(page: Page, t0: number, xMin: number): Promise<{ ms: number; points: number; long: number[] }> {
  await page.waitForFunction(
    (s) => {
      const el = document.querySelector('[data-testid=chart-plot]') as HTMLElement | null;
      return document.querySelector('[data-testid=chart-pane]')?.getAttribute('data-status') === 'ready' && Number(el?.dataset.xMin) === s;
    },
    xMin,
    { timeout: 300_000, polling: 20 },
  );
  return page.evaluate((t) => {
    const w = window as unknown as { longTasks: { start: number; duration: number }[] };
    const el = document.querySelector('[data-testid=chart-plot]') as HTMLElement;
    const drawnAt = Number(el.dataset.drawn);
    return { ms: drawnAt - t, points: Number(el.dataset.points), long: w.longTasks.filter((x) => x.start >= t && x.start <= drawnAt).map((x) => x.duration) };
  }, t0);
}

/**
 * The floor: the fastest way this product's database produces the rows, i.e. the measurements
 * endpoint's own queries for every chunk the worker asks for (binary column form, following
 * `next`), run one after another in the server's process with nothing else. Returns ms and rows.
 */
export async function endpointQueries(db: Db, sensorId: string, start: number, end: number): Promise<{ ms: number; rows: number }> {
  const t = performance.now();
  let rows = 0;
  for (const chunk of planChunks(start, end)) {
    let cursor: string | undefined;
    do {
      const { page, next } = await readMeasurements(db, sensorId, { order: 'asc', format: 'columns', startTime: chunk.startTime, endTime: chunk.endTime, start: cursor }, 'binary');
      rows += page?.n ?? 0;
      cursor = next ?? undefined;
    } while (cursor);
  }
  return { ms: performance.now() - t, rows };
}

/** The data worker's diagnostics (workers/data.worker.ts): linear memory and points held. */
export async function workerStats(page: Page): Promise<{ memoryBytes: number; held: Record<string, number> }> {
  for (const w of page.workers()) {
    const stats = await w.evaluate(() => (self as unknown as { tidewatchStats?: () => Promise<unknown> }).tidewatchStats?.()).catch(() => undefined);
    if (stats) return stats as { memoryBytes: number; held: Record<string, number> };
  }
  throw new Error('no data worker answered');
}

/** Where the time went, from the worker's resource timing (absolute ms): first request, last response. */
export async function fetchSpan(page: Page, t0: number): Promise<string> {
  const origin = await page.evaluate(() => performance.timeOrigin);
  for (const w of page.workers()) {
    const r = await w
      .evaluate(() => ({
        origin: performance.timeOrigin,
        list: performance.getEntriesByType('resource').filter((e) => e.name.includes('/measurements')).map((e) => [e.startTime, (e as PerformanceResourceTiming).responseStart, (e as PerformanceResourceTiming).responseEnd] as const),
      }))
      .catch(() => null);
    const abs = (x: number) => (r ? r.origin + x - origin - t0 : 0);
    if (r) r.list = r.list.filter((e) => abs(e[0]) >= 0);
    if (!r || !r.list.length) continue;
    const first = Math.min(...r.list.map((e) => e[0]));
    const last = Math.max(...r.list.map((e) => e[2]));
    const waits = r.list.map((e) => e[1] - e[0]).sort((a, b) => a - b);
    return `${r.list.length} requests, first sent at +${abs(first).toFixed(0)} ms, last answered at +${abs(last).toFixed(0)} ms, median wait ${waits[waits.length >> 1].toFixed(0)} ms`;
  }
  return 'no resource timing';
}
