import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { CHROMIUM_LAUNCH, expectAccessible, launchBrowser, signIn } from './browser';
import { startNetworkLink, type NetworkLink } from './network-link';
import { startOwnDemoServer } from './session';
import type { TestServer } from '../server/harness';
import { ROUTE_MESSAGES } from '../../src/contract/route.schema';

const SHOTS = 'test-results/e2e';
const ROUTES = '/org/harbour-city-council/service-routes';
/** A real PNG for the camera input (the app scales it on the device to a JPEG). */
const PHOTO = 'public/reader/icon-512.png';

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
  /** The reader's pages reach the product only through this link (the owner's directly). */
  let link: NetworkLink;

  beforeAll(async () => {
    link = await startNetworkLink();
    s = await startOwnDemoServer();
    harbour = (await s.ctx.db.query<{ id: string }>(`SELECT id FROM organisations WHERE slug = 'harbour-city-council'`))[0].id;
    browser = await launchBrowser();
  }, 300_000);
  afterAll(async () => {
    await browser?.close();
    await s?.close();
    await link?.close();
  });

  async function owner(path: string): Promise<Page> {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
    page.setDefaultTimeout(30_000);
    await signIn(page, s.url, 'owner@demo.test');
    await page.goto(`${s.url}${path}`);
    return page;
  }

  /** A phone-sized page of its own context, signed in as the demo meter reader, in the reader app (at a GPS position when given); its network is `link`. */
  async function reader(at?: { latitude: number; longitude: number }): Promise<Page> {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 }, proxy: { server: link.proxy }, ...(at && { geolocation: at, permissions: ['geolocation'] }) });
    page.setDefaultTimeout(30_000);
    await signIn(page, s.url, 'reader@demo.test');
    await page.waitForURL((u) => u.pathname === '/reader/');
    await page.getByRole('heading', { level: 1, name: 'My route tasks' }).waitFor();
    return page;
  }

  /**
   * The network off (or on again) for a reader's page: the link cut, so nothing of the context
   * reaches the server, and the browser's offline emulation, which tells the app (navigator.onLine,
   * the offline and online events). The emulation with request interception was not enough: the
   * service worker's update check passed both on reloads offline (see network-link.ts).
   */
  const network = async (page: Page, on: boolean) => {
    if (on) {
      link.restore();
      await page.context().setOffline(false);
    } else {
      link.cut();
      await page.context().setOffline(true);
    }
  };
  const recordCalls = () => link.blocked.filter((r) => /^PUT \/api\/organisations\/[^/]+\/routes\/[^/]+\/meter-readings\/[^/]+\/record$/.test(r));

  /** In the owner's task list: select the task, Assign, choose Rangi Reader, and wait for the row to name him. */
  async function assignToReader(manager: Page, taskRow: Locator, taskNumber: number) {
    await manager.getByRole('checkbox', { name: `Select task ${taskNumber}` }).check();
    await manager.getByRole('button', { name: 'Assign', exact: true }).click();
    const dialog = manager.getByRole('dialog', { name: `Assign task ${taskNumber}` });
    await dialog.getByLabel('Assign to', { exact: true }).first().click({ force: true });
    await manager.getByRole('option', { name: 'Rangi Reader (Meter Reader)', exact: true }).click();
    await dialog.getByRole('button', { name: 'Assign' }).click();
    await expect.poll(() => manager.getByRole('dialog').count()).toBe(0);
    await taskRow.getByText('Rangi Reader').waitFor();
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

  /** The completed readings of a task as the device holds them (IndexedDB, the reader app's own database). */
  const downloadedReadings = (page: Page, taskNumber: string) =>
    page.evaluate(
      (n) =>
        new Promise<{ address: string; completed: boolean; value: number | null }[]>((resolve, reject) => {
          const open = indexedDB.open('tidewatch-reader');
          open.onerror = () => reject(open.error);
          open.onsuccess = () => {
            const all = open.result.transaction('tasks').objectStore('tasks').getAll();
            all.onsuccess = () => {
              type T = { task: { taskNumber: number }; readings: { completed: boolean; value: number | null; sequence: number; meterInfo: { propertyAddress: string } }[] };
              const t = (all.result as T[]).find((x) => String(x.task.taskNumber) === n);
              resolve((t?.readings ?? []).filter((r) => r.completed).sort((a, b) => a.sequence - b.sequence).map((r) => ({ address: r.meterInfo.propertyAddress, completed: r.completed, value: r.value })));
              open.result.close();
            };
          };
        }),
      taskNumber,
    );

  const recorded = async (taskNumber: number) =>
    s.ctx.db.query<{ value: number | null; completed: boolean; address: string }>(
      `SELECT r.value::int AS value, r.completed, r.meter_info->>'propertyAddress' AS address FROM meter_readings r JOIN route_tasks t ON t.id = r.route_task_id
        WHERE t.org_id = $1 AND t.task_number = $2 AND r.completed ORDER BY r.sequence`,
      [harbour, taskNumber],
    );

  it('offline for real: the service worker controls /reader/, a reload with the network off boots from its precache and shows the downloaded task; an offline capture waits; with a signal but no connection it is tried and kept, with its answer lost it is kept, and back online it is on the server once', { timeout: 300_000 }, async () => {
    const page = await reader({ latitude: -41.2847, longitude: 174.7378 }); // in Karori, among KAR-04's meters
    await controlled(page);
    const card = page.getByTestId('task-1004');
    await card.getByRole('button', { name: 'Download', exact: true }).click();
    await card.getByText(/^Downloaded /).waitFor();

    await network(page, false);
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
    // the nearest unread meter, its address and distance on the phone's width (wrapped, not cut off at the screen's edge)
    const nearest = page.getByRole('button', { name: /^Nearest unread \([\d,]+ m\): .+, Karori$/ });
    expect(await nearest.evaluate((b) => b.getBoundingClientRect().right <= window.innerWidth && [...b.querySelectorAll('span')].every((e) => e.scrollWidth <= e.clientWidth + 1))).toBe(true);
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

    // a phone that says it is online but has no connection: the app tries, the capture stays waiting
    await page.context().setOffline(false);
    await page.getByTestId('sync-panel').getByText('Online', { exact: true }).waitFor();
    await expect.poll(() => recordCalls().length).toBeGreaterThan(0);
    await page.getByTestId('sync-waiting').getByText('1 waiting').waitFor();
    expect(await recorded(1004)).toEqual([]);

    // the request reaches the server but the answer is lost: recorded once, and the capture waits to be sent again
    link.loseAnswers();
    await expect.poll(() => recorded(1004), { timeout: 60_000 }).toEqual([{ value, completed: true, address }]);
    await page.getByTestId('sync-waiting').getByText('1 waiting').waitFor();

    // the connection back: the capture is sent again with its idempotency key, which answers the first result: sent, on the server once
    link.restore();
    await page.getByTestId('sync-sent').getByText('1 sent').waitFor({ timeout: 60_000 });
    await page.getByTestId('sync-waiting').getByText('0 waiting').waitFor();
    expect(await page.getByTestId('sync-refused').count()).toBe(0);
    expect(await recorded(1004)).toEqual([{ value, completed: true, address }]);
    await page.close();
  });

  it("installable by Chromium's criteria: the DevTools protocol reports no installability error for /reader/ (a profile on disk: Chromium does not install from an incognito context, which every other test's is)", { timeout: 180_000 }, async () => {
    const profile = mkdtempSync(join(tmpdir(), 'tw-reader-profile-'));
    const context = await chromium.launchPersistentContext(profile, { ...CHROMIUM_LAUNCH, viewport: { width: 390, height: 844 } });
    try {
      const page = context.pages()[0] ?? (await context.newPage());
      page.setDefaultTimeout(30_000);
      await signIn(page, s.url, 'reader@demo.test');
      await page.waitForURL((u) => u.pathname === '/reader/');
      await controlled(page);
      const cdp = await context.newCDPSession(page);
      expect((await cdp.send('Page.getInstallabilityErrors')).installabilityErrors).toEqual([]);
      const manifest = await cdp.send('Page.getAppManifest');
      expect(manifest.errors).toEqual([]);
      expect(manifest.url).toBe(`${s.url}/reader/manifest.webmanifest`);
    } finally {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    }
  });

  it('the whole loop: the owner assigns a route task to the reader, who downloads it, records a plausible reading, an implausible one that asks for a confirmation and a photo, one offline; back online the queue drains and the owner sees the readings', { timeout: 300_000 }, async () => {
    const manager = await owner(ROUTES);
    const taskRow = manager.getByRole('row').filter({ has: manager.getByRole('link', { name: '1005', exact: true }) });
    await taskRow.waitFor();
    await assignToReader(manager, taskRow, 1005);

    const page = await reader();
    const card = page.getByTestId('task-1005');
    await card.getByText('15 left').waitFor();
    await card.getByRole('button', { name: 'Download', exact: true }).click();
    await card.getByText(/^Downloaded /).waitFor();
    await card.getByRole('button', { name: 'Open' }).click();
    await page.getByRole('heading', { level: 1, name: 'Task 1005 · MIR-05' }).waitFor();
    const addressNow = async () => (await page.getByRole('heading', { level: 2 }).first().textContent())!;
    const reading = page.getByLabel('Reading', { exact: true });
    const sent = (n: number) => page.getByTestId('sync-sent').getByText(`${n} sent`).waitFor({ timeout: 60_000 });

    // 1: plausible, sent at once
    const first = { address: await addressNow(), value: (await previousOf(page)) + 1 };
    await reading.fill(String(first.value));
    await page.getByTestId('consumption').getByText(/^Consumption 1 over /).waitFor();
    await page.getByRole('button', { name: 'Save reading' }).click();
    await sent(1);

    // 2: below the previous reading: a confirmation and a photo are required before it is saved
    await expect.poll(addressNow).not.toBe(first.address); // the walk moved on to the next meter
    const second = { address: await addressNow(), value: (await previousOf(page)) - 5 };
    await reading.fill(String(second.value));
    await page.getByText('The reading is below the previous reading').waitFor();
    await page.getByRole('button', { name: 'Save reading' }).click();
    await page.getByText('A photo of the meter is required for this reading.').waitFor();
    await expect(page.getByRole('button', { name: 'Save reading' }).isDisabled()).resolves.toBe(true);
    await page.getByLabel('I have checked: the reading is right').check();
    await page.getByLabel('Photo (required)').setInputFiles(PHOTO);
    await page.getByRole('img', { name: 'Photo of the meter' }).waitFor();
    await expectAccessible(page, 'reader: an implausible reading confirmed with a photo');
    await page.screenshot({ path: `${SHOTS}/reader-implausible.png`, fullPage: true });
    await page.getByRole('button', { name: 'Save reading' }).click();
    await sent(2);

    // 3: offline, it waits on the device; back online it is sent
    await expect.poll(addressNow).not.toBe(second.address);
    const third = { address: await addressNow(), value: (await previousOf(page)) + 2 };
    await network(page, false);
    await page.getByTestId('sync-panel').getByText('Offline', { exact: true }).waitFor();
    await reading.fill(String(third.value));
    await page.getByLabel('Notes').fill('Gate locked,\nowner let me in');
    await page.getByRole('button', { name: 'Save reading' }).click();
    await page.getByTestId('sync-waiting').getByText('1 waiting').waitFor();
    await page.screenshot({ path: `${SHOTS}/reader-waiting.png`, fullPage: true });
    await network(page, true);
    await sent(3);
    await page.getByTestId('sync-waiting').getByText('0 waiting').waitFor();
    await page.getByRole('button', { name: '‹ Tasks' }).click();
    await card.getByText('12 left').waitFor();
    // the downloaded copy was updated from the answers: the three readings as the server recorded them
    expect(await downloadedReadings(page, '1005')).toEqual([first, second, third].map((r) => ({ address: r.address, completed: true, value: r.value })));
    await page.close();

    expect(await recorded(1005)).toEqual([first, second, third].map((r) => ({ ...r, completed: true })));

    // the owner sees them on the task page: complete, recorded by the reader, the exception, the photo, the notes
    await manager.goto(`${s.url}${ROUTES}/1005`);
    const readings = manager.getByRole('table', { name: 'Readings' });
    await readings.waitFor();
    const row = (address: string) => readings.getByRole('row').filter({ has: manager.getByText(address, { exact: true }) });
    for (const [r, exception] of [[first, 'No Error'], [second, 'Negative Consumption'], [third, 'No Error']] as const) {
      await row(r.address).getByText('Complete', { exact: true }).waitFor();
      await row(r.address).getByText('Rangi Reader', { exact: true }).waitFor();
      await row(r.address).getByText(exception, { exact: true }).waitFor();
    }
    await manager.screenshot({ path: `${SHOTS}/reader-owner-task.png` });
    await row(second.address).getByRole('link').first().click();
    await manager.getByRole('heading', { level: 2, name: 'Photo' }).waitFor();
    await manager.getByRole('img', { name: /^Meter at / }).waitFor(); // the reader's photo, from storage
    await manager.close();
  });

  it("the issue's whole loop: the owner imports a council route file and assigns it; the reader downloads it, reloads offline, records five readings offline (a can't-read with a photo, an implausible one confirmed with a photo, three plausible, one with a comment code); online the queue drains; the owner sees them, the progress and the exceptions, and the exported results file holds them", { timeout: 420_000 }, async () => {
    // the owner imports the council's file through the Import screen and assigns the new task to the demo reader
    const manager = await owner(ROUTES);
    const taskLinks = manager.getByRole('table', { name: 'Route tasks' }).getByRole('link');
    await taskLinks.first().waitFor();
    await manager.getByRole('button', { name: 'Import', exact: true }).click();
    const importing = manager.getByRole('dialog', { name: 'Import' });
    await importing.locator('input[type=file]').setInputFiles('tests/fixtures/routes/TCC_DCOL_R12_3_EXP.TXT');
    await importing.getByText('R12 · 3 · 5 readings').waitFor();
    await importing.getByRole('button', { name: 'Confirm' }).click();
    await manager.getByText(ROUTE_MESSAGES.IMPORT_SUCCESS, { exact: true }).first().waitFor();
    const taskRow = manager.getByRole('row').filter({ hasText: 'R12' });
    await taskRow.getByText('Waiting', { exact: true }).waitFor();
    const taskNumber = Number(await taskRow.getByRole('link').first().textContent());
    await assignToReader(manager, taskRow, taskNumber);

    // the reader downloads it, then the network goes and the app is reloaded from the device
    const page = await reader();
    await controlled(page);
    const card = page.getByTestId(`task-${taskNumber}`);
    await card.getByText('5 left').waitFor();
    await card.getByRole('button', { name: 'Download', exact: true }).click();
    await card.getByText(/^Downloaded /).waitFor();
    await network(page, false);
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'My route tasks' }).waitFor();
    await page.getByTestId('sync-panel').getByText('Offline', { exact: true }).waitFor();
    await card.getByRole('button', { name: 'Open' }).click();
    await page.getByRole('heading', { level: 1, name: `Task ${taskNumber} · R12` }).waitFor();

    const heading = page.getByRole('heading', { level: 2 }).first();
    const reading = page.getByLabel('Reading', { exact: true });
    const save = () => page.getByRole('button', { name: 'Save reading' }).click();
    const choose = (label: string, option: string) => page.getByLabel(label, { exact: true }).selectOption(option);
    /** Waits for the walk to show the meter at `address` (sequence order: 3, 10, 20, 40, 50), then runs the capture and waits for it to queue. */
    let queued = 0;
    const at = async (address: string, capture: () => Promise<void>) => {
      await expect.poll(() => heading.textContent()).toBe(address);
      await capture();
      queued++;
      await page.getByTestId('sync-waiting').getByText(`${queued} waiting`).waitFor();
    };

    // 1 (sequence 3): plausible, with a comment code, notes and service required (the server's ServiceRequired exception)
    await at('16 Harbour View Road', async () => {
      await reading.fill(String((await previousOf(page)) + 2));
      await page.getByTestId('consumption').getByText(/^Consumption 2 over \d+ days$/).waitFor();
      await choose('Comment code', 'Broken Lid');
      await page.getByLabel('Notes').fill('Lid cracked');
      await page.getByLabel('Service required').check();
      await save();
    });
    // 2 (sequence 10): can't read, with a photo: the code clears the value and disables the comment code
    await at('12 Harbour View Road', async () => {
      await reading.fill('4530');
      await choose("Can't read code", 'Dog');
      await expect(reading.inputValue()).resolves.toBe('');
      await expect(reading.isDisabled()).resolves.toBe(true);
      await expect(page.getByLabel('Comment code', { exact: true }).isDisabled()).resolves.toBe(true);
      await page.getByLabel('Notes').fill('Dog in the yard,\ngate locked');
      // the app's own button opens the camera (the file input behind it)
      const [camera] = await Promise.all([page.waitForEvent('filechooser'), page.getByRole('button', { name: 'Take a photo' }).click()]);
      await camera.setFiles(PHOTO);
      await page.getByRole('img', { name: 'Photo of the meter' }).waitFor();
      await page.getByRole('button', { name: 'Take the photo again' }).waitFor();
      await expectAccessible(page, "reader: a can't-read capture with a photo, offline");
      await save();
    });
    // 3 (sequence 20): implausible, far above three times the usual use for the period: a confirmation and a photo before it is saved
    const high = (await previousOf(page)) + 500;
    await at('14 Harbour View Road', async () => {
      await reading.fill(String(high));
      await page.getByText('The consumption is unusually high').waitFor();
      await save();
      await page.getByText('A photo of the meter is required for this reading.').waitFor();
      await expect(page.getByRole('button', { name: 'Save reading' }).isDisabled()).resolves.toBe(true);
      await page.getByLabel('I have checked: the reading is right').check();
      await expect(page.getByRole('button', { name: 'Save reading' }).isDisabled()).resolves.toBe(true); // still no photo
      await page.getByLabel('Photo (required)').setInputFiles(PHOTO);
      await page.getByRole('img', { name: 'Photo of the meter' }).waitFor();
      await page.screenshot({ path: `${SHOTS}/reader-loop-high.png`, fullPage: true });
      await save();
    });
    // 4 (sequence 40): the file gave this meter no address ('Unknown', as the spec's import says) and no previous reading: nothing to compare, plausible
    await at('Unknown', async () => {
      await expect(page.getByText('Previous reading: none').count()).resolves.toBe(1);
      await reading.fill('777');
      await save();
    });
    // 5 (sequence 50): plausible
    await at('20 Harbour View Road', async () => {
      await reading.fill(String((await previousOf(page)) + 3));
      await page.getByTestId('consumption').getByText(/^Consumption 3 over /).waitFor();
      await save();
    });
    await page.getByRole('button', { name: '‹ Tasks' }).click();
    await card.getByText('0 left').waitFor();
    await page.screenshot({ path: `${SHOTS}/reader-loop-queued.png`, fullPage: true });
    expect(await recorded(taskNumber)).toEqual([]); // nothing reached the server while offline

    // online: the queue drains in order
    await network(page, true);
    await page.getByTestId('sync-sent').getByText('5 sent').waitFor({ timeout: 90_000 });
    await page.getByTestId('sync-waiting').getByText('0 waiting').waitFor();
    expect(await page.getByTestId('sync-refused').count()).toBe(0); // none refused
    await page.close();
    const expected = [
      { address: '16 Harbour View Road', value: 12035, completed: true },
      { address: '12 Harbour View Road', value: null, completed: true },
      { address: '14 Harbour View Road', value: high, completed: true },
      { address: 'Unknown', value: 777, completed: true },
      { address: '20 Harbour View Road', value: 308, completed: true },
    ];
    expect(await recorded(taskNumber)).toEqual(expected);

    // the owner: the task complete, 5 of 5, the exceptions, every reading recorded by the reader
    await manager.goto(`${s.url}${ROUTES}/${taskNumber}`);
    const readings = manager.getByRole('table', { name: 'Readings' });
    await readings.waitFor();
    await manager.getByText(/^5 of 5 read · 3 exceptions · assigned to Rangi Reader/).waitFor();
    await manager.getByText('Complete', { exact: true }).first().waitFor();
    const row = (address: string) => readings.getByRole('row').filter({ has: manager.getByText(address, { exact: true }) });
    for (const [address, status, exception] of [
      ['16 Harbour View Road', 'Complete', 'Service Required'],
      ['12 Harbour View Road', 'Not Read', "Can't Read"],
      ['14 Harbour View Road', 'Complete', 'High Consumption'],
      ['Unknown', 'Complete', 'No Error'],
      ['20 Harbour View Road', 'Complete', 'No Error'],
    ] as const) {
      await row(address).getByText(status, { exact: true }).waitFor();
      await row(address).getByText(exception, { exact: true }).waitFor();
      await row(address).getByText('Rangi Reader', { exact: true }).waitFor();
    }
    await manager.screenshot({ path: `${SHOTS}/reader-loop-owner-task.png` });

    // the council results file, exported from the task page as the owner would
    await manager.getByRole('button', { name: 'Export', exact: true }).click();
    const options = manager.getByRole('dialog', { name: `Export task ${taskNumber}` });
    await options.getByLabel('All readings').check();
    const [download] = await Promise.all([manager.waitForEvent('download'), options.getByRole('button', { name: 'Export' }).click()]);
    expect(download.suggestedFilename()).toBe('TCC_DCOL_R12_3_IMP.TXT');
    const lines = readFileSync((await download.path())!, 'latin1').split('\r\n');
    expect(lines.pop()).toBe('');
    // (2) route, (3) sequence / 10, (6) address, (9) reading, (10) can't-read code, (11) its notes, (12) comment code, (13) its comments, (14) serial
    expect(lines.map((l) => l.split('|')).map((f) => [f[0], f[1], f[2], f[5], f[8], f[9], f[10], f[11], f[12], f[13]])).toEqual([
      ['1', 'R12', '0.3', '16 Harbour View Road', '12035', '', '', 'Broken Lid', 'Lid cracked', 'M12347'],
      ['2', 'R12', '1', '12 Harbour View Road', '', 'Dog', expect.stringMatching(/^Dog in the yard,\s*gate locked$/), '', '', 'M12345'],
      ['3', 'R12', '2', '14 Harbour View Road', String(high), '', '', '', '', 'M12346'],
      ['4', 'R12', '4', 'Unknown', '777', '', '', '', '', 'M12348'],
      ['5', 'R12', '5', '20 Harbour View Road', '308', '', '', '', '', 'M12349'],
    ]);
    await manager.getByText('Exported', { exact: true }).first().waitFor();
    await manager.close();
  });

  it('a refused capture stays with the server\'s reason until dismissed; a task is removed from the device only when nothing of it is unsent', { timeout: 240_000 }, async () => {
    const page = await reader();
    const card = page.getByTestId('task-1003');
    await card.getByRole('button', { name: 'Download', exact: true }).click();
    await card.getByText(/^Downloaded /).waitFor();
    await card.getByRole('button', { name: 'Open' }).click();
    await page.getByRole('heading', { level: 1, name: 'Task 1003 · MAK-03' }).waitFor();
    const address = (await page.getByRole('heading', { level: 2 }).first().textContent())!;
    await network(page, false);
    await page.getByLabel('Reading', { exact: true }).fill(String((await previousOf(page)) + 1));
    await page.getByRole('button', { name: 'Save reading' }).click();
    await page.getByTestId('sync-waiting').getByText('1 waiting').waitFor();
    // meanwhile the council's results file was exported: the server refuses the capture
    await s.ctx.db.query(`UPDATE route_tasks SET exported = true WHERE org_id = $1 AND task_number = 1003`, [harbour]);
    await network(page, true);
    await page.getByTestId('sync-refused').getByText('1 refused').waitFor({ timeout: 60_000 });
    const refused = page.getByTestId('refused-capture');
    await refused.getByText(new RegExp(`^${address}: .+ \\(kept on this device: \\d+\\)$`)).waitFor();
    await page.getByRole('button', { name: '‹ Tasks' }).click();
    await card.getByText('no longer assigned to you', { exact: false }).waitFor(); // an exported task leaves the reader's list
    await card.getByText('1 reading not sent yet: send or dismiss it before removing the task.').waitFor();
    await expect(card.getByRole('button', { name: 'Remove from device' }).isDisabled()).resolves.toBe(true);
    await expectAccessible(page, 'reader: a refused capture');
    await page.screenshot({ path: `${SHOTS}/reader-refused.png`, fullPage: true });

    // kept across a reload until the reader dismisses it
    await page.reload();
    await refused.waitFor();
    await page.getByRole('button', { name: `Dismiss the refused reading of ${address}` }).click();
    await expect.poll(() => refused.count()).toBe(0);
    await card.getByRole('button', { name: 'Remove from device' }).click();
    await expect.poll(() => card.count()).toBe(0);
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'My route tasks' }).waitFor();
    await page.getByTestId('task-1004').waitFor(); // still assigned, listed from the server
    expect(await card.count()).toBe(0);
    expect(await downloadedReadings(page, '1003')).toEqual([]);
    await page.close();
  });
  it("a manager opens the reader app: the tasks assigned to them, none of the organisation's others; a reading on a task given to someone else since its download is refused with the reason, kept on the device and recorded nowhere", { timeout: 240_000 }, async () => {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    page.setDefaultTimeout(30_000);
    await signIn(page, s.url, 'owner@demo.test');
    await page.goto(`${s.url}/reader/`);
    await page.getByRole('heading', { level: 1, name: 'My route tasks' }).waitFor();
    // the owner has no task: the empty state, not the reader's tasks or the unassigned ones
    await page.getByText('No route task is assigned to you.').waitFor();
    expect(await page.locator('[data-testid^="task-"]').count()).toBe(0);

    // task 1006 (SP, Newtown) is given to the owner: the app lists it, and it can be downloaded and opened
    const ownerId = (await s.ctx.db.query<{ id: string }>(`SELECT id FROM users WHERE email = 'owner@demo.test'`))[0]!.id;
    const readerId = (await s.ctx.db.query<{ id: string }>(`SELECT id FROM users WHERE email = 'reader@demo.test'`))[0]!.id;
    const assign = (userId: string) => s.ctx.db.query(`UPDATE route_tasks SET assigned_to = $2 WHERE org_id = $1 AND task_number = 1006`, [harbour, userId]);
    await assign(ownerId);
    // the app comes back to the screen (the phone unlocked): it re-reads the list, no reload needed
    await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
    const card = page.getByTestId('task-1006');
    await card.getByRole('button', { name: 'Download', exact: true }).click();
    await card.getByText(/^Downloaded /).waitFor();
    expect(await page.locator('[data-testid^="task-"]').count()).toBe(1);
    await card.getByRole('button', { name: 'Open' }).click();
    await page.getByRole('heading', { level: 1, name: /^Task 1006 · / }).waitFor();
    const address = (await page.getByRole('heading', { level: 2 }).first().textContent())!;

    // meanwhile another manager gives the task to the meter reader: the owner's reading is refused, with why
    await assign(readerId);
    const value = (await page.getByText(/^Previous reading: /).count()) ? (await previousOf(page)) + 1 : 100;
    await page.getByLabel('Reading', { exact: true }).fill(String(value));
    await page.getByRole('button', { name: 'Save reading' }).click();
    await page.getByTestId('sync-refused').getByText('1 refused').waitFor({ timeout: 60_000 });
    await page.getByTestId('refused-capture').getByText(`${address}: This route task is not assigned to you. (kept on this device: ${value})`).waitFor();
    // the walk has moved on to the next meter: it says why nothing can be recorded, instead of offering the form again
    await page.getByTestId('not-assigned').getByText('This task is not assigned to you').waitFor();
    await page.getByText('Ask an admin of Harbour City Council to assign the task to you, then dismiss the refused reading.', { exact: false }).waitFor();
    expect(await page.getByRole('button', { name: 'Save reading' }).count()).toBe(0);
    // the refused reading is not counted as read: the server has none of it
    await page.getByText(/^\d+ left · 1 refused · \d+%$/).waitFor();
    await expectAccessible(page, 'reader: a task not assigned to the manager');
    await page.screenshot({ path: `${SHOTS}/reader-manager-refused.png`, fullPage: true });
    const ownersReadings = await s.ctx.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM meter_readings r JOIN route_tasks t ON t.id = r.route_task_id WHERE t.org_id = $1 AND t.task_number = 1006 AND r.recorded_by = $2`,
      [harbour, ownerId],
    );
    expect(ownersReadings[0]!.n).toBe(0);

    // the task list says it is no longer theirs, and keeps the refused reading until it is dismissed
    await page.reload();
    await card.getByText('no longer assigned to you', { exact: false }).waitFor();
    await page.getByTestId('refused-capture').waitFor();
    await page.close();
  });
});
