import { afterAll, beforeAll, describe, inject, it } from 'vitest';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { expectAccessible, launchBrowser, signIn } from './browser';

/**
 * Issue 16's sweep: every existing screen and the states a goto does not reach (modals, menus,
 * popovers, the drawer, a drawn chart), at desktop and phone widths, and a few in dark mode.
 * Every goto is checked by browser.ts already; the explicit checks below are the states, and the
 * sections of one area (a sensor's setup, organisation and user settings), which are opened inside
 * the running app (visit) rather than by booting it again for each. Each account signs in through
 * the login form once; its later pages open with that sign-in's saved session.
 */
const ORG = '/org/riverbend-water';
const SENSORS = `${ORG}/sensors`;
const TIDE = '708192A3'; // Harbour Tide Gauge: alarms, an open notification
const DIESEL = '6F708192'; // Diesel Depot Tank 1: tank settings and a fuel installation record
const WIDTHS = [
  { name: 'desktop', width: 1280, height: 900 },
  { name: 'phone', width: 390, height: 844 },
] as const;

/**
 * Opens `path` as the app's own links do (a history entry its router follows), not as a new page
 * load, and checks the screen once `ready` is there: the router commits the new screen only when its
 * lazy parts have loaded, so until `ready` shows, the page may still show the previous one.
 */
async function visit(page: Page, path: string, ready: string) {
  await page.evaluate((to) => {
    history.pushState(null, '', to);
    dispatchEvent(new PopStateEvent('popstate'));
  }, path);
  await page.locator(ready).waitFor();
  await expectAccessible(page, `visit ${path}`);
}

const chartReady = (page: Page) =>
  page.waitForFunction(() => ['ready', 'empty'].includes(document.querySelector('[data-testid=chart-pane]')?.getAttribute('data-status') ?? ''), null, { timeout: 60_000 });

describe('every screen passes axe-core WCAG 2.2 AA (issue 16)', () => {
  const baseUrl = inject('baseUrl');
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser?.close());

  /** Each account's session as its form sign-in left it (the tokens aws-amplify keeps in localStorage). */
  const sessions = new Map<string, Awaited<ReturnType<BrowserContext['storageState']>>>();
  /** A new page signed in as `email`: through the login form (whose screen goto checks) the first time, then with that session. */
  async function signedIn(email: string, options: BrowserContextOptions): Promise<Page> {
    const saved = sessions.get(email);
    const page = await browser.newPage({ ...options, ...(saved ? { storageState: saved } : {}) });
    if (!saved) {
      await signIn(page, baseUrl, email);
      sessions.set(email, await page.context().storageState());
    }
    return page;
  }

  for (const w of WIDTHS) {
    it(`signed out, ${w.name}: login, sign-up, forgot password, not found`, async () => {
      const page = await browser.newPage({ viewport: w });
      for (const path of ['/login', '/signup', '/forgot-password', '/accept', '/no-such-page']) await page.goto(`${baseUrl}${path}`);
      await page.close();
    });

    it(`signed in, ${w.name}: sensors, dashboard, setup, errors, notifications, map, client errors`, { timeout: 300_000 }, async () => {
      const page = await signedIn('siteadmin@demo.test', { viewport: w });
      await page.goto(`${baseUrl}${SENSORS}`);
      await page.goto(`${baseUrl}${SENSORS}/${TIDE}`);
      await chartReady(page);
      await expectAccessible(page, `dashboard with its chart drawn (${w.name})`);
      for (const section of ['display', 'update-rate', 'alarms', 'location', 'remote', 'integration']) await visit(page, `${SENSORS}/${TIDE}/setup/${section}`, `[data-testid=setup-${section}]`);
      // another sensor's setup is loaded afresh: opened inside the app from this sensor's, the first
      // draw still holds this sensor's record, whose setup has no tank section and redirects to its own
      await page.goto(`${baseUrl}${SENSORS}/${DIESEL}/setup/tank`);
      await visit(page, `${SENSORS}/${DIESEL}/setup/installation`, '[data-testid=setup-installation]');
      await page.goto(`${baseUrl}${SENSORS}/${TIDE}/${w.name === 'phone' ? 'errors' : 'admin-tools/errors'}`);
      await page.goto(`${baseUrl}${ORG}/notifications`);
      await page.goto(`${baseUrl}${ORG}/map`);
      await page.goto(`${baseUrl}${ORG}/map/${TIDE}`);
      await page.goto(`${baseUrl}${ORG}/client-errors`);
      await page.close();
    });

    it(`open states, ${w.name}: profile menu, organisation switcher or drawer, Add Sensor, date range, export, table`, { timeout: 300_000 }, async () => {
      const page = await signedIn('owner@demo.test', { viewport: w });
      await page.goto(`${baseUrl}${SENSORS}/${TIDE}`);
      await chartReady(page);

      await page.getByRole('button', { name: /Profile menu/ }).click();
      await page.getByRole('menu').waitFor();
      await expectAccessible(page, `profile menu (${w.name})`);
      await page.keyboard.press('Escape');
      await page.getByRole('menu').waitFor({ state: 'hidden' });

      if (w.name === 'desktop') {
        await page.getByRole('button', { name: /^Organisation:/ }).click();
        await page.getByRole('menu').waitFor();
        await expectAccessible(page, 'organisation switcher');
        await page.keyboard.press('Escape');
        await page.getByRole('menu').waitFor({ state: 'hidden' });
      } else {
        await page.getByRole('button', { name: 'Open navigation' }).click();
        await page.getByRole('dialog').waitFor();
        await expectAccessible(page, 'navigation drawer');
        await page.keyboard.press('Escape');
        await page.getByRole('dialog').waitFor({ state: 'hidden' });
      }

      await page.getByRole('button', { name: /^Date range/ }).click();
      await page.getByRole('listbox', { name: 'Date presets' }).waitFor();
      await expectAccessible(page, `date range picker (${w.name})`);
      await page.keyboard.press('Escape');
      await page.getByRole('listbox', { name: 'Date presets' }).waitFor({ state: 'hidden' });

      await page.getByRole('button', { name: 'Export', exact: true }).click();
      await page.getByRole('dialog', { name: 'Export Options' }).waitFor();
      await expectAccessible(page, `export dialog (${w.name})`);
      await page.keyboard.press('Escape');
      await page.getByRole('dialog', { name: 'Export Options' }).waitFor({ state: 'detached' });

      await page.getByText('Table', { exact: true }).click();
      await page.getByTestId('chart-table').waitFor();
      await expectAccessible(page, `chart as a table (${w.name})`);

      await page.goto(`${baseUrl}${SENSORS}`);
      await page.getByRole('button', { name: 'Add Sensor' }).click();
      await page.getByRole('dialog').waitFor();
      await expectAccessible(page, `Add Sensor (${w.name})`);
      await page.close();
    });
  }

  it('the meter reader, refused the data pages', async () => {
    const page = await signedIn('reader@demo.test', { viewport: { width: 1280, height: 900 } });
    await page.goto(`${baseUrl}/org/harbour-city-council/notifications`);
    await page.close();
  });

  it('dark mode (prefers-color-scheme: dark): login, dashboard, notifications, map, setup', { timeout: 300_000 }, async () => {
    const dark = { viewport: { width: 1280, height: 900 }, colorScheme: 'dark' } as const;
    const signedOut = await browser.newPage(dark);
    await signedOut.goto(`${baseUrl}/login`);
    await signedOut.close();
    const page = await signedIn('siteadmin@demo.test', dark);
    await page.goto(`${baseUrl}${SENSORS}/${TIDE}`);
    await chartReady(page);
    await expectAccessible(page, 'dark dashboard');
    await visit(page, `${SENSORS}/${TIDE}/setup/alarms`, '[data-testid=setup-alarms]');
    await page.goto(`${baseUrl}${ORG}/notifications`);
    await page.goto(`${baseUrl}${ORG}/map/${TIDE}`);
    await page.close();
  });

  it('dark mode: the screens issues 13 and 14 added (organisation and user settings, API docs, service routes)', { timeout: 300_000 }, async () => {
    for (const w of WIDTHS) {
      const page = await signedIn('owner@demo.test', { viewport: w, colorScheme: 'dark' });
      await page.goto(`${baseUrl}${ORG}/settings/details`);
      for (const section of ['members', 'notifications', 'integration', 'webhooks']) await visit(page, `${ORG}/settings/${section}`, `[data-testid=org-settings-${section}]`);
      for (const section of ['account', 'display', 'organisations', 'notifications']) await visit(page, `/settings/${section}`, `[data-testid=user-settings-${section}]`);
      await page.goto(`${baseUrl}/api-docs`);
      await page.goto(`${baseUrl}/org/harbour-city-council/service-routes`);
      await page.getByRole('link', { name: '1002' }).first().click();
      await page.waitForURL('**/service-routes/1002');
      await expectAccessible(page, `dark task detail, ${w.name}`);
      await page.close();
    }
  });
});
