// Benchmark 22 (issue 32): a whole utility's fleet in headless Chromium against the product's
// server on PostgreSQL (TEST_DATABASE_URL; scratch databases made and dropped here), each server in
// a process of its own (bench/chart-year-server.ts). Riverbend Water as the demo seeds it (10
// sensors) beside the same organisation with 10,000 fleet sensors (npm run seed:fleet's
// seedFleet), pages interleaved; then the fleet grown to 100,000 sensors and 100,000 cleared
// notifications. Each page is a fresh tab (empty cache, signed in) opened by navigation. Measured:
// navigation start to the first list rows drawn (the frame they are in), the longest main-thread
// task while each page loads and the first one scrolls and searches (Chromium's longtask observer
// from the document's start, proven after; the probes are polled by the page's own timer, not
// Playwright's injected script), the last search keystroke to the list updated, the JS heap after a
// collection (the page and its workers, through the DevTools protocol), the map page's first
// sensors drawn (deck.gl's first instanced WebGL draw: MapLibre draws nothing instanced), the
// notifications page's first cards, and the compact list's bytes on the wire and server time (the
// data worker's resource timing and the response's Server-Timing).
// Live: 1,000 uplinks/s for 30 s from ingest's generator (bench/ingest-load.ts, its own process,
// 10,000 of the fleet's sensors) with the sensors page open, a visible row's uplink timed to the
// screen every 5 s. BENCH_FLEET_MAX=10000 skips the 100,000 size (live then runs at 10,000);
// BENCH_FLEET_LIVE_SECONDS (0 skips it); BENCH_FLEET_RUNS pages per size (default 5);
// BENCH_TRACE=profile: V8's profiles of the main thread and PostgreSQL's plan of the list (stderr).
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { CHROMIUM_LAUNCH, signIn } from '../tests/e2e/browser';
import { scratchPostgres, type ScratchDatabase } from '../tests/server/scratch-postgres';
import { fleetSerial, seedFleet } from '../server/cli/seed-fleet';
import { deriveDeviceKey } from '../server/seed/device-keys';
import { openDb, type Queryable } from '../server/db/db';
import { SUMMARY_ROWS_SQL } from '../server/gateway/sensors.routes';
import { SEARCH_DEBOUNCE_MS } from '../src/domain/sensor-search';
import type { Rollup } from 'vite';
import { median, viteBuild, type BenchRow } from './bench-kit';
import type { LoadResult } from './ingest-load';
import { busyTask, profileMainThread, traceLongTasks } from './chart-page';
import { startYearServer } from './chart-year.bench';
import { generator } from './ingest.bench';

const ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const RUNS = Math.max(Number(process.env.BENCH_FLEET_RUNS ?? 5), 1);
const MAX = Number(process.env.BENCH_FLEET_MAX ?? 100_000);
/** The live phase's seconds at 1,000 uplinks/s (0 skips it). */
const LIVE_SECONDS = Number(process.env.BENCH_FLEET_LIVE_SECONDS ?? 30);
const LIVE_RATE = 1_000;

const ORG = '/org/riverbend-water';
const DEMO = 10;
/** BENCH_TRACE=profile: V8's profile of the main thread of each full sensors page's load, scroll and search (stderr). */
const PROFILE = process.env.BENCH_TRACE === 'profile';
/** BENCH_TRACE=1: Chromium's trace of the sensors, map and notifications pages' main-thread tasks over 50 ms (stderr). */
const TRACE = process.env.BENCH_TRACE === '1';
/** BENCH_FLEET_ONLY=map: the map pages alone (with the demo's 10 sensors beside, the floor of WebGL in this browser), no sensors pages, notifications or live phase. */
const ONLY_MAP = process.env.BENCH_FLEET_ONLY === 'map';
/** Typed into the search at 100,000 (each one after the list shows everything again): a name, a serial, a typo. */
const QUERIES = ['thames bore 1234', 'F00012', 'resev'];
const ROWS = '[role=list][aria-label=Sensors] [data-serial]';
const kB = (b: number) => `${(b / 1024).toFixed(0)} kB`;
const MB = (b: number) => `${(b / 2 ** 20).toFixed(0)} MiB`;
const fmt = (xs: number[]) => xs.map((x) => x.toFixed(0)).join(', ');

/**
 * Before any of the page's scripts: long tasks recorded from the document's start; the first
 * animation frame in which each probe's selector matches (ms since navigation start); deck.gl's
 * first instanced draw with instances (the map's sensors; MapLibre draws nothing instanced).
 */
const PROBES = `(() => {
  globalThis.__name ??= (f) => f;
  const w = window;
  w.longTasks = [];
  new PerformanceObserver((l) => l.getEntries().forEach((e) => w.longTasks.push({ start: e.startTime, duration: e.duration }))).observe({ type: 'longtask' });
  w.firstSeen = {};
  const probes = { rows: ${JSON.stringify(ROWS)}, cards: 'main [role=article]' };
  const frame = (t) => {
    for (const [k, sel] of Object.entries(probes)) if (w.firstSeen[k] === undefined && document.querySelector(sel)) w.firstSeen[k] = t;
    if (Object.keys(w.firstSeen).length < Object.keys(probes).length) requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
  for (const C of [w.WebGL2RenderingContext, w.WebGLRenderingContext]) {
    if (!C) continue;
    for (const m of ['drawArraysInstanced', 'drawElementsInstanced', 'drawArraysInstancedANGLE']) {
      const f = C.prototype[m];
      if (!f) continue;
      C.prototype[m] = function (...a) {
        if (w.firstSeen.map === undefined && a[a.length - 1] > 0) {
          w.firstSeen.map = performance.now();
          requestAnimationFrame((t) => (w.firstSeen.mapFrame = t));
        }
        return f.apply(this, a);
      };
    }
  }
})()`;

/** PostgreSQL's plan and timing of the whole compact list's statement, every row read (BENCH_TRACE=profile, at the largest size), to stderr. */
export async function explainSummary(db: Queryable, orgId: string): Promise<void> {
  const plan = await db.query<Record<string, string>>(`EXPLAIN (ANALYZE, BUFFERS) ${SUMMARY_ROWS_SQL}`, [orgId]);
  process.stderr.write(`  the compact list's statement:\n${plan.map((r) => `    ${Object.values(r)[0]}`).join('\n')}\n`);
}

interface Side {
  url: string;
  /** The demo's 10 sensors: the list's first page holds them all and is the whole list. */
  pageIsWhole?: boolean;
  storage: Awaited<ReturnType<BrowserContext['storageState']>>;
}

async function openTab(browser: Browser, side: Side): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 1000 }, reducedMotion: 'reduce', storageState: side.storage });
  await context.addInitScript({ content: PROBES });
  const page = await context.newPage();
  page.setDefaultTimeout(180_000);
  return page;
}

/**
 * Waits until a probe has fired; its ms since navigation start. Polled by the page's own timer in
 * one evaluation, not with waitForFunction: that puts Playwright's injected script (its selector
 * and role engines) into the page, a 60 to 75 ms task of compiling in the middle of the load the
 * longest-task rows measure, which no user's page has.
 */
async function seen(page: Page, key: string): Promise<number> {
  return page.evaluate(
    ([k, timeoutMs]) =>
      new Promise<number>((resolve, reject) => {
        const w = window as unknown as { firstSeen: Record<string, number> };
        const until = performance.now() + timeoutMs;
        const check = () => {
          if (w.firstSeen[k] !== undefined) resolve(w.firstSeen[k]);
          else if (performance.now() > until) reject(new Error(`the probe '${k}' did not fire in ${timeoutMs} ms`));
          else setTimeout(check, 50);
        };
        check();
      }),
    [key, 180_000] as const,
  );
}

/** Long tasks since `since` (ms on the page's clock), after a frame and a timer so the last one has been reported. */
async function longSince(page: Page, since = 0): Promise<number[]> {
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 100))));
  return page.evaluate((t) => (window as unknown as { longTasks: { start: number; duration: number }[] }).longTasks.filter((x) => x.start + x.duration >= t).map((x) => x.duration), since);
}

/** Proves the observer reports a long task on this page (a busy timer, longer on each of three tries); throws otherwise. */
async function proveObserver(page: Page): Promise<void> {
  for (const busy of [80, 200, 400]) {
    const t = await page.evaluate(() => performance.now());
    await busyTask(page, busy);
    if ((await longSince(page, t)).length) return;
  }
  throw new Error(`the longtask observer saw none of three long tasks at ${page.url()}`);
}

/** The list's view: the first row's serial and the list's size, or '' while no row is drawn. */
const SIG = `(() => { const r = document.querySelector('[role=list][aria-label=Sensors] [aria-posinset="1"][data-serial]'); return r ? r.getAttribute('data-serial') + '/' + r.getAttribute('aria-setsize') : ''; })()`;

/** Types `text` into the search (one input event), then ms from that event to the frame with the list changed from what it showed. */
async function searchTo(page: Page, text: string): Promise<number> {
  const before = (await page.evaluate(SIG)) as string;
  await page.evaluate(`(() => {
    const w = window; w.searchAt = undefined; w.changedAt = undefined;
    const input = document.querySelector('input[aria-label="Search sensors"]');
    input.addEventListener('input', () => (w.searchAt = performance.now()), { once: true, capture: true });
    const check = (t) => { const s = ${SIG}; if (w.searchAt !== undefined && s && s !== ${JSON.stringify(before)}) w.changedAt = t; else requestAnimationFrame(check); };
    requestAnimationFrame(check);
  })()`);
  await page.getByLabel('Search sensors').fill(text);
  await page.waitForFunction(() => (window as unknown as { changedAt?: number }).changedAt !== undefined, null, { polling: 20, timeout: 60_000 });
  return page.evaluate(() => ((window as unknown as { changedAt: number; searchAt: number }).changedAt - (window as unknown as { searchAt: number }).searchAt));
}

/**
 * Clicks (a real click) the k-th row on screen of those not open, then ms from the click to the
 * frame with that sensor's dashboard: its name in the page's h1 at its own address.
 */
async function switchTo(page: Page, k: number): Promise<number> {
  // the rows on screen (wholly inside the list's viewport), polled by the page's own timer until there are k + 1
  const row = await page.evaluate(
    (k) =>
      new Promise<{ x: number; y: number; name: string; serial: string }>((resolve, reject) => {
        const until = performance.now() + 30_000;
        const check = () => {
          const list = document.querySelector('[role=list][aria-label=Sensors]');
          const view = list?.parentElement?.getBoundingClientRect();
          const on = !list || !view ? [] : [...list.querySelectorAll<HTMLElement>('a[data-serial]:not([data-active])')]
            .map((r) => ({ r, b: r.getBoundingClientRect() }))
            .filter(({ b }) => b.height > 0 && b.top >= view.top && b.bottom <= view.bottom)
            .sort((a, b) => a.b.top - b.b.top);
          if (on.length > k) {
            const { r, b } = on[k];
            resolve({ x: b.x + b.width / 2, y: b.y + b.height / 2, name: r.querySelector('[data-part=name]')!.textContent!, serial: r.dataset.serial! });
          } else if (performance.now() > until) reject(new Error(`${on.length} rows on screen at ${location.pathname}, not ${k + 1}`));
          else setTimeout(check, 50);
        };
        check();
      }),
    k,
  );
  await page.evaluate(`(() => {
    const w = window; w.clickAt = undefined; w.shownAt = undefined;
    document.addEventListener('click', () => (w.clickAt = performance.now()), { once: true, capture: true });
    const check = (t) => { const h = document.querySelector('h1'); if (w.clickAt !== undefined && h && h.textContent === ${JSON.stringify(row.name)} && location.pathname.endsWith('/' + ${JSON.stringify(row.serial)})) w.shownAt = t; else requestAnimationFrame(check); };
    requestAnimationFrame(check);
  })()`);
  await page.mouse.click(row.x, row.y);
  await page.waitForFunction(() => (window as unknown as { shownAt?: number }).shownAt !== undefined, null, { polling: 20, timeout: 60_000 });
  return page.evaluate(() => (window as unknown as { shownAt: number }).shownAt - (window as unknown as { clickAt: number }).clickAt);
}

interface Switching {
  /** Click to the dashboard drawn (ms), for each row clicked. */
  ms: number[];
  /** Long tasks from the first click to 1.5 s after the last dashboard. */
  long: number[];
}

/** The sensors page opened, then three rows on screen opened in turn, each dashboard given 1.5 s (its chart's first data) before the next click. */
async function switching(browser: Browser, side: Side): Promise<Switching> {
  const page = await openTab(browser, side);
  try {
    await page.goto(`${side.url}${ORG}/sensors`, { waitUntil: 'commit' });
    await seen(page, 'rows');
    await page.evaluate(() => new Promise((r) => setTimeout(r, 1_500)));
    const t = await page.evaluate(() => performance.now());
    const ms: number[] = [];
    for (const k of [2, 5, 8]) {
      ms.push(await switchTo(page, k));
      await page.evaluate(() => new Promise((r) => setTimeout(r, 1_500)));
    }
    const long = await longSince(page, t);
    await proveObserver(page);
    return { ms, long };
  } finally {
    await page.context().close();
  }
}

/** Switching at a size against the demo's: click to the dashboard drawn, and the longest task meanwhile. */
function switchingRow(size: string, ours: Switching, demo: Switching): BenchRow {
  return {
    bench: '22 fleet',
    what: `switching between sensors' dashboards at ${size} vs the demo's ${DEMO}: a click on a row on screen to its dashboard drawn (3 rows in turn, medians)`,
    ours: median(ours.ms),
    baseline: median(demo.ms),
    target: null,
    reportAs: 'cost',
    note: `${size}: ${fmt(ours.ms)} ms, longest task ${Math.max(0, ...ours.long).toFixed(0)} (${ours.long.filter((d) => d > 50).length} over 50 ms); ${DEMO}: ${fmt(demo.ms)} ms, longest ${Math.max(0, ...demo.long).toFixed(0)}`,
  };
}

/** Scrolls the list by the wheel (20 steps of 3,000 px, a frame each), then jumps half way and to the end. */
async function scroll(page: Page): Promise<void> {
  const box = (await page.locator('[role=list][aria-label=Sensors]').boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, Math.min(box.y + 300, 900));
  for (let i = 0; i < 20; i++) {
    await page.mouse.wheel(0, 3_000);
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(r)));
  }
  for (const at of [0.5, 1]) {
    await page.evaluate((f) => {
      const v = document.querySelector('[role=list][aria-label=Sensors]')!.parentElement!;
      v.scrollTo(0, v.scrollHeight * f);
    }, at);
    await page.waitForFunction(() => !document.querySelector('[role=list][aria-label=Sensors] [aria-busy=true]'), null, { polling: 20 });
  }
  await page.evaluate(() => document.querySelector('[role=list][aria-label=Sensors]')!.parentElement!.scrollTo(0, 0));
}

/** The JS heap in use after a collection: the page's main thread and each of its workers (DevTools protocol, one session per target). */
async function heapUsed(browser: Browser, page: Page): Promise<{ main: number; workers: number }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('HeapProfiler.collectGarbage');
  const main = (await cdp.send('Runtime.getHeapUsage')).usedSize;
  await cdp.detach();
  const b = await browser.newBrowserCDPSession();
  let workers = 0;
  try {
    const { targetInfos } = await b.send('Target.getTargets');
    const mine = targetInfos.filter((t) => t.type === 'worker');
    let id = 0;
    for (const t of mine) {
      const { sessionId } = await b.send('Target.attachToTarget', { targetId: t.targetId, flatten: false });
      const ask = (method: string) =>
        new Promise<Record<string, number>>((resolve) => {
          const my = ++id;
          const on = (e: { sessionId?: string; message: string }) => {
            const m = JSON.parse(e.message) as { id?: number; result?: Record<string, number> };
            if (e.sessionId === sessionId && m.id === my) {
              b.off('Target.receivedMessageFromTarget', on);
              resolve(m.result ?? {});
            }
          };
          b.on('Target.receivedMessageFromTarget', on);
          void b.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id: my, method }) });
        });
      await ask('HeapProfiler.collectGarbage');
      workers += (await ask('Runtime.getHeapUsage')).usedSize ?? 0;
      await b.send('Target.detachFromTarget', { sessionId });
    }
  } finally {
    await b.detach();
  }
  return { main, workers };
}

interface ListRequest {
  encoded: number;
  decoded: number;
  /** Server-Timing: total and each step (auth, db), ms */
  server: number;
  steps: string;
  /** ms since the page's navigation start: request sent, first byte, last byte */
  sent: number;
  firstByte: number;
  lastByte: number;
  /** The first page (&limit=), asked for before the whole list: when it was in (ms since navigation start) and its server time */
  page?: { at: number; server: number };
}

/**
 * Read in the data worker, which asks for the compact list: the list's first page (&limit=), then,
 * once it is in, the whole list. A request in flight has no entry yet, so this answers nothing
 * until the whole list is in. A fleet no bigger than a page is answered by the page alone and the
 * whole list is never asked for: on such a side (`pageIsWhole`) the page is the list. The lead's
 * minute refresh (&since=) is not the list's load.
 * A string, not a function: tsx compiles the bench with esbuild's keepNames, which wraps a
 * function's named inner functions in __name(), a helper the worker lacks (the pages get one from
 * PROBES; a worker runs no init script), so such a call threw and read nothing.
 */
const listEntry = (pageIsWhole: boolean) => `(() => {
  const entries = performance.getEntriesByType('resource').filter((x) => x.name.includes('/sensors?view=summary') && !x.name.includes('since='));
  const whole = entries.find((x) => !x.name.includes('limit='));
  const first = entries.find((x) => x.name.includes('limit='));
  if (!whole && !(${pageIsWhole} && first && first.responseStart > 0)) return undefined;
  const e = whole ?? first;
  const total = (x) => x.serverTiming.find((s) => s.name === 'total')?.duration ?? NaN;
  return {
    origin: performance.timeOrigin,
    encoded: e.encodedBodySize,
    decoded: e.decodedBodySize,
    server: total(e),
    steps: e.serverTiming.map((s) => s.name + ' ' + s.duration.toFixed(0)).join(', '),
    times: [e.startTime, e.responseStart, e.responseEnd],
    page: whole && first ? [first.responseEnd, total(first)] : undefined,
  };
})()`;

/** The compact list's request as the data worker made it: bytes on the wire (body), decoded, Server-Timing, and when it was sent and answered. */
async function listRequest(page: Page, pageIsWhole = false): Promise<ListRequest> {
  const origin = await page.evaluate(() => performance.timeOrigin);
  const until = Date.now() + 180_000;
  while (Date.now() < until) {
    for (const w of page.workers()) {
      const r = (await w.evaluate(listEntry(pageIsWhole)).catch(() => undefined)) as
        | { origin: number; encoded: number; decoded: number; server: number; steps: string; times: number[]; page?: [number, number] }
        | undefined;
      if (r) {
        const [sent, firstByte, lastByte] = r.times.map((t) => r.origin + t - origin);
        const page = r.page && { at: r.origin + r.page[0] - origin, server: r.page[1] };
        return { encoded: r.encoded, decoded: r.decoded, server: r.server, steps: r.steps, sent, firstByte, lastByte, page };
      }
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the compact list's request did not finish in 180 s in the workers of ${page.url()}`);
}

/** Where a page's first rows waited: the list's request sent, answered, downloaded, then drawn (ms since navigation start). */
const timeline = (p: SensorsPage) =>
  `${p.list.page ? `first page in at ${p.list.page.at.toFixed(0)} (server ${p.list.page.server.toFixed(0)} ms), ` : ''}list sent at ${p.list.sent.toFixed(0)}, first byte ${p.list.firstByte.toFixed(0)}, last byte ${p.list.lastByte.toFixed(0)}, rows drawn ${p.firstRows.toFixed(0)} (server: ${p.list.steps})`;

interface SensorsPage {
  firstRows: number;
  long: { load: number[]; scroll: number[]; search: number[] };
  search: number[];
  clear: number[];
  list: ListRequest;
  heap?: { main: number; workers: number };
}

/** The sensors page opened by navigation: first rows drawn; then (full) the load's tasks, a scroll, the searches, the heap. */
async function sensorsPage(browser: Browser, side: Side, full: boolean, heap: boolean, label: string): Promise<SensorsPage> {
  const page = await openTab(browser, side);
  try {
    let firstRows = NaN;
    const loading = async () => {
      await page.goto(`${side.url}${ORG}/sensors`, { waitUntil: 'commit' });
      firstRows = await seen(page, 'rows');
      // the load's work after the first rows (the search index built in the worker, the rest drawn) within a second
      await page.evaluate(() => new Promise((r) => setTimeout(r, 1_000)));
    };
    if (full && PROFILE) await profileMainThread(page, `${label} load`, async (start) => (await start(), await loading()));
    else if (TRACE) await traceLongTasks(page, `${label} load`, async (start) => (await start(), await loading()), 50);
    else await loading();
    const list = await listRequest(page, side.pageIsWhole);
    // every page's load is a sample of its tasks; the scroll and the searches are the full page's
    const out: SensorsPage = { firstRows, long: { load: await longSince(page, 0), scroll: [], search: [] }, search: [], clear: [], list };
    if (!full) return out;
    let t = await page.evaluate(() => performance.now());
    const scrolling = () => scroll(page);
    if (PROFILE) await profileMainThread(page, `${label} scroll`, async (start) => (await start(), await scrolling()));
    else await scrolling();
    out.long.scroll = await longSince(page, t);
    t = await page.evaluate(() => performance.now());
    const searching = async () => {
      for (const q of QUERIES) {
        out.search.push(await searchTo(page, q));
        out.clear.push(await searchTo(page, ''));
      }
    };
    if (PROFILE) await profileMainThread(page, `${label} search`, async (start) => (await start(), await searching()));
    else await searching();
    out.long.search = await longSince(page, t);
    await proveObserver(page);
    if (heap) out.heap = await heapUsed(browser, page);
    return out;
  } finally {
    await page.context().close();
  }
}

/** A page opened by navigation until its probe fires (ms since navigation start), with the long tasks meanwhile and a second after. */
async function firstOn(browser: Browser, side: Side, path: string, probe: string): Promise<{ ms: number; long: number[]; list?: ListRequest }> {
  const page = await openTab(browser, side);
  try {
    let ms = NaN;
    const loading = async () => {
      await page.goto(`${side.url}${ORG}${path}`, { waitUntil: 'commit' });
      ms = await seen(page, probe);
      await page.evaluate(() => new Promise((r) => setTimeout(r, 1_000)));
    };
    if (PROFILE) await profileMainThread(page, `${path} load`, async (start) => (await start(), await loading()));
    else if (TRACE) await traceLongTasks(page, `${path} load`, async (start) => (await start(), await loading()), 50);
    else await loading();
    const long = await longSince(page, 0);
    await proveObserver(page);
    return { ms, long, list: path === '/map' ? await listRequest(page, side.pageIsWhole) : undefined };
  } finally {
    await page.context().close();
  }
}

/**
 * The floor of "no task over 50 ms" in this browser on this machine: React DOM alone, built by the
 * product's bundler (Vite, minified, production), its module preloaded (compiled as it arrives, as
 * the product's chunks are) and then evaluated, in one task, a module being the smallest unit a
 * browser evaluates. Every page of the product evaluates it; no React page can have a longest task
 * shorter than this one. Served at the product's origin (Playwright's routing, for these two
 * requests alone), in a fresh tab with the same probes as every other page.
 */
let reactDomModule: string | undefined;
async function reactDomAlone(browser: Browser, side: Side): Promise<number> {
  if (!reactDomModule) {
    // a virtual entry, as benchmarks 5 and 7 build theirs, resolved from the project's root: the product's own React DOM
    const entry = `import { createRoot } from 'react-dom/client';\nglobalThis.__reactDom = createRoot;\n`;
    const out = (await viteBuild({
      root: process.cwd(),
      configFile: false,
      logLevel: 'silent',
      mode: 'production',
      plugins: [{ name: 'bench-entry', resolveId: (id) => (id === 'bench-entry' ? '\0bench-entry' : null), load: (id) => (id === '\0bench-entry' ? entry : null) }],
      build: { write: false, modulePreload: false, minify: true, rollupOptions: { input: 'bench-entry' } },
    })) as Rollup.RollupOutput | Rollup.RollupOutput[];
    const chunks = (Array.isArray(out) ? out : [out]).flatMap((o) => o.output).filter((c) => c.type === 'chunk');
    if (chunks.length !== 1) throw new Error(`React DOM alone built as ${chunks.length} chunks, not one`);
    reactDomModule = chunks[0].code;
    process.stderr.write(`  React DOM alone: one module of ${kB(reactDomModule.length)}\n`);
  }
  const page = await openTab(browser, side);
  try {
    const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>React DOM alone</title><link rel="modulepreload" href="/__bench/react-dom-alone.js"><script type="module">setTimeout(() => import('/__bench/react-dom-alone.js').then(() => { window.__evaluated = performance.now(); }), 500);</script></head><body></body></html>`;
    await page.route(`${side.url}/__bench/react-dom-alone.html`, (r) => r.fulfill({ contentType: 'text/html; charset=utf-8', body: html }));
    await page.route(`${side.url}/__bench/react-dom-alone.js`, (r) => r.fulfill({ contentType: 'text/javascript; charset=utf-8', body: reactDomModule }));
    await page.goto(`${side.url}/__bench/react-dom-alone.html`, { waitUntil: 'commit' });
    await page.evaluate(() => new Promise<void>((resolve) => { const check = () => ((window as unknown as { __evaluated?: number }).__evaluated ? setTimeout(resolve, 500) : setTimeout(check, 50)); check(); }));
    const long = await longSince(page, 0);
    await proveObserver(page);
    return Math.max(0, ...long);
  } finally {
    await page.context().close();
  }
}

type MapPage = Awaited<ReturnType<typeof firstOn>>;
const mapLine = (m: MapPage) => `list sent at ${m.list!.sent.toFixed(0)}, last byte ${m.list!.lastByte.toFixed(0)}, first sensors drawn at ${m.ms.toFixed(0)} ms, tasks over 50 ms ${fmt(m.long.filter((d) => d > 50)) || 'none'}`;

/** The map page's rows: navigation to the first sensors drawn, and the longest main-thread task until a second after. */
function mapRows(size: string, maps: MapPage[]): BenchRow[] {
  const long = maps.flatMap((m) => m.long);
  return [
    {
      bench: '22 fleet',
      what: `map page at ${size}: navigation to the first sensors drawn vs 2,000 ms (${maps.length} pages)`,
      ours: median(maps.map((m) => m.ms)),
      baseline: 2_000,
      target: { kind: 'cost', value: 1 },
      note: fmt(maps.map((m) => m.ms)),
    },
    {
      bench: '22 fleet',
      what: `map page at ${size}: longest main-thread task to a second after the first sensors (ms; ${long.filter((d) => d > 50).length} over 50 ms)`,
      ours: Math.max(0, ...long),
      baseline: 50,
      target: { kind: 'cost', value: 1 },
      note: fmt(long.filter((d) => d > 50)) || 'none over 50 ms',
    },
  ];
}

/** A page's time in tasks over 50 ms (the line every long-task row draws). */
const timeOver50 = (long: number[]) => long.filter((d) => d > 50).reduce((a, b) => a + b, 0);
/** React DOM alone's longest tasks as a note says them (0: the observer saw none over 50 ms). */
const floorText = (floors: number[]) => (floors.some((f) => f > 0) ? `${fmt(floors)} ms` : 'none over 50 ms');

/** The map page's long tasks at 10,000 beside the demo's 10: how much of them the fleet's size adds. */
function mapTasksRow(ten: MapPage[], demo: MapPage[]): BenchRow {
  const time = (ms: MapPage[]) => ms.map((m) => timeOver50(m.long));
  return {
    bench: '22 fleet',
    what: `map page at 10,000 vs the demo's ${DEMO}: time in tasks over 50 ms to a second after the first sensors, medians of ${ten.length} pages each, interleaved`,
    ours: median(time(ten)),
    baseline: median(time(demo)),
    target: null,
    reportAs: 'cost',
    note: `10,000: ${fmt(time(ten))} ms (longest ${fmt(ten.map((m) => Math.max(0, ...m.long)))}); 10: ${fmt(time(demo))} ms (longest ${fmt(demo.map((m) => Math.max(0, ...m.long)))})`,
  };
}

/** A free port (PostgreSQL needs PUBLIC_URL, the address tokens name, before the server listens). */
async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const { port } = srv.address() as AddressInfo;
  await new Promise((r) => srv.close(r));
  return port;
}

/**
 * Live: `rate` uplinks a second over HTTP for `seconds` from ingest's generator (its own process)
 * over 10,000 of the fleet's n sensors, every (n / 10,000)th, with the sensors page open; every 5 s
 * one more to the third row on screen, timed from its send to the frame its new level shows in.
 * Returns the long tasks meanwhile, those times, the uplinks sent, the rate acked and the failures.
 */
async function live(browser: Browser, side: Side, db: Queryable, n: number, rate: number, seconds: number) {
  const secret = (await db.query<{ value: string }>(`SELECT value FROM app_meta WHERE key = 'demo_device_secret'`))[0]!.value;
  const page = await openTab(browser, side);
  try {
    await page.goto(`${side.url}${ORG}/sensors`, { waitUntil: 'commit' });
    await seen(page, 'rows');
    await page.evaluate(() => new Promise((r) => setTimeout(r, 2_000))); // the organisation's live subscription settles
    const visible = (await page.locator('[role=list][aria-label=Sensors] [aria-posinset="3"][data-serial]').getAttribute('data-serial'))!;
    const { offset } = (await db.query<{ offset: number }>(`SELECT (display_info->>'offsetMeasurement')::float8 AS offset FROM sensors WHERE serial = $1`, [visible]))[0]!;
    const send = (serial: string, rawDistance: number) =>
      fetch(`${side.url}/ingest/uplink`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Device-Key': deriveDeviceKey(secret, serial) },
        body: JSON.stringify({ serial, measurements: [{ time: Date.now(), rawDistance }] }),
      }).then((r) => void r.body?.cancel());
    // the load from ingest's generator in a process of its own (open loop, over HTTP), 10,000 sensors spread over the fleet
    const step = Math.max(1, Math.floor(n / 10_000));
    const sensors = Array.from({ length: Math.floor(n / step) }, (_, j) => fleetSerial(1 + j * step)).map((serial) => ({ serial, key: deriveDeviceKey(secret, serial) }));
    const gen = await generator();
    const t0 = await page.evaluate(() => performance.now());
    const shown: number[] = [];
    const start = Date.now();
    // the visible row's probes run beside the load, which never waits for them
    const probes = (async () => {
      for (let at = 5_000; at < seconds * 1000; at += 5_000) {
        await new Promise((r) => setTimeout(r, start + at - Date.now()));
        const mm = 1_000 + shown.length * 111;
        await page.evaluate(
          ([serial, text]) => {
            const w = window as unknown as { liveShown?: number };
            w.liveShown = undefined;
            // told of the list's changes, not polling it each frame: the probe adds no work of its own to the frames it measures
            const list = document.querySelector('[role=list][aria-label=Sensors]')!;
            const seen = new MutationObserver(() => {
              if (!list.querySelector(`[data-serial="${serial}"]`)?.textContent?.includes(text)) return;
              w.liveShown = Date.now();
              seen.disconnect();
            });
            seen.observe(list, { subtree: true, childList: true, characterData: true });
          },
          [visible, `${(mm / 1000).toFixed(3)} m`] as const,
        );
        const sentAt = Date.now();
        void send(visible, offset - mm);
        const got = await page
          .waitForFunction(() => (window as unknown as { liveShown?: number }).liveShown, null, { polling: 50, timeout: 10_000 })
          .then(() => page.evaluate(() => (window as unknown as { liveShown: number }).liveShown))
          .catch(() => NaN);
        shown.push(got - sentAt);
      }
    })();
    const job = {
      port: Number(new URL(side.url).port),
      sensors,
      rate,
      seconds,
      warmupSeconds: 0,
      dataStart: Date.now() - 10 * 60_000,
      seq: sensors.map(() => 0),
    };
    let load!: LoadResult;
    if (PROFILE) await profileMainThread(page, `live at ${n.toLocaleString('en-GB')}`, async (begin) => {
      await begin();
      load = await gen.run(job);
    });
    else load = await gen.run(job);
    const elapsed = (Date.now() - start) / 1000;
    await probes;
    const long = await longSince(page, t0);
    await proveObserver(page);
    return { long, shown, sent: load.sent, rate: (load.completedInWindow / load.windowMs) * 1000, errors: load.errors.length + load.unanswered, seconds: elapsed, visible };
  } finally {
    await page.context().close();
  }
}

/** The live phase's rows (none when it was skipped). */
function liveRows(lv: Awaited<ReturnType<typeof live>> | undefined, size: string): BenchRow[] {
  if (!lv) return [];
  process.stderr.write(`  live at ${size}: ${lv.sent.toLocaleString('en-GB')} uplinks in ${lv.seconds.toFixed(1)} s, ${lv.rate.toFixed(0)}/s acked, ${lv.errors} failed or unanswered; row ${lv.visible} showed its new level after ${fmt(lv.shown)} ms; tasks over 50 ms ${fmt(lv.long.filter((d) => d > 50)) || 'none'}\n`);
  return [
    {
      bench: '22 fleet',
      what: `live: ${LIVE_RATE.toLocaleString('en-GB')} uplinks/s over the fleet for ${LIVE_SECONDS} s, sensors page open at ${size}: longest main-thread task (ms; ${lv.long.filter((d) => d > 50).length} over 50 ms)`,
      ours: Math.max(0, ...lv.long),
      baseline: 50,
      target: { kind: 'cost', value: 1 },
      note: `${lv.sent.toLocaleString('en-GB')} sent, ${lv.rate.toFixed(0)}/s acked, ${lv.errors} failed or unanswered`,
    },
    {
      bench: '22 fleet',
      what: `live: a visible row's new level on screen after its uplink, slowest of ${lv.shown.length}, vs 2,000 ms`,
      ours: Math.max(...lv.shown.map((x) => (Number.isNaN(x) ? Infinity : x))),
      baseline: 2_000,
      target: { kind: 'cost', value: 1 },
      note: `${fmt(lv.shown)} ms`,
    },
  ];
}

async function startSide(browser: Browser, db: ScratchDatabase) {
  const port = await freePort();
  const server = await startYearServer({
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    HOST: '127.0.0.1',
    DATABASE_URL: db.url,
    SEED_DEMO: 'true',
    DEMO_MODE: 'true',
    SIMULATOR: 'false',
    LOG_LEVEL: 'warn',
    ...(process.env.STATIC_DIR ? { STATIC_DIR: process.env.STATIC_DIR } : {}),
  });
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, server.url, 'owner@demo.test');
  const storage = await context.storageState();
  await context.close();
  return { server, side: { url: server.url, storage } as Side };
}

/** BENCH_FLEET_ONLY=map: the map page with the demo's 10 sensors and with 10,000 (then 100,000), interleaved. */
async function onlyMaps(browser: Browser, demo: Side, fleet: Side, seed: (sensors: number, notifications: number) => Promise<number>, load: (what: string) => void, loads: string[], db: { close(): Promise<void> }): Promise<BenchRow[]> {
  await firstOn(browser, fleet, '/map', 'map');
  const small: MapPage[] = [];
  const ten: MapPage[] = [];
  for (let i = 0; i < RUNS; i++) {
    small.push(await firstOn(browser, demo, '/map', 'map'));
    ten.push(await firstOn(browser, fleet, '/map', 'map'));
    process.stderr.write(`  map page ${i + 1}: 10 sensors: ${mapLine(small[i])}; 10,000: ${mapLine(ten[i])}\n`);
  }
  load('after the map at 10,000');
  const rows: BenchRow[] = [...mapRows(`the demo's ${DEMO}`, small), ...mapRows('10,000', ten), mapTasksRow(ten, small)];
  if (MAX >= 100_000) {
    await seed(100_000, 0);
    load('after seeding 100,000');
    const hundred: MapPage[] = [];
    for (let i = 0; i < RUNS; i++) {
      hundred.push(await firstOn(browser, fleet, '/map', 'map'));
      process.stderr.write(`  map page at 100,000, ${i + 1}: ${mapLine(hundred[i])}\n`);
    }
    load('after the map at 100,000');
    rows.push(...mapRows('100,000', hundred));
  }
  await db.close();
  process.stderr.write(`  load average (1 min): ${loads.join('; ')}\n`);
  return rows;
}

export async function run(): Promise<BenchRow[]> {
  const loads: string[] = [];
  const load = (what: string) => loads.push(`${what} ${loadavg()[0].toFixed(1)}`);
  load('start');
  const dir = mkdtempSync(join(tmpdir(), 'tw-bench22-'));
  const dbs: ScratchDatabase[] = [await scratchPostgres(ADMIN_URL, 'bench_fleet_demo'), await scratchPostgres(ADMIN_URL, 'bench_fleet')];
  const browser = await chromium.launch(CHROMIUM_LAUNCH);
  const servers: Awaited<ReturnType<typeof startSide>>[] = [];
  try {
    const demo = await startSide(browser, dbs[0]);
    demo.side.pageIsWhole = true;
    servers.push(demo);
    const fleet = await startSide(browser, dbs[1]);
    servers.push(fleet);
    const db = await openDb({ databaseUrl: dbs[1].url });
    const seed = async (sensors: number, notifications: number) => {
      const t = performance.now();
      const r = await seedFleet(db, { sensors, notifications });
      const ms = performance.now() - t;
      process.stderr.write(`  seeded ${r.sensorsAdded.toLocaleString('en-GB')} sensors and ${r.notificationsAdded.toLocaleString('en-GB')} notifications in ${(ms / 1000).toFixed(1)} s (fleet now ${r.fleetSensors.toLocaleString('en-GB')})\n`);
      return ms;
    };
    const seed10 = await seed(10_000, 0);
    if (ONLY_MAP) return await onlyMaps(browser, demo.side, fleet.side, seed, load, loads, db);

    // the demo's 10 sensors and 10,000, interleaved, a fresh tab each (and one of each before, a warm-up)
    await sensorsPage(browser, demo.side, false, false, 'warm-up');
    await sensorsPage(browser, fleet.side, false, false, 'warm-up');
    const small: SensorsPage[] = [];
    const ten: SensorsPage[] = [];
    /** React DOM alone, a page between each pair: the floor of every page's longest task. */
    const floor: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      small.push(await sensorsPage(browser, demo.side, false, false, `demo ${i + 1}`));
      ten.push(await sensorsPage(browser, fleet.side, i === 0, false, `10,000 ${i + 1}`));
      floor.push(await reactDomAlone(browser, fleet.side));
      process.stderr.write(`  sensors page ${i + 1}: 10 sensors: ${timeline(small[i])}; 10,000: ${timeline(ten[i])}; React DOM alone: longest task ${floorText([floor[i]])}\n`);
    }
    load('after 10,000');
    const switchDemo = await switching(browser, demo.side);
    const switchTen = await switching(browser, fleet.side);
    process.stderr.write(`  switching dashboards: 10 sensors ${fmt(switchDemo.ms)} ms (tasks over 50 ms ${fmt(switchDemo.long.filter((d) => d > 50)) || 'none'}); 10,000 ${fmt(switchTen.ms)} ms (${fmt(switchTen.long.filter((d) => d > 50)) || 'none'})\n`);
    // the map with the demo's 10 beside: what the map libraries cost in this browser whatever the fleet (SwiftShader's WebGL here)
    const mapsTen: MapPage[] = [];
    const mapsDemo: MapPage[] = [];
    for (let i = 0; i < RUNS; i++) {
      mapsDemo.push(await firstOn(browser, demo.side, '/map', 'map'));
      mapsTen.push(await firstOn(browser, fleet.side, '/map', 'map'));
      process.stderr.write(`  map page ${i + 1}: 10 sensors: ${mapLine(mapsDemo[i])}; 10,000: ${mapLine(mapsTen[i])}\n`);
    }
    load('after the map at 10,000');
    await demo.server.stop();
    servers.shift();
    const tenList = ten[0].list;
    const rows: BenchRow[] = [
      {
        bench: '22 fleet',
        what: `sensors page, navigation to the first rows drawn: 10,000 sensors vs the demo's ${DEMO} (PostgreSQL, fresh tab each, ${RUNS} pages each, interleaved)`,
        ours: median(ten.map((p) => p.firstRows)),
        baseline: median(small.map((p) => p.firstRows)),
        target: { kind: 'cost', value: 1.5 },
        note: `10,000: ${fmt(ten.map((p) => p.firstRows))}; 10: ${fmt(small.map((p) => p.firstRows))}`,
      },
      {
        bench: '22 fleet',
        what: `the compact list at 10,000 sensors: server time to the first rows (ms, Server-Timing; the rest streams after) vs the demo's ${DEMO}`,
        ours: median(ten.map((p) => p.list.server)),
        baseline: median(small.map((p) => p.list.server)),
        target: null,
        reportAs: 'cost',
        note: `${kB(tenList.encoded)} on the wire (${kB(tenList.decoded)} decoded); 10 sensors: ${kB(small[0].list.encoded)}`,
      },
    ];
    /** Every page's load (a page's tasks over 50 ms, pages apart by |), and the first page's scroll and searches. */
    const tasksRows = (size: string, pages: SensorsPage[], floors: number[]): BenchRow[] => {
      const [p] = pages;
      const all = [...pages.flatMap((q) => q.long.load), ...p.long.scroll, ...p.long.search];
      const longest = pages.map((q) => Math.max(0, ...q.long.load));
      return [
        {
          bench: '22 fleet',
          what: `sensors page at ${size}: longest main-thread task while it loads (${pages.length} pages), scrolls and searches (ms; ${all.filter((d) => d > 50).length} tasks over 50 ms)`,
          ours: Math.max(0, ...all),
          baseline: 50,
          target: { kind: 'cost', value: 1 },
          note: `load ${pages.map((q) => fmt(q.long.load) || 'none').join(' | ')}; scroll ${fmt(p.long.scroll) || 'none'}; search ${fmt(p.long.search) || 'none'}; React DOM alone ${floorText(floors)}`,
        },
        {
          bench: '22 fleet',
          // the observer reports only tasks over 50 ms: a floor under that line (0) is compared as 50 ms
          what: `sensors page at ${size}: each load's longest task vs React DOM alone's (its module preloaded, then evaluated: the one task every React page has; 50 ms when it had none over 50 ms), medians of ${pages.length} pages each, interleaved`,
          ours: median(longest),
          baseline: Math.max(median(floors), 50),
          target: null,
          reportAs: 'cost',
          note: `sensors page ${fmt(longest)} (0: none over 50 ms); React DOM alone ${floorText(floors)}`,
        },
      ];
    };
    // the loads' tasks over 50 ms beside the demo's: what the fleet's size adds to them
    const over = (pages: SensorsPage[]) => pages.map((q) => timeOver50(q.long.load));
    const loadsRow: BenchRow = {
      bench: '22 fleet',
      what: `sensors page at 10,000 vs the demo's ${DEMO}: time in tasks over 50 ms while it loads, medians of ${RUNS} pages each, interleaved`,
      ours: median(over(ten)),
      baseline: Math.max(median(over(small)), 50),
      target: null,
      reportAs: 'cost',
      note: `10,000: ${ten.map((q) => fmt(q.long.load.filter((d) => d > 50)) || 'none').join(' | ')}; 10: ${small.map((q) => fmt(q.long.load.filter((d) => d > 50)) || 'none').join(' | ')} (a median of none is compared as 50 ms)`,
    };
    rows.push(...tasksRows('10,000', ten, floor), loadsRow, switchingRow('10,000', switchTen, switchDemo), ...mapRows('10,000', mapsTen), mapTasksRow(mapsTen, mapsDemo));
    if (MAX < 100_000) {
      if (LIVE_SECONDS > 0) rows.push(...liveRows(await live(browser, fleet.side, db, 10_000, LIVE_RATE, LIVE_SECONDS), '10,000'));
      await db.close();
      process.stderr.write(`  load average (1 min): ${loads.join('; ')}\n`);
      return rows;
    }

    const seed100 = await seed(100_000, 100_000);
    if (PROFILE) await explainSummary(db, (await db.query<{ id: string }>(`SELECT id FROM organisations WHERE slug = 'riverbend-water'`))[0].id);
    load('after seeding 100,000');
    await sensorsPage(browser, fleet.side, false, false, 'warm-up');
    const hundred: SensorsPage[] = [];
    const floorHundred: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      hundred.push(await sensorsPage(browser, fleet.side, i === 0, i === 0, `100,000 ${i + 1}`));
      floorHundred.push(await reactDomAlone(browser, fleet.side));
      process.stderr.write(`  sensors page at 100,000, ${i + 1}: ${timeline(hundred[i])}; React DOM alone: longest task ${floorText([floorHundred[i]])}\n`);
    }
    const h = hundred[0];
    const switchHundred = await switching(browser, fleet.side);
    process.stderr.write(`  switching dashboards at 100,000: ${fmt(switchHundred.ms)} ms (tasks over 50 ms ${fmt(switchHundred.long.filter((d) => d > 50)) || 'none'})\n`);
    process.stderr.write(`  search at 100,000 (ms from the input to the list changed): ${QUERIES.map((q, i) => `"${q}" ${h.search[i].toFixed(0)}, cleared ${h.clear[i].toFixed(0)}`).join('; ')}\n`);
    load('after the sensors page at 100,000');
    const maps: Awaited<ReturnType<typeof firstOn>>[] = [];
    const cards: Awaited<ReturnType<typeof firstOn>>[] = [];
    for (let i = 0; i < RUNS; i++) {
      maps.push(await firstOn(browser, fleet.side, '/map', 'map'));
      cards.push(await firstOn(browser, fleet.side, '/notifications', 'cards'));
      process.stderr.write(`  map page ${i + 1}: ${mapLine(maps[i])}; notifications page: first cards at ${cards[i].ms.toFixed(0)} ms, tasks over 50 ms ${fmt(cards[i].long.filter((d) => d > 50))}\n`);
    }
    const [{ n: notifications }] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM notifications`);
    load('before the live phase');
    const lv = LIVE_SECONDS > 0 ? await live(browser, fleet.side, db, 100_000, LIVE_RATE, LIVE_SECONDS) : undefined;
    load('end');
    await db.close();
    const hList = h.list;
    const search = median(h.search);
    rows.push(
      {
        bench: '22 fleet',
        what: `sensors page at 100,000 sensors: navigation to the first rows drawn vs 1,500 ms (${RUNS} pages)`,
        ours: median(hundred.map((p) => p.firstRows)),
        baseline: 1_500,
        target: { kind: 'cost', value: 1 },
        note: fmt(hundred.map((p) => p.firstRows)),
      },
      ...tasksRows('100,000', hundred, floorHundred),
      switchingRow('100,000', switchHundred, switchDemo),
      {
        bench: '22 fleet',
        what: `search at 100,000: input to the list updated, less the spec's ${SEARCH_DEBOUNCE_MS} ms debounce, median of ${QUERIES.length} queries vs 100 ms`,
        ours: search - SEARCH_DEBOUNCE_MS,
        baseline: 100,
        target: { kind: 'cost', value: 1 },
        note: `with the debounce ${fmt(h.search)} ms; clearing ${fmt(h.clear)} ms`,
      },
      {
        bench: '22 fleet',
        what: `JS heap with 100,000 sensors loaded, after a collection, page and workers (MiB) vs 200 MiB`,
        ours: (h.heap!.main + h.heap!.workers) / 2 ** 20,
        baseline: 200,
        target: { kind: 'cost', value: 1 },
        note: `main thread ${MB(h.heap!.main)}, workers ${MB(h.heap!.workers)}`,
      },
      {
        bench: '22 fleet',
        what: `the whole compact list at 100,000 sensors: request sent to last byte (ms, the data worker's resource timing) vs at 10,000`,
        ours: median(hundred.map((p) => p.list.lastByte - p.list.sent)),
        baseline: median(ten.map((p) => p.list.lastByte - p.list.sent)),
        target: null,
        reportAs: 'cost',
        note: `${kB(hList.encoded)} on the wire (${kB(hList.decoded)} decoded); first byte after ${fmt(hundred.map((p) => p.list.firstByte - p.list.sent))} ms, server time to the first rows ${fmt(hundred.map((p) => p.list.server))} ms`,
      },
      ...mapRows('100,000', maps),
      {
        bench: '22 fleet',
        what: `notifications page, ${notifications.toLocaleString('en-GB')} notifications: navigation to the first cards vs 1,000 ms (${RUNS} pages)`,
        ours: median(cards.map((c) => c.ms)),
        baseline: 1_000,
        target: { kind: 'cost', value: 1 },
        note: fmt(cards.map((c) => c.ms)),
      },
      {
        bench: '22 fleet',
        what: `notifications page: longest main-thread task to a second after the first cards (ms; ${cards.flatMap((c) => c.long).filter((d) => d > 50).length} over 50 ms)`,
        ours: Math.max(0, ...cards.flatMap((c) => c.long)),
        baseline: 50,
        target: { kind: 'cost', value: 1 },
      },
      ...liveRows(lv, '100,000'),
      {
        bench: '22 fleet',
        what: `seeding (seedFleet on PostgreSQL): 100,000 sensors and 100,000 notifications vs 60 s`,
        ours: seed100 + seed10,
        baseline: 60_000,
        target: null,
        reportAs: 'cost',
        note: `10,000 sensors ${(seed10 / 1000).toFixed(1)} s, then the rest ${(seed100 / 1000).toFixed(1)} s`,
      },
    );
    process.stderr.write(`  load average (1 min): ${loads.join('; ')}\n`);
    return rows;
  } finally {
    await browser.close();
    for (const s of servers) await s.server.stop();
    for (const d of dbs) await d.drop().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }
}
