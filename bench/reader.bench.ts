// Benchmark 20 (issue 33): the meter reader's app (/reader/) with a 1,000-reading route, in headless
// Chromium at a phone's size against the product's server in a process of its own (demo world on
// PGlite, as benchmark 6's). The route is imported through the import call and assigned to the demo
// reader; the reader signs in, and each phase is timed by real clicks and keys: the download (the
// task with its readings in one request, stored in IndexedDB) and opening the walk; the walk (next
// and previous, a search typed key by key and a result picked); recording (values saved, the queue
// sending each to the server and the downloaded copy updated from the answers). Target: no
// main-thread task over 50 ms in any phase (Chromium's longtask observer, proven first).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { CHROMIUM_LAUNCH, launchBrowser, signIn } from '../tests/e2e/browser';
import type { RouteImport } from '../src/contract/route.schema';
import type { BenchRow } from './bench-kit';
import { observeLongTasks, profileMainThread, traceLongTasks } from './chart-page';
import { startYearServer } from './chart-year.bench';

const N = 1_000;
const STREETS = ['Harbour View Road', 'Tide Street', 'Wharf Lane', 'Kelp Avenue', 'Shell Crescent', 'Pier Road', 'Estuary Drive', 'Mangrove Way'];
const NEXTS = 20;
const RECORDS = 10;

/** A council route of n meters on eight streets, each with a previous reading about a quarter ago. */
function route(n: number, now: number): RouteImport {
  return {
    routeName: 'BENCH-1000',
    group: 'Bench',
    iterationNumber: '1',
    readings: Array.from({ length: n }, (_, i) => ({
      sequence: (i + 1) * 10,
      ozoneNumber: `OZ${String(9_000_000 + i)}`,
      serial: `BM${String(i).padStart(6, '0')}`,
      valuationRef: `${20000 + i}/100.00`,
      propertyAddress: `${1 + (i % 125) * 2} ${STREETS[Math.floor(i / 125)]}`,
      ownerName: `Owner ${i + 1}`,
      location: 'Front boundary',
      additionalLocationInfo: i % 7 === 0 ? 'Behind the gate' : '',
      latitude: -41.29 + (i % 40) * 0.0004,
      longitude: 174.77 + Math.floor(i / 40) * 0.0004,
      importedPrevReading: { value: 1_000 + i * 3, date: now - 91 * 86_400_000 },
    })),
  };
}

/** Runs `act` (real clicks and keys), then returns the main-thread tasks that overlapped it (BENCH_TRACE=1: Chromium's trace of each over 30 ms; =profile: V8's profile of the main thread; on stderr). */
async function phase(page: Page, label: string, act: () => Promise<void>): Promise<number[]> {
  const t0 = await page.evaluate(() => performance.now());
  const during = async (start: () => Promise<void>) => (await start(), await act());
  if (process.env.BENCH_TRACE === 'profile') await profileMainThread(page, label, during);
  else if (process.env.BENCH_TRACE) await traceLongTasks(page, label, during);
  else await act();
  // a frame and a timer after the last step: a task it started has ended and been reported
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 100))));
  return page.evaluate((t) => (window as unknown as { longTasks: { start: number; duration: number }[] }).longTasks.filter((x) => x.start + x.duration >= t).map((x) => x.duration), t0);
}

export async function run(): Promise<BenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'tw-bench20-'));
  const server = await startYearServer({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: join(dir, 'db'), SIMULATOR: 'false', LOG_LEVEL: 'warn', ...(process.env.STATIC_DIR ? { STATIC_DIR: process.env.STATIC_DIR } : {}) });
  const browser = await launchBrowser(CHROMIUM_LAUNCH);
  try {
    const query = <T>(sql: string, params?: unknown[]) => server.ask<T[]>({ op: 'query', sql, params });
    const org = (await query<{ id: string }>(`SELECT id FROM organisations WHERE slug = 'harbour-city-council'`))[0];
    if (!org) throw new Error('the server seeded no demo world (no Harbour City Council)');
    const token = await server.ask<string>({ op: 'token', email: 'owner@demo.test' });
    // the import call as the route screen makes it (tests/e2e/session.ts's gateway helper imports vitest)
    const res = await fetch(`${server.url}/api/organisations/${org.id}/routes`, { method: 'POST', headers: { Authorization: token, 'Content-Type': 'application/json' }, body: JSON.stringify(route(N, Date.now())) });
    if (res.status !== 201) throw new Error(`the import answered ${res.status} ${await res.text()}`);
    const imported = (await res.json()) as { task: { id: string; taskNumber: number; totalReadings: number } };
    if (imported.task.totalReadings !== N) throw new Error(`the route was imported with ${imported.task.totalReadings} readings`);
    const task = { id: imported.task.id, task_number: imported.task.taskNumber };
    await query(`UPDATE route_tasks SET assigned_to = (SELECT id FROM users WHERE email = 'reader@demo.test') WHERE id = $1`, [task.id]);

    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
    await context.addInitScript({ content: 'globalThis.__name ??= (f) => f;' }); // tsx's keepNames inside page.evaluate
    const page = await context.newPage();
    page.setDefaultTimeout(120_000);
    await signIn(page, server.url, 'reader@demo.test');
    await page.waitForURL((u) => u.pathname === '/reader/');
    const card = page.getByTestId(`task-${task.task_number}`);
    await card.getByText(`${N} left`).waitFor();
    await page.evaluate(() => new Promise((r) => setTimeout(r, 1000))); // the service worker's precache settles
    await observeLongTasks(page);
    await page.evaluate(() => new Promise((r) => setTimeout(r, 200)));

    const position = page.getByText(/^\d+ of 1000 · sequence /);
    const at = async (n: number) => page.getByText(new RegExp(`^${n} of 1000 · sequence `)).waitFor();

    const download = await phase(page, 'download', async () => {
      await card.getByRole('button', { name: 'Download', exact: true }).click();
      await card.getByText(/^Downloaded /).waitFor();
      await card.getByRole('button', { name: 'Open' }).click();
      await at(1);
    });

    const walk = await phase(page, 'walk', async () => {
      for (let i = 0; i < NEXTS; i++) {
        await page.getByRole('button', { name: 'Next', exact: true }).click();
        await at(i + 2);
      }
      for (let i = 0; i < 3; i++) await page.getByRole('button', { name: 'Previous', exact: true }).click();
      await at(NEXTS - 2);
      // a search typed key by key, then a result far down the route picked
      await page.getByLabel('Search address or serial').pressSequentially('241 Estuary', { delay: 80 });
      await page.getByRole('button', { name: /^241 Estuary Drive · / }).click();
      await page.getByRole('heading', { level: 2, name: '241 Estuary Drive' }).waitFor();
      await page.getByLabel('Search address or serial').pressSequentially('BM000500', { delay: 80 });
      await page.getByRole('button', { name: /· BM000500$/ }).click();
      await at(501);
    });
    if (!(await position.textContent())?.startsWith('501 of 1000')) throw new Error('the walk is not at the picked meter');

    const record = await phase(page, 'record', async () => {
      for (let i = 0; i < RECORDS; i++) {
        await at(501 + i);
        const previous = 1_000 + (500 + i) * 3;
        await page.getByLabel('Reading', { exact: true }).pressSequentially(String(previous + 40 + i), { delay: 50 });
        await page.getByTestId('consumption').waitFor();
        await page.getByRole('button', { name: 'Save reading' }).click();
      }
      await page.getByTestId('sync-sent').getByText(`${RECORDS} sent`).waitFor();
      await page.getByTestId('sync-waiting').getByText('0 waiting').waitFor();
    });
    const [{ n }] = await query<{ n: number }>(`SELECT count(*)::int AS n FROM meter_readings WHERE route_task_id = $1 AND completed`, [task.id]);
    if (n !== RECORDS) throw new Error(`the server recorded ${n} readings, not ${RECORDS}`);
    await context.close();

    const row = (what: string, tasks: number[]): BenchRow => ({
      bench: '20 reader app',
      what: `${what}: longest main-thread task (ms; ${tasks.filter((d) => d > 50).length} of ${tasks.length} long tasks over 50 ms)`,
      ours: Math.max(0, ...tasks),
      baseline: 50,
      target: { kind: 'cost', value: 1 },
    });
    process.stderr.write(`  reader app long tasks (ms): download ${download.map((d) => d.toFixed(0)).join(' ') || 'none'}; walk ${walk.map((d) => d.toFixed(0)).join(' ') || 'none'}; record ${record.map((d) => d.toFixed(0)).join(' ') || 'none'}\n`);
    return [
      row(`download a ${N.toLocaleString('en-GB')}-reading task and open the walk`, download),
      row(`walk: next ${NEXTS} times, previous 3, two searches typed and picked`, walk),
      row(`record ${RECORDS} readings until the queue has sent them all`, record),
    ];
  } finally {
    await browser.close();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
