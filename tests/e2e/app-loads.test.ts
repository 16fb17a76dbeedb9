import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser } from './browser';

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
