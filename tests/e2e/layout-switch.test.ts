import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { launchBrowser, signIn } from './browser';

const SENSORS = '/org/riverbend-water/sensors';
const CULVERT = 'A3B4C5';

/**
 * A window resized across the layout breakpoints (900 px: the frame and the sensors page; 640 px:
 * the setup sections), a tablet turned, or Chromium's full-page capture (which sets the viewport to
 * 1 x 1 px for a moment) restyles the page; it must not remount a form and lose what the user typed.
 * Nothing here is saved.
 */
describe('a layout switch keeps unsaved edits', () => {
  const baseUrl = inject('baseUrl');
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await signIn(page, baseUrl, 'owner@demo.test');
  });
  afterAll(async () => {
    await browser?.close();
  });

  /** Phone width and back, then a full-page capture: the field keeps its value throughout. */
  async function survives(field: Locator, value: string) {
    await page.setViewportSize({ width: 390, height: 800 });
    await expect.poll(() => page.evaluate(() => innerWidth)).toBe(390);
    await expect(field.inputValue()).resolves.toBe(value);
    await page.setViewportSize({ width: 1280, height: 900 });
    await expect.poll(() => page.evaluate(() => innerWidth)).toBe(1280);
    await expect(field.inputValue()).resolves.toBe(value);
    await page.screenshot({ fullPage: true });
    await expect(field.inputValue()).resolves.toBe(value);
  }

  it('sensor setup: the display form', async () => {
    await page.goto(`${baseUrl}${SENSORS}/${CULVERT}/setup/display`);
    const name = page.getByLabel('Sensor name');
    await expect.poll(() => name.inputValue()).toBe('Culvert 12');
    await name.fill('Culvert 12 (typed, not saved)');
    await page.getByRole('button', { name: 'Add reference line' }).click();
    await page.getByLabel('Reference line 1 label').fill('Bank full');
    await survives(name, 'Culvert 12 (typed, not saved)');
    await expect(page.getByLabel('Reference line 1 label').inputValue()).resolves.toBe('Bank full');
  });

  it('organisation settings: the details form', async () => {
    await page.goto(`${baseUrl}/org/riverbend-water/settings/details`);
    const name = page.getByLabel('Organisation name');
    await expect.poll(() => name.inputValue()).toBe('Riverbend Water');
    await name.fill('Riverbend (typed, not saved)');
    await survives(name, 'Riverbend (typed, not saved)');
  });

  it('user settings: the account form', async () => {
    await page.goto(`${baseUrl}/settings/account`);
    const mobile = page.getByLabel('Mobile number');
    await mobile.waitFor();
    await mobile.fill('021 555 0100');
    await survives(mobile, '021 555 0100');
  });
});
