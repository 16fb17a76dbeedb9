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
export async function pickRange(page: Page, first: DateTime, last: DateTime, opensAt: DateTime, beforeLastClick?: () => Promise<void>): Promise<number> {
  await page.getByRole('button', { name: 'Date range' }).click();
  const previous = page.locator('button[data-direction="previous"]').first();
  const monthsBack = Math.round(opensAt.startOf('month').diff(first.startOf('month'), 'months').months);
  for (let i = 0; i < monthsBack; i++) await previous.click();
  await page.getByRole('button', { name: first.toFormat('d MMMM yyyy'), exact: true }).click();
  const next = page.locator('button[data-direction="next"]').first();
  const end = page.getByRole('button', { name: last.toFormat('d MMMM yyyy'), exact: true });
  for (let i = 0; i < 120 && !(await end.isVisible()); i++) await next.click();
  // as a person reads the month before the last click: the calendar's own rendering is done
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 200)))));
  await beforeLastClick?.();
  // the clock starts at the click that completes the choice: a real click (input events), so that
  // its own task is a task of the page's and the long-task observer sees it (a click dispatched
  // inside page.evaluate runs within the DevTools protocol's evaluation, which it does not report)
  await end.evaluate((b) =>
    b.addEventListener('click', () => ((window as unknown as { pickedAt: number }).pickedAt = performance.now()), { capture: true, once: true }),
  );
  await end.click();
  return page.evaluate(() => (window as unknown as { pickedAt: number }).pickedAt);
}

/**
 * Keeps the page's main thread busy for `ms` in a task of the page's own (a timer), not inside the
 * DevTools protocol's evaluation, which Chromium does not always report as a task: the long task a
 * benchmark makes to prove its longtask observer sees one.
 */
export async function busyTask(page: Page, ms: number): Promise<void> {
  await page.evaluate(
    (d) =>
      new Promise<void>((resolve) =>
        setTimeout(() => {
          const until = performance.now() + d;
          while (performance.now() < until);
          resolve();
        }, 0),
      ),
    ms,
  );
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
    await busyTask(page, busy);
    const seen = await page
      .waitForFunction(() => (window as unknown as { longTasks?: unknown[] }).longTasks?.length, null, { timeout: 10_000 })
      .then(() => true)
      .catch(() => false);
    if (seen) return;
  }
  throw new Error(`the longtask observer saw none of three long tasks at ${page.url()}: it cannot measure this browser`);
}

/**
 * Records each drawing of the chart from now on (the plot's draw hook stamps data-drawn): when,
 * over which x window and how many points. firstDrawn(t0, xMin) gives ms from t0 to the first
 * drawing with points over that window: with a range drawn as its chunks land, the first data on screen.
 */
export async function watchDraws(page: Page): Promise<{ firstDrawn(t0: number, xMin: number): Promise<number> }> {
  await page.evaluate(`(() => {
    const el = document.querySelector('[data-testid=chart-plot]');
    const log = (window.drawLog = []);
    new MutationObserver(() => log.push({ at: Number(el.dataset.drawn), xMin: Number(el.dataset.xMin), points: Number(el.dataset.points) })).observe(el, { attributes: true, attributeFilter: ['data-drawn'] });
  })()`);
  return {
    async firstDrawn(t0, xMin) {
      const log = (await page.evaluate('window.drawLog')) as { at: number; xMin: number; points: number }[];
      const first = log.find((d) => d.at >= t0 && d.xMin === xMin && d.points > 0);
      return first ? first.at - t0 : NaN;
    },
  };
}

/** Waits until the chart is ready and drawn from xMin; returns ms from t0 to the draw and the long tasks meanwhile (the task holding t0, the click's, included). */
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
    return { ms: drawnAt - t, points: Number(el.dataset.points), long: w.longTasks.filter((x) => x.start + x.duration >= t && x.start <= drawnAt).map((x) => x.duration) };
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
        list: performance.getEntriesByType('resource').filter((e) => e.name.includes('/measurements')).map((e) => [e.startTime, (e as PerformanceResourceTiming).responseStart, (e as PerformanceResourceTiming).responseEnd, (e as PerformanceResourceTiming).requestStart] as const),
      }))
      .catch(() => null);
    const abs = (x: number) => (r ? r.origin + x - origin - t0 : 0);
    if (r) r.list = r.list.filter((e) => abs(e[0]) >= 0);
    if (!r || !r.list.length) continue;
    const first = Math.min(...r.list.map((e) => e[0]));
    const last = Math.max(...r.list.map((e) => e[2]));
    const waits = r.list.map((e) => e[1] - e[0]).sort((a, b) => a - b);
    if (process.env.BENCH_YEAR_DETAIL) {
      // every request of the load in the order sent: sent, socket, first byte, last byte (ms since the click)
      const rows = [...r.list].sort((a, b) => a[0] - b[0]).map((e, i) => `${i + 1}:${abs(e[0]).toFixed(0)}/${abs(e[3]).toFixed(0)}/${abs(e[1]).toFixed(0)}/${abs(e[2]).toFixed(0)}`);
      const others = await page.evaluate((since) => performance.getEntriesByType('resource').filter((e) => e.startTime >= since).map((e) => `${e.name.replace(/^.*\/api/, '')} ${(e.startTime - since).toFixed(0)}-${(e as PerformanceResourceTiming).responseEnd - since}`), t0);
      process.stderr.write(`    requests (sent/socket/first byte/last byte): ${rows.join(' ')}\n    page's own requests meanwhile: ${others.join('; ') || 'none'}\n`);
    }
    return `${r.list.length} requests, first sent at +${abs(first).toFixed(0)} ms, last answered at +${abs(last).toFixed(0)} ms, median wait ${waits[waits.length >> 1].toFixed(0)} ms`;
  }
  return 'no resource timing';
}

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { name?: string; data?: { url?: string; functionName?: string; type?: string; lineNumber?: number } };
}

/**
 * Where the long tasks come from (BENCH_TRACE=1): Chromium's own trace of the page's main thread
 * from `during`'s start() to its end, and for every task over `overMs` the events inside it that took longest
 * (function calls with their source, layout, style, paint, garbage collection...). Printed to stderr.
 */
export async function traceLongTasks(page: Page, label: string, during: (start: () => Promise<void>) => Promise<void>, overMs = 30): Promise<void> {
  const browser = page.context().browser()!;
  await during(() => browser.startTracing(page, { categories: ['toplevel', 'devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8', 'v8.execute', 'blink', 'loading', 'gpu', 'webgl'] }));
  const buf = await browser.stopTracing();
  // BENCH_TRACE_DIR: each trace's JSON kept there too (for chrome://tracing or Perfetto)
  if (process.env.BENCH_TRACE_DIR) (await import('node:fs')).writeFileSync(`${process.env.BENCH_TRACE_DIR}/${label.replace(/\W+/g, '-')}-${Date.now()}.json`, buf);
  const events = (JSON.parse(buf.toString('utf8')) as { traceEvents: TraceEvent[] }).traceEvents;
  // the page's renderer: the one that parsed a document of the page's origin (the full browser's
  // own WebUI pages, the omnibox popup's among them, run in renderers of their own and can be busier
  // during a load); else the busiest renderer's main thread (a navigation to another site may leave
  // the first renderer, about:blank's, idle)
  const origin = new URL(page.url()).origin;
  const pagePids = new Set(events.filter((e) => e.name === 'ParseHTML' && String((e.args as { beginData?: { url?: string } } | undefined)?.beginData?.url ?? '').startsWith(origin)).map((e) => e.pid));
  const busy = new Map<string, number>();
  for (const x of events) if (x.name === 'RunTask' && x.dur) busy.set(`${x.pid}:${x.tid}`, (busy.get(`${x.pid}:${x.tid}`) ?? 0) + x.dur);
  const main = events
    .filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain' && (pagePids.size === 0 || pagePids.has(e.pid)))
    .sort((a, b) => (busy.get(`${b.pid}:${b.tid}`) ?? 0) - (busy.get(`${a.pid}:${a.tid}`) ?? 0))
    .find((e) => (busy.get(`${e.pid}:${e.tid}`) ?? 0) > 1000);
  if (!main) return void process.stderr.write(`  trace ${label}: no renderer main thread found\n`);
  const own = events.filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === 'X' && e.dur !== undefined);
  const tasks = own.filter((e) => e.name === 'RunTask' && e.dur! > overMs * 1000);
  process.stderr.write(`  trace ${label}: ${tasks.length} main-thread tasks over ${overMs} ms\n`);
  if (process.env.BENCH_TRACE_ALL) {
    // every task from just before the click for 80 ms: the main thread's with what took longest inside, the other threads' as start+duration (ms from the click)
    const click = own.find((e) => e.name === 'EventDispatch' && (e.args?.data as { type?: string } | undefined)?.type === 'click');
    const t0 = click?.ts ?? own[0]!.ts;
    const threads = events.filter((e) => e.name === 'thread_name' && e.pid === main.pid).map((e) => [e.tid, e.args?.name] as const);
    for (const [tid, name] of threads) {
      const runs = events.filter((e) => e.pid === main.pid && e.tid === tid && e.ph === 'X' && (e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask') && e.ts + e.dur! >= t0 - 20000 && e.ts - t0 < 80000 && e.dur! > 200);
      if (!runs.length) continue;
      if (name !== 'CrRendererMain') {
        process.stderr.write(`    thread ${name}: ${runs.map((r) => `${((r.ts - t0) / 1000).toFixed(1)}+${(r.dur! / 1000).toFixed(1)}`).join(' ')}\n`);
        continue;
      }
      for (const r of runs) {
        const kids = own
          .filter((e) => e !== r && e.ts >= r.ts && e.ts + e.dur! <= r.ts + r.dur! && e.dur! > 300 && !/^(v8|RunMicrotasks|ThreadControllerImpl|RunTask)/.test(e.name))
          .sort((a, b) => b.dur! - a.dur!)
          .slice(0, 7)
          .map((e) => {
            const d = e.args?.data;
            return `${e.name}${d?.url ? `@${d.functionName ?? ''}:${d.lineNumber}` : d?.type ? `(${d.type})` : ''} ${(e.dur! / 1000).toFixed(1)}`;
          });
        process.stderr.write(`    main ${((r.ts - t0) / 1000).toFixed(1)}+${(r.dur! / 1000).toFixed(1)}: ${kids.join('; ')}\n`);
      }
    }
  }
  for (const t of tasks) {
    const inside = own
      .filter((e) => e !== t && e.name !== 'RunTask' && e.ts >= t.ts && e.ts + e.dur! <= t.ts + t.dur! && e.dur! > 2000)
      .sort((a, b) => b.dur! - a.dur!)
      .slice(0, 12)
      .map((e) => {
        const d = e.args?.data;
        const where = d?.url ? ` ${d.functionName ?? ''}@${d.url.replace(/^.*\//, '')}:${d.lineNumber ?? ''}` : d?.type ? ` ${d.type}` : '';
        return `${e.name}${where} ${(e.dur! / 1000).toFixed(1)}`;
      });
    process.stderr.write(`    task ${(t.dur! / 1000).toFixed(1)} ms: ${inside.join('; ')}\n`);
  }
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}

/**
 * BENCH_TRACE=profile: V8's sampling profile of the page's main thread from `during`'s start() to its end, self
 * time summed by source function (through the build's source maps in `dist/assets`), top 25 to stderr.
 */
export async function profileMainThread(page: Page, label: string, during: (start: () => Promise<void>) => Promise<void>): Promise<void> {
  const { readFileSync, existsSync } = await import('node:fs');
  const { SourceMapConsumer } = await import('source-map-js');
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await during(async () => void (await cdp.send('Profiler.start')));
  const { profile } = (await cdp.send('Profiler.stop')) as unknown as { profile: { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] } };
  await cdp.detach();
  const maps = new Map<string, InstanceType<typeof SourceMapConsumer> | null>();
  const where = (f: ProfileNode['callFrame']) => {
    const file = f.url.replace(/^.*\/assets\//, 'dist/assets/');
    if (!maps.has(file)) maps.set(file, file.startsWith('dist/assets/') && existsSync(`${file}.map`) ? new SourceMapConsumer(JSON.parse(readFileSync(`${file}.map`, 'utf8'))) : null);
    const m = maps.get(file);
    const o = m?.originalPositionFor({ line: f.lineNumber + 1, column: f.columnNumber });
    return o?.source ? `${o.name ?? f.functionName} ${o.source.replace(/^.*node_modules\//, '').replace(/^(\.\.\/)+/, '')}:${o.line}` : `${f.functionName || '(anon)'} ${f.url.replace(/^.*\//, '')}`;
  };
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  for (let i = 0; i < profile.samples.length; i++) {
    const n = byId.get(profile.samples[i])!;
    const key = n.callFrame.url ? where(n.callFrame) : n.callFrame.functionName || '(native)';
    self.set(key, (self.get(key) ?? 0) + profile.timeDeltas[i] / 1000);
  }
  const top = [...self].filter(([k]) => k !== '(idle)' && k !== '(program)').sort((a, b) => b[1] - a[1]).slice(0, 25);
  const busy = [...self].filter(([k]) => k !== '(idle)').reduce((a, [, v]) => a + v, 0);
  process.stderr.write(`  profile ${label}: ${busy.toFixed(0)} ms not idle on the main thread; self time by function:\n${top.map(([k, v]) => `    ${v.toFixed(1)} ms ${k}`).join('\n')}\n`);
  if (process.env.BENCH_PROFILE_TASKS) {
    // each stretch of over 50 ms without an idle sample (a long task, or tasks back to back), with
    // what ran in it: its self time by function and the deepest frames the product owns
    const parent = new Map<number, number>();
    for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
    const isIdle = (i: number) => byId.get(profile.samples[i])!.callFrame.functionName === '(idle)';
    let i = 0;
    while (i < profile.samples.length) {
      if (isIdle(i)) {
        i++;
        continue;
      }
      const from = i;
      let ms = 0;
      while (i < profile.samples.length && !isIdle(i)) ms += profile.timeDeltas[i++] / 1000;
      if (ms <= 50) continue;
      const selfIn = new Map<string, number>();
      const ours = new Map<string, number>();
      for (let k = from; k < i; k++) {
        const n = byId.get(profile.samples[k])!;
        const key = n.callFrame.url ? where(n.callFrame) : n.callFrame.functionName || '(native)';
        selfIn.set(key, (selfIn.get(key) ?? 0) + profile.timeDeltas[k] / 1000);
        for (let id: number | undefined = profile.samples[k]; id !== undefined; id = parent.get(id)) {
          const f = byId.get(id)!.callFrame;
          if (!f.url) continue;
          const w = where(f);
          if (/ src\/|workers\//.test(` ${w.split(' ').slice(1).join(' ')}`)) {
            ours.set(w, (ours.get(w) ?? 0) + profile.timeDeltas[k] / 1000);
            break;
          }
        }
      }
      const fmt = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]).slice(0, 6).map(([k, v]) => `${v.toFixed(0)} ${k}`).join('; ');
      process.stderr.write(`    stretch of ${ms.toFixed(0)} ms: self ${fmt(selfIn)}\n      under the product's ${fmt(ours)}\n`);
    }
  }
  if (process.env.BENCH_PROFILE_INCLUSIVE) {
    // inclusive time by function (each sample counted once per function on its stack), the product's own and its libraries'
    const parent = new Map<number, number>();
    for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
    const keyOf = new Map<number, string>();
    for (const n of profile.nodes) keyOf.set(n.id, n.callFrame.url ? where(n.callFrame) : n.callFrame.functionName || '(native)');
    const incl = new Map<string, number>();
    for (let i = 0; i < profile.samples.length; i++) {
      const seen = new Set<string>();
      for (let id: number | undefined = profile.samples[i]; id !== undefined; id = parent.get(id)) seen.add(keyOf.get(id)!);
      for (const k of seen) incl.set(k, (incl.get(k) ?? 0) + profile.timeDeltas[i] / 1000);
    }
    const topIncl = [...incl].filter(([k]) => !/^\((idle|program|root)\)$/.test(k)).sort((a, b) => b[1] - a[1]).slice(0, 70);
    process.stderr.write(`  inclusive:\n${topIncl.map(([k, v]) => `    ${v.toFixed(1)} ms ${k}`).join('\n')}\n`);
  }
}
