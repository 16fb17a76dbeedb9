import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, signIn } from './browser';
import { ownServerDriver } from './session';
import { startTestServer, type TestServer } from '../server/harness';
import { makeSensor } from '../server/fixtures';
import { sendUplink } from '../server/live-helpers';

/**
 * Issue 9 gaps that need the database changed under a running product: a legacy zone stored for an
 * organisation, a renamed organisation, a sensor added while a page is open. This file starts its
 * own product (built client, demo world, embedded broker; no simulator) on a free port.
 */
describe('the monitoring client against a product whose data changes under it: issue 9 gaps', () => {
  let s: TestServer;
  let browser: Browser;
  let riverbend: string;

  beforeAll(async () => {
    s = await startTestServer(ownServerDriver(), { SEED_DEMO: 'true', SIMULATOR: 'false', DEMO_MODE: 'true' });
    riverbend = (await s.ctx.db.query<{ id: string }>(`SELECT id FROM organisations WHERE slug = 'riverbend-water'`))[0].id;
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await s?.close();
  });

  async function owner(): Promise<Page> {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.setDefaultTimeout(30_000);
    await signIn(page, s.url, 'owner@demo.test');
    return page;
  }

  it("gap 3: an organisation stored with the legacy zone 'NZST' shows its dashboard and times, not the 'Oops' page", async () => {
    await s.ctx.db.query(`UPDATE organisations SET locale = '{"timezone":"NZST","country":"NZ"}' WHERE id = $1`, [riverbend]);
    try {
      const page = await owner();
      const crashes: string[] = [];
      page.on('pageerror', (e) => crashes.push(e.message));
      await page.goto(`${s.url}/org/riverbend-water/sensors/708192A3`);
      await page.getByRole('heading', { name: 'Harbour Tide Gauge' }).waitFor();
      await page.getByRole('table', { name: 'Sensor information' }).waitFor();
      await page.goto(`${s.url}/org/riverbend-water/notifications`);
      await page.getByRole('article').first().waitFor();
      await expect(page.getByText('Oops! Something went wrong').count()).resolves.toBe(0);
      expect(crashes).toEqual([]);
      await page.close();
    } finally {
      await s.ctx.db.query(`UPDATE organisations SET locale = '{"timezone":"Pacific/Auckland","country":"NZ"}' WHERE id = $1`, [riverbend]);
    }
  });

  it('gap 9: a notification of a sensor added after the page loaded names that sensor and links VIEW to it', async () => {
    const page = await owner();
    await page.goto(`${s.url}/org/riverbend-water/notifications`);
    await page.getByRole('article').first().waitFor();
    await page.waitForTimeout(1_500); // the live subscription settles
    const late = await makeSensor(s.ctx.db, riverbend, { name: 'Late Arrival Tank', serial: 'DEC0DE01' });
    const card = page.getByRole('article').filter({ hasText: 'Late Arrival Tank' });
    // low battery, fine, low again...: each low opens a notification, which arrives live
    for (let i = 0; i < 20 && !(await card.count()); i++) {
      await sendUplink(s, late.deviceKey, { serial: late.serial, battery: i % 2 ? 50 : 5 });
      await page.waitForTimeout(500);
    }
    await card.first().waitFor();
    await expect(card.first().textContent()).resolves.toContain('Late Arrival Tank · DEC0DE01');
    await expect(page.getByText('A sensor no longer in this organisation').count()).resolves.toBe(0);
    await expect(card.first().getByRole('link', { name: 'VIEW' }).getAttribute('href')).resolves.toMatch(/\/org\/riverbend-water\/sensors\/DEC0DE01\?start=\d+&end=\d+$/);
    await page.close();
  });

  it('gap 7: an old slug after a rename opens the renamed organisation, not the one used last', async () => {
    const page = await owner();
    await page.goto(`${s.url}/org/riverbend-water/notifications`);
    await page.getByRole('button', { name: 'Organisation: Riverbend Water' }).waitFor();
    await page.goto(`${s.url}/org/harbour-city-council/notifications`); // the last one used is now Harbour
    await page.getByRole('button', { name: 'Organisation: Harbour City Council' }).waitFor();
    await s.ctx.db.query(`UPDATE organisations SET slug = 'riverbend-water-renamed', name = 'Riverbend Water Renamed' WHERE id = $1`, [riverbend]);
    try {
      await page.goto(`${s.url}/org/riverbend-water/notifications?from=bookmark`);
      await page.waitForURL('**/org/riverbend-water-renamed/notifications?from=bookmark');
      await page.getByRole('button', { name: 'Organisation: Riverbend Water Renamed' }).waitFor();
      await page.close();
    } finally {
      await s.ctx.db.query(`UPDATE organisations SET slug = 'riverbend-water', name = 'Riverbend Water' WHERE id = $1`, [riverbend]);
    }
  });

  it('gap 8: sign-up reached by Back from the forgot-password form (auth not in its login state) still logs the new user in', async () => {
    const claimCode = 'feed0001-0000-4000-8000-000000000001';
    await makeSensor(s.ctx.db, null, { serial: 'FEED0001', claimCode });
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.setDefaultTimeout(30_000);
    await page.goto(`${s.url}/login`);
    await page.getByRole('link', { name: 'New to the product? Sign up here' }).click();
    await page.getByRole('heading', { name: 'Claim a sensor' }).waitFor();
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.waitForURL('**/login');
    await page.getByRole('link', { name: 'Forgot password' }).click();
    await page.waitForURL('**/forgot-password');
    await page.getByRole('button', { name: 'Send code' }).waitFor();
    // two steps back at once, past the login page, to the wizard: the reset form's state stays
    await page.evaluate(() => history.go(-2));
    await page.waitForURL('**/signup');
    await page.getByLabel('Serial number').fill('FEED0001');
    await page.getByLabel('Claim code').fill(claimCode);
    await page.getByRole('button', { name: 'Next', exact: true }).click();
    await page.getByLabel('Name', { exact: true }).fill('Back Button');
    await page.getByLabel('Organisation Name').fill('Back Button Farms');
    await page.getByRole('button', { name: 'Next', exact: true }).click();
    const email = `back.${Date.now()}@example.com`;
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Confirm email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill('First-pass-2026!');
    await page.getByLabel('Confirm password').fill('First-pass-2026!');
    await page.getByRole('button', { name: 'Sign up', exact: true }).click();
    await page.waitForURL(/\/org\/back-button-farms(-\d+)?\//, { timeout: 60_000 });
    await page.locator('header').getByText('Back Button Farms').waitFor();
    await page.close();
  });
});
