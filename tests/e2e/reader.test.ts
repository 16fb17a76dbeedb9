import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { expectAccessible, launchBrowser, signIn } from './browser';
import { startOwnDemoServer } from './session';
import type { TestServer } from '../server/harness';

const SHOTS = 'test-results/e2e';

/**
 * The meter reader's app (/reader/, issue 33) against a product of this file's own (demo world, no
 * simulated reader, so nothing but the browser records the readings of Rangi Reader's tasks).
 * Harbour City Council's seeded tasks: 1004 KAR-04 waiting and assigned to reader@demo.test,
 * 1005 MIR-05 waiting and unassigned.
 */
describe('the meter reader app in the browser (issue 33)', () => {
  let s: TestServer;
  let browser: Browser;
  let harbour: string;

  beforeAll(async () => {
    s = await startOwnDemoServer();
    harbour = (await s.ctx.db.query<{ id: string }>(`SELECT id FROM organisations WHERE slug = 'harbour-city-council'`))[0].id;
    browser = await launchBrowser();
  }, 300_000);
  afterAll(async () => {
    await browser?.close();
    await s?.close();
  });

  /** A phone-sized page of its own context, signed in as the demo meter reader, in the reader app. */
  async function reader(): Promise<Page> {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    page.setDefaultTimeout(30_000);
    await signIn(page, s.url, 'reader@demo.test');
    await page.waitForURL((u) => u.pathname === '/reader/');
    await page.getByRole('heading', { level: 1, name: 'My route tasks' }).waitFor();
    return page;
  }

  /** The service worker has installed and controls the page (clientsClaim: the first visit too). */
  const controlled = (page: Page) =>
    page.waitForFunction(() => navigator.serviceWorker.controller?.scriptURL.endsWith('/reader/sw.js') === true, null, { timeout: 120_000, polling: 250 });

  const previousOf = async (page: Page) => {
    const text = (await page.getByText(/^Previous reading: /).textContent()) ?? '';
    const m = /^Previous reading: ([\d,]+) /.exec(text);
    if (!m) throw new Error(`no previous reading in "${text}"`);
    return Number(m[1].replace(/,/g, ''));
  };

  const recorded = async (taskNumber: number) =>
    s.ctx.db.query<{ value: number | null; completed: boolean; address: string }>(
      `SELECT r.value::int AS value, r.completed, r.meter_info->>'propertyAddress' AS address FROM meter_readings r JOIN route_tasks t ON t.id = r.route_task_id
        WHERE t.org_id = $1 AND t.task_number = $2 AND r.completed ORDER BY r.sequence`,
      [harbour, taskNumber],
    );

  it('offline for real: the service worker controls /reader/, a reload with the network off boots from its precache and shows the downloaded task; an offline capture waits and is sent when the network returns', { timeout: 300_000 }, async () => {
    const page = await reader();
    await controlled(page);
    const card = page.getByTestId('task-1004');
    await card.getByRole('button', { name: 'Download', exact: true }).click();
    await card.getByText(/^Downloaded /).waitFor();

    await page.context().setOffline(true);
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'My route tasks' }).waitFor();
    await page.getByTestId('sync-panel').getByText('Offline', { exact: true }).waitFor();
    await card.getByText(/^Downloaded /).waitFor();
    await expect(card.getByRole('button', { name: /^Download/ }).count()).resolves.toBe(0); // the server's list is not known offline
    await expectAccessible(page, 'reader tasks, offline');
    await page.screenshot({ path: `${SHOTS}/reader-offline-tasks.png`, fullPage: true });

    // the walk and a plausible reading, with the network still off
    await card.getByRole('button', { name: 'Open' }).click();
    await page.getByRole('heading', { level: 1, name: 'Task 1004 · KAR-04' }).waitFor();
    const address = (await page.getByRole('heading', { level: 2 }).first().textContent())!;
    const value = (await previousOf(page)) + 2;
    await page.getByLabel('Reading', { exact: true }).fill(String(value));
    await page.getByTestId('consumption').getByText(/^Consumption 2 over /).waitFor();
    await expectAccessible(page, 'reader walk, offline');
    await page.getByRole('button', { name: 'Save reading' }).click();
    await page.getByTestId('sync-waiting').getByText('1 waiting').waitFor();
    expect(await recorded(1004)).toEqual([]);

    // the capture is on the device: another offline reload still has it waiting
    await page.reload();
    await page.getByTestId('sync-waiting').getByText('1 waiting').waitFor();
    expect(await recorded(1004)).toEqual([]);

    await page.context().setOffline(false);
    await page.getByTestId('sync-sent').getByText('1 sent').waitFor({ timeout: 60_000 });
    await page.getByTestId('sync-waiting').getByText('0 waiting').waitFor();
    expect(await recorded(1004)).toEqual([{ value, completed: true, address }]);
    await page.close();
  });
});
