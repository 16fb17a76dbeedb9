import { afterAll, beforeAll, describe, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { expectAccessible, launchBrowser, signIn } from './browser';

/**
 * Issue 16's sweep: every existing screen and the states a goto does not reach (modals, menus,
 * popovers, the drawer, a drawn chart), at desktop and phone widths, and a few in dark mode.
 * Every goto is checked by browser.ts already; the explicit checks below are the states.
 */
const ORG = '/org/riverbend-water';
const SENSORS = `${ORG}/sensors`;
const TIDE = '708192A3'; // Harbour Tide Gauge: alarms, an open notification
const DIESEL = '6F708192'; // Diesel Depot Tank 1: tank settings and a fuel installation record
const WIDTHS = [
  { name: 'desktop', width: 1280, height: 900 },
  { name: 'phone', width: 390, height: 844 },
] as const;

const chartReady = (page: Page) =>
  page.waitForFunction(() => ['ready', 'empty'].includes(document.querySelector('[data-testid=chart-pane]')?.getAttribute('data-status') ?? ''), null, { timeout: 60_000 });

describe('every screen passes axe-core WCAG 2.2 AA (issue 16)', () => {
  const baseUrl = inject('baseUrl');
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser?.close());

  for (const w of WIDTHS) {
    it(`signed out, ${w.name}: login, sign-up, forgot password, not found`, async () => {
      const page = await browser.newPage({ viewport: w });
      for (const path of ['/login', '/signup', '/forgot-password', '/accept', '/no-such-page']) await page.goto(`${baseUrl}${path}`);
      await page.close();
    });

    it(`signed in, ${w.name}: sensors, dashboard, setup, errors, notifications, map, client errors`, { timeout: 300_000 }, async () => {
      const page = await browser.newPage({ viewport: w });
      await signIn(page, baseUrl, 'siteadmin@demo.test');
      await page.goto(`${baseUrl}${SENSORS}`);
      await page.goto(`${baseUrl}${SENSORS}/${TIDE}`);
      await chartReady(page);
      await expectAccessible(page, `dashboard with its chart drawn (${w.name})`);
      for (const section of ['display', 'update-rate', 'alarms', 'location', 'remote', 'integration']) await page.goto(`${baseUrl}${SENSORS}/${TIDE}/setup/${section}`);
      for (const section of ['tank', 'installation']) await page.goto(`${baseUrl}${SENSORS}/${DIESEL}/setup/${section}`);
      await page.goto(`${baseUrl}${SENSORS}/${TIDE}/${w.name === 'phone' ? 'errors' : 'admin-tools/errors'}`);
      await page.goto(`${baseUrl}${ORG}/notifications`);
      await page.goto(`${baseUrl}${ORG}/map`);
      await page.goto(`${baseUrl}${ORG}/map/${TIDE}`);
      await page.goto(`${baseUrl}${ORG}/client-errors`);
      await page.close();
    });

    it(`open states, ${w.name}: profile menu, organisation switcher or drawer, Add Sensor, date range, export, table`, { timeout: 300_000 }, async () => {
      const page = await browser.newPage({ viewport: w });
      await signIn(page, baseUrl, 'owner@demo.test');
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
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await signIn(page, baseUrl, 'reader@demo.test');
    await page.goto(`${baseUrl}/org/harbour-city-council/notifications`);
    await page.close();
  });

  it('dark mode (prefers-color-scheme: dark): login, dashboard, notifications, map, setup', { timeout: 300_000 }, async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, colorScheme: 'dark' });
    await page.goto(`${baseUrl}/login`);
    await signIn(page, baseUrl, 'siteadmin@demo.test');
    await page.goto(`${baseUrl}${SENSORS}/${TIDE}`);
    await chartReady(page);
    await expectAccessible(page, 'dark dashboard');
    await page.goto(`${baseUrl}${SENSORS}/${TIDE}/setup/alarms`);
    await page.goto(`${baseUrl}${ORG}/notifications`);
    await page.goto(`${baseUrl}${ORG}/map/${TIDE}`);
    await page.close();
  });

  it('dark mode: the screens issues 13 and 14 added (organisation and user settings, API docs, service routes)', { timeout: 300_000 }, async () => {
    for (const w of WIDTHS) {
      const page = await browser.newPage({ viewport: w, colorScheme: 'dark' });
      await signIn(page, baseUrl, 'owner@demo.test');
      for (const section of ['details', 'members', 'notifications', 'integration', 'webhooks']) await page.goto(`${baseUrl}${ORG}/settings/${section}`);
      for (const section of ['account', 'display', 'organisations', 'notifications']) await page.goto(`${baseUrl}/settings/${section}`);
      await page.goto(`${baseUrl}/api-docs`);
      await page.goto(`${baseUrl}/org/harbour-city-council/service-routes`);
      await page.getByRole('link', { name: '1002' }).first().click();
      await page.waitForURL('**/service-routes/1002');
      await expectAccessible(page, `dark task detail, ${w.name}`);
      await page.close();
    }
  });
});
