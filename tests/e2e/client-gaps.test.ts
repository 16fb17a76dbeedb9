import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { DateTime } from 'luxon';
import { launchBrowser, signIn } from './browser';

// Issue 9, the monitoring client's remaining gaps, as a user sees them in Chromium against the
// demo world (Riverbend Water keeps its time in Pacific/Auckland).
const ORG = '/org/riverbend-water';
const NZ = 'Pacific/Auckland';
// 12 hours behind UTC, 25 behind Auckland: the browser's calendar day is never Auckland's
const FAR_ZONE = 'Etc/GMT+12';

describe('the monitoring client in the browser: issue 9 gaps', () => {
  const baseUrl = inject('baseUrl');
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser?.close());

  async function as(email: string | null, opts: BrowserContextOptions = {}): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...opts });
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    if (email) await signIn(page, baseUrl, email);
    return page;
  }

  it('gap 1: offline, the sensors load and the errors page read the spec messages, not "Failed to fetch"', async () => {
    const page = await as('siteadmin@demo.test');
    const nav = page.locator('header').getByRole('navigation', { name: 'Sections' });
    await page.goto(`${baseUrl}${ORG}/sensors/2B3C4D5E`);
    await page.getByRole('heading', { name: 'Stock Tank North' }).waitFor();
    await nav.getByRole('link', { name: 'Notifications' }).click();
    await page.getByRole('article').first().waitFor();
    await page.context().setOffline(true);
    await nav.getByRole('link', { name: 'Sensors' }).click();
    await page.getByText('Unable to load sensor information').waitFor();
    await page.getByText('Unable to connect to the product. Please check your internet connection and try again.').waitFor();
    await expect(page.getByText('Failed to fetch').count()).resolves.toBe(0);

    await page.context().setOffline(false);
    await nav.getByRole('link', { name: 'Notifications' }).click();
    await page.getByRole('article').first().waitFor();
    await nav.getByRole('link', { name: 'Sensors' }).click();
    await page.getByRole('heading', { name: 'Bore 7 Pressure' }).waitFor();
    await page.context().setOffline(true);
    await page.getByRole('button', { name: 'Admin Tools' }).click();
    await page.getByRole('menuitem', { name: 'Measurement Errors' }).click();
    await page.getByText('Failed to load measurement errors... Error: Unable to connect to the product. Please check your internet connection and try again.').waitFor();
    await expect(page.getByText('Failed to fetch').count()).resolves.toBe(0);
    await page.context().close();
  });

  it("gap 2: in a browser 25 hours behind the organisation, the VIEW window ends at the organisation's end of day", async () => {
    const page = await as('owner@demo.test', { timezoneId: FAR_ZONE });
    await page.goto(`${baseUrl}${ORG}/notifications`);
    await page.locator('[role=article][data-badge="ACTIVE"]').first().waitFor();
    const hrefs = await page.locator('[role=article][data-badge="ACTIVE"]').evaluateAll((els) => els.map((e) => e.querySelector('a')?.getAttribute('href') ?? ''));
    const windows = hrefs.map((h) => /start=(\d+)&end=(\d+)/.exec(h)).filter((m) => m !== null);
    expect(windows.length).toBeGreaterThan(0);
    for (const m of windows) {
      const start = Number(m[1]) + 60 * 60_000; // the window opens 60 minutes before the start
      expect(Number(m[2])).toBe(DateTime.fromMillis(start, { zone: NZ }).endOf('day').toMillis());
    }
    await page.context().close();
  });

  it("gap 2: the errors page's days, its latest pickable day and the sensors CSV's date are the organisation's", async () => {
    const page = await as('siteadmin@demo.test', { timezoneId: FAR_ZONE, acceptDownloads: true });
    const nzToday = DateTime.now().setZone(NZ);
    const firstLoad = page.waitForRequest((r) => r.url().includes('/measurement-errors'));
    await page.goto(`${baseUrl}${ORG}/sensors/2B3C4D5E/admin-tools/errors`);
    const query = new URL((await firstLoad).url()).searchParams;
    // the last 7 days, from the organisation's midnight to the end of its today
    expect(Number(query.get('startTime'))).toBe(nzToday.minus({ days: 6 }).startOf('day').toMillis());
    expect(Number(query.get('endTime'))).toBe(nzToday.endOf('day').toMillis());
    await expect(page.getByRole('button', { name: /^Date range/ }).textContent()).resolves.toContain(nzToday.toFormat('d LLL yyyy'));
    // the organisation's today can be picked, though the browser's calendar is still on an earlier day
    await page.getByRole('button', { name: /^Date range/ }).click();
    const todayButton = page.getByRole('button', { name: nzToday.toFormat('d LLLL yyyy'), exact: true });
    await todayButton.waitFor();
    await expect(todayButton.isDisabled()).resolves.toBe(false);
    await page.keyboard.press('Escape');

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download sensors CSV' }).click();
    expect((await download).suggestedFilename()).toBe(`Riverbend Water sensors ${nzToday.toISODate()}.csv`);
    await page.context().close();
  });

  it("gap 4: 'Incorrect email or password.' is gone after going to sign-up and pressing Cancel", async () => {
    const page = await as(null);
    await page.goto(`${baseUrl}/login`);
    await page.getByLabel('Email').fill('member@demo.test');
    await page.getByLabel('Password', { exact: true }).fill('Wrong-pass-2026!');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByText('Incorrect email or password.').waitFor();
    await page.getByRole('link', { name: 'New to the product? Sign up here' }).click();
    await page.getByRole('heading', { name: 'Claim a sensor' }).waitFor();
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.waitForURL('**/login');
    await page.getByRole('button', { name: 'Log in' }).waitFor();
    await expect(page.getByText('Incorrect email or password.').count()).resolves.toBe(0);
    await page.context().close();
  });

  it('gap 6: at exactly 900 px the frame and the sensors page are both desktop; at 899 px both are mobile', async () => {
    const page = await as('member@demo.test', { viewport: { width: 900, height: 800 } });
    await page.goto(`${baseUrl}${ORG}/sensors/1A2B3C4D`);
    await page.getByRole('heading', { name: 'Main Reservoir' }).waitFor();
    const header = page.locator('header');
    await expect(header.getByRole('navigation', { name: 'Sections' }).isVisible()).resolves.toBe(true);
    await expect(header.getByRole('button', { name: 'Open navigation' }).count()).resolves.toBe(0);
    await expect(page.getByRole('list', { name: 'Sensors' }).isVisible()).resolves.toBe(true);
    await expect(page.getByRole('link', { name: 'All Sensors' }).count()).resolves.toBe(0);
    // the narrowest desktop still fits its navbar: nothing past the window's edge, no section name on two lines
    const headerFits = () =>
      page.evaluate(() => {
        const header = document.querySelector('header')!;
        const inside = [...header.querySelectorAll('*')].every((e) => e.getBoundingClientRect().right <= innerWidth + 0.5);
        const oneLine = [...header.querySelectorAll('nav a')].every((a) => a.getBoundingClientRect().height <= 60 && (a as HTMLElement).innerText.split('\n').length === 1);
        return inside && oneLine;
      });
    await expect(headerFits()).resolves.toBe(true);
    await page.setViewportSize({ width: 1024, height: 800 });
    await expect.poll(headerFits).toBe(true);
    await page.setViewportSize({ width: 900, height: 800 });

    await page.setViewportSize({ width: 899, height: 800 });
    await header.getByRole('button', { name: 'Open navigation' }).waitFor();
    await page.getByRole('link', { name: 'All Sensors' }).waitFor();
    await expect(page.getByRole('list', { name: 'Sensors' }).count()).resolves.toBe(0);
    await page.context().close();
  });

  it("gap 10: the dashboard map opens at the spec's zoom 14 (its scale reads in metres, not kilometres)", async () => {
    const page = await as('member@demo.test');
    await page.goto(`${baseUrl}${ORG}/sensors/1A2B3C4D`);
    // the mini-map loads once scrolled into view (issue 34: the first screen loads no map)
    await page.getByTestId('sensor-map-waiting').scrollIntoViewIfNeeded();
    const scale = page.locator('.maplibregl-ctrl-scale');
    await scale.waitFor();
    await expect.poll(async () => (await scale.textContent())?.trim()).toMatch(/^\d+\s?m$/);
    await page.context().close();
  });
});
