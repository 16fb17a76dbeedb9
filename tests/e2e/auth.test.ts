import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { DEMO_PASSWORD, launchBrowser, signIn } from './browser';

// Monitoring-client 2.1 (routes, redirects, meter reader screen), 2.2 (login), 6 (roles), 8 (login messages);
// organisation-and-routes 2.5 (profile menu, organisation switcher). Runs against the demo world.
describe('signing in and the organisation frame (issue 3)', () => {
  const baseUrl = inject('baseUrl');
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await Promise.all(contexts.map((c) => c.close()));
    await browser?.close();
  });

  /** A fresh browser profile per test: nothing of another test's session leaks in. */
  async function freshPage(width = 1280): Promise<Page> {
    const context = await browser.newContext({ viewport: { width, height: 800 } });
    contexts.push(context);
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    return page;
  }
  const header = (page: Page) => page.locator('header');

  it('a wrong password shows "Incorrect email or password."', async () => {
    const page = await freshPage();
    await page.goto(`${baseUrl}/login`);
    await page.getByLabel('Email').fill('member@demo.test');
    await page.getByLabel('Password', { exact: true }).fill('Not-the-password-1!');
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Incorrect email or password.' }).waitFor()).resolves.toBeUndefined();
    expect(new URL(page.url()).pathname).toBe('/login');
  });

  it.each([
    ['admin@demo.test', 'riverbend-water', 'sensors', ['Sensors', 'Map', 'Notifications']],
    ['member@demo.test', 'riverbend-water', 'sensors', ['Sensors', 'Map', 'Notifications']],
  ])('%s lands in %s on its default section with that organisation’s navigation', async (email, slug, section, nav) => {
    const page = await freshPage();
    await signIn(page, baseUrl, email);
    await page.waitForURL(`**/org/${slug}/${section}`);
    await header(page).getByText('Riverbend Water').waitFor();
    const entries = await header(page).getByRole('navigation', { name: 'Sections' }).getByRole('link').allInnerTexts();
    expect(entries.map((t) => t.trim())).toEqual(nav);
  });

  it('the owner of two organisations lands in one of them and the dropdown switcher rewrites the slug', async () => {
    const page = await freshPage();
    await signIn(page, baseUrl, 'owner@demo.test');
    await page.waitForURL(/\/org\/(riverbend-water|harbour-city-council)\/(sensors|service-routes|notifications)$/);
    await page.goto(`${baseUrl}/org/riverbend-water/notifications`);
    await page.getByRole('button', { name: 'Organisation: Riverbend Water' }).click();
    // the menu opens after the click: wait for its items rather than read an empty menu
    await expect.poll(async () => (await page.getByRole('menuitem').allInnerTexts()).map((t) => t.trim())).toEqual(['Harbour City Council', 'Riverbend Water']);
    await page.getByRole('menuitem', { name: 'Harbour City Council' }).click();
    await page.waitForURL('**/org/harbour-city-council/notifications');
    await header(page).getByRole('button', { name: 'Organisation: Harbour City Council' }).waitFor();
    // meterReading organisations show Service Routes instead of Sensors and Map (issue 14)
    const links = header(page).getByRole('navigation', { name: 'Sections' }).getByRole('link');
    await expect.poll(async () => (await links.allInnerTexts()).map((t) => t.trim())).toEqual(['Service Routes', 'Notifications']);
  });

  it('an unknown organisation slug or section goes to the default', async () => {
    const page = await freshPage();
    await signIn(page, baseUrl, 'member@demo.test');
    await page.goto(`${baseUrl}/org/no-such-org/notifications`);
    await page.waitForURL('**/org/riverbend-water/notifications');
    await page.goto(`${baseUrl}/org/riverbend-water/no-such-section`);
    // the sensors section (on a desktop it then opens its first sensor)
    await page.waitForURL(/\/org\/riverbend-water\/sensors(\/[0-9A-F]+)?$/);
  });

  it('the meter reader lands in the reader app after login, and gets the not-authorised "Page Not Found" screen, with a link to the reader app, on data pages', async () => {
    const page = await freshPage();
    await signIn(page, baseUrl, 'reader@demo.test');
    // issue 33: a meter reader lands in the reader app
    await page.waitForURL('**/reader/**');
    await page.getByRole('heading', { name: 'My route tasks' }).waitFor();
    for (const path of ['/org/harbour-city-council/notifications', '/org/harbour-city-council/sensors', '/org/harbour-city-council/service-routes']) {
      await page.goto(`${baseUrl}${path}`);
      await page.getByRole('heading', { name: 'Page Not Found' }).waitFor();
      await page.getByText('Meter readers are not authorised to access data in the web app').waitFor();
    }
    await page.getByRole('link', { name: 'Open the meter reader app' }).click();
    await page.waitForURL('**/reader/**');
    await page.getByRole('heading', { name: 'My route tasks' }).waitFor();
  });

  it('the site admin’s profile menu shows the build date and the reseller portal; others do not see them', async () => {
    const page = await freshPage();
    await signIn(page, baseUrl, 'siteadmin@demo.test');
    await page.getByRole('button', { name: 'Profile menu' }).click();
    await page.getByRole('menuitem', { name: /Build date:/ }).waitFor();
    await page.getByRole('menuitem', { name: 'Reseller portal' }).waitFor();
    await page.getByRole('menuitem', { name: 'Log out' }).waitFor();

    const other = await freshPage();
    await signIn(other, baseUrl, 'member@demo.test');
    await other.getByRole('button', { name: 'Profile menu' }).click();
    await other.getByRole('menuitem', { name: 'Log out' }).waitFor();
    await expect(other.getByRole('menuitem', { name: /Build date:/ }).count()).resolves.toBe(0);
    await expect(other.getByRole('menuitem', { name: 'Reseller portal' }).count()).resolves.toBe(0);
  });

  it('a signed-out deep link goes to /login?redirect= and back to that page after sign-in', async () => {
    const page = await freshPage();
    await page.goto(`${baseUrl}/org/riverbend-water/notifications?from=email`);
    await page.waitForURL('**/login?redirect=*');
    expect(new URL(page.url()).searchParams.get('redirect')).toBe('/org/riverbend-water/notifications?from=email');
    await page.getByLabel('Email').fill('Member@Demo.test');
    await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL('**/org/riverbend-water/notifications?from=email');
  });

  it('sign-out clears the session: tokens gone, protected pages send you to login again', async () => {
    const page = await freshPage(390);
    await signIn(page, baseUrl, 'admin@demo.test');
    await page.waitForURL('**/org/riverbend-water/**');
    // functions, not strings: a string predicate is evaluated with eval, which the app's CSP refuses
    const tokenCount = () => Object.keys(localStorage).filter((k) => /\.(idToken|accessToken|refreshToken)$/.test(k)).length;
    const tokensBefore = await page.evaluate(tokenCount);
    expect(tokensBefore).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Profile menu' }).click();
    await page.getByRole('menuitem', { name: 'Log out' }).click();
    await page.waitForURL((u) => u.pathname === '/login');
    await page.waitForFunction(
      () => Object.keys(localStorage).filter((k) => /\.(idToken|accessToken|refreshToken)$/.test(k)).length === 0 && localStorage.getItem('tidewatch.lastOrganisation') === null,
    );
    await page.goto(`${baseUrl}/org/riverbend-water/sensors`);
    await page.waitForURL('**/login?redirect=*');
    await page.goto(`${baseUrl}/`);
    await page.waitForURL((u) => u.pathname === '/login');
  });
});
