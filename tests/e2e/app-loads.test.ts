import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from './browser';
import { useBrowser } from './session';

describe('the product as npm start runs it (issue 2)', () => {
  const baseUrl = inject('baseUrl');
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser?.close());

  it('answers /api/health with database and broker ok', async () => {
    const res = await fetch(`${baseUrl}/api/health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ database: 'ok', broker: 'ok' });
  });

  it('loads the app in Chromium and renders its first screen', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(baseUrl);
    // signed out, / goes to the login page (monitoring-client 2.1)
    await page.getByRole('heading', { name: 'Log in to Tidewatch' }).waitFor({ timeout: 30_000 });
    expect(new URL(page.url()).pathname).toBe('/login');
    expect(errors).toEqual([]);
  });
});

describe('every screen has its own title (WCAG 2.4.2 Page Titled)', () => {
  const baseUrl = inject('baseUrl');
  const b = useBrowser({ signInOnce: true });
  // the screen, then what it belongs to, then the product; set once the screen has drawn
  const titled = (page: Page, title: string) => expect.poll(() => page.title(), { timeout: 30_000 }).toBe(title);
  const section = (page: Page, name: string) => page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name }).first().click();

  it('signed out: sign in, sign up and password reset', async () => {
    const page = await b.browser.newPage();
    await page.goto(`${baseUrl}/login`);
    await titled(page, 'Sign in · Tidewatch');
    await page.goto(`${baseUrl}/signup`);
    await titled(page, 'Sign up · Tidewatch');
    await page.goto(`${baseUrl}/forgot-password`);
    await titled(page, 'Reset password · Tidewatch');
    await page.close();
  });

  it('signed in: a sensor, its setup, the map, notifications, settings and service routes, moving inside the app', async () => {
    const page = await b.signedIn(baseUrl, 'owner@demo.test', { path: '/org/riverbend-water/sensors/708192A3' });
    await titled(page, 'Harbour Tide Gauge · Sensors · Riverbend Water · Tidewatch');
    await page.getByRole('tab', { name: 'Sensor Setup' }).click();
    await titled(page, 'Sensor Setup · Harbour Tide Gauge · Sensors · Riverbend Water · Tidewatch');
    await page.getByRole('list', { name: 'Sensors' }).getByRole('listitem').filter({ hasText: 'Main Reservoir' }).click();
    await titled(page, 'Main Reservoir · Sensors · Riverbend Water · Tidewatch');
    await section(page, 'Map');
    await titled(page, 'Map · Riverbend Water · Tidewatch');
    await section(page, 'Notifications');
    await titled(page, 'Notifications · Riverbend Water · Tidewatch');
    await page.goto(`${baseUrl}/org/riverbend-water/settings/members`);
    await titled(page, 'Members · Organisation Settings · Riverbend Water · Tidewatch');
    await page.goto(`${baseUrl}/settings/display`);
    await titled(page, 'Display · Settings · Tidewatch');
    await page.goto(`${baseUrl}/org/harbour-city-council/service-routes`);
    await titled(page, 'Service Routes · Harbour City Council · Tidewatch');
    await page.close();
  });

  it("the meter reader's field app", async () => {
    const page = await b.signedIn(baseUrl, 'reader@demo.test');
    await page.waitForURL((u) => u.pathname === '/reader/');
    await titled(page, 'My route tasks · Tidewatch Reader');
    await page.close();
  });
});
