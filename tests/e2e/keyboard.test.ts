import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { readFileSync } from 'node:fs';
import { DateTime } from 'luxon';
import { DEMO_PASSWORD, expectAccessible, launchBrowser, signIn } from './browser';

const ZONE = 'Pacific/Auckland'; // Riverbend Water's zone
const SENSOR = 'Main Reservoir'; // 1A2B3C4D: a year of 1-minute levels

/** What has focus, as a user of a screen reader would hear it named. */
async function focused(page: Page) {
  return page.evaluate(() => {
    const e = document.activeElement as HTMLElement | null;
    if (!e || e === document.body) return { tag: 'body', name: '', role: '' };
    const labelled = e.getAttribute('aria-labelledby');
    const byLabel = labelled ? labelled.split(' ').map((id) => document.getElementById(id)?.textContent ?? '').join(' ') : '';
    const forLabel = e.id ? (document.querySelector(`label[for="${CSS.escape(e.id)}"]`)?.textContent ?? '') : '';
    const name = (e.getAttribute('aria-label') ?? byLabel) || forLabel || e.textContent || '';
    return { tag: e.tagName.toLowerCase(), name: name.replace(/\s+/g, ' ').trim(), role: e.getAttribute('role') ?? '' };
  });
}

/** Presses Tab (or Shift+Tab) until what has focus is named `name`: it must be in the focus order. */
async function tabTo(page: Page, name: RegExp, { back = false, max = 80 } = {}) {
  const seen: string[] = [];
  for (let i = 0; i < max; i++) {
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
    const f = await focused(page);
    seen.push(f.name);
    if (name.test(f.name)) return f;
  }
  throw new Error(`${name} is not in the focus order; Tab went through: ${seen.join(' | ')}`);
}

const announced = (page: Page) => page.getByTestId('chart-announcement').textContent().then((t) => (t ?? '').trim());
/** Presses `key` and returns what the live region says after it. */
async function press(page: Page, key: string) {
  const before = await announced(page);
  await page.keyboard.press(key);
  await expect.poll(() => announced(page)).not.toBe(before);
  return announced(page);
}
const READ = /^(\w{3} \d{1,2} \w{3} \d{4}, \d{2}:\d{2}) (\S+): (-?\d+\.\d{3}) m\. Point (\d+) of (\d+)\.$/;
const parse = (text: string, zone: string) => {
  const m = READ.exec(text);
  if (!m) throw new Error(`not a point announcement: ${text}`);
  return { at: DateTime.fromFormat(m[1]!, 'ccc d LLL yyyy, HH:mm', { zone, locale: 'en-NZ' }), zoneName: m[2]!, value: Number(m[3]), index: Number(m[4]), of: Number(m[5]) };
};

describe('keyboard only (issue 16): sign in, open a sensor, read the chart, export, sign out', () => {
  const baseUrl = inject('baseUrl');
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser?.close());

  it('does everything with the keyboard alone, every state checked with axe', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true, timezoneId: 'UTC' });
    const page = await context.newPage();
    // no mouse: any click or hover by the test would be a bug of the test, so there is none below
    await page.goto(`${baseUrl}/login`);
    await page.getByRole('heading', { name: 'Log in to Tidewatch' }).waitFor();

    await tabTo(page, /^Email/);
    await page.keyboard.type('owner@demo.test');
    await tabTo(page, /^Password/);
    await page.keyboard.type(DEMO_PASSWORD);
    await page.keyboard.press('Enter');
    await page.waitForURL((u) => u.pathname.startsWith('/org/'), { timeout: 30_000 });
    // the owner lands in one of two organisations: the address bar takes us to Riverbend's sensors
    await page.goto(`${baseUrl}/org/riverbend-water/sensors`);
    await page.getByRole('list', { name: 'Sensors' }).waitFor();

    // the skip link is the first stop and lands in the page
    await page.keyboard.press('Tab');
    expect((await focused(page)).name).toBe('Skip to content');
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('main');

    // the organisation switcher opens from the keyboard, offers both organisations, and Escape returns
    await tabTo(page, /^Organisation: Riverbend Water/, { back: true });
    await page.keyboard.press('Enter');
    const menu = page.getByRole('menu');
    await menu.waitFor();
    await page.keyboard.press('ArrowDown');
    await expect.poll(async () => (await focused(page)).role, { timeout: 5_000 }).toBe('menuitem');
    expect(await menu.getByRole('menuitem').allTextContents()).toEqual(expect.arrayContaining(['Harbour City Council', 'Riverbend Water']));
    await expectAccessible(page, 'organisation switcher open');
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'hidden' });
    await expect.poll(async () => (await focused(page)).name, { timeout: 5_000 }).toMatch(/^Organisation: Riverbend Water/);

    // open the sensor from the list
    await tabTo(page, new RegExp(`^${SENSOR}`));
    await page.keyboard.press('Enter');
    await page.waitForURL('**/sensors/1A2B3C4D');
    await page.getByRole('heading', { level: 1, name: SENSOR }).waitFor();
    await page.waitForFunction(() => document.querySelector('[data-testid=chart-pane]')?.getAttribute('data-status') === 'ready', null, { timeout: 60_000 });
    await expectAccessible(page, 'dashboard with the chart drawn');

    // the chart: End is the latest point, in the organisation's zone and unit
    const chart = await tabTo(page, /^Water Level \(m\) chart$/);
    expect(chart.role).toBe('application');
    const latest = parse(await press(page, 'End'), ZONE);
    expect(latest.index).toBe(latest.of);
    expect(latest.zoneName).toBe('NZDT'); // Auckland in November
    expect(await page.getByTestId('chart-summary').textContent()).toContain(`Latest ${latest.value.toFixed(3)} m at`);
    const first = parse(await press(page, 'Home'), ZONE);
    expect(first.index).toBe(1);
    const second = parse(await press(page, 'ArrowRight'), ZONE);
    expect(second.index).toBe(2);
    expect(second.at >= first.at).toBe(true);
    // Page Down: the first drawn point at least a day on
    const dayOn = parse(await press(page, 'PageDown'), ZONE);
    expect(dayOn.at.diff(second.at, 'hours').hours).toBeGreaterThanOrEqual(24);
    expect(dayOn.at.diff(second.at, 'hours').hours).toBeLessThan(26);
    const back = parse(await press(page, 'PageUp'), ZONE);
    expect(dayOn.at.diff(back.at, 'hours').hours).toBeGreaterThanOrEqual(24);
    // the point under the cursor is the one uPlot's tooltip shows
    await expect.poll(() => page.getByTestId('chart-tooltip').textContent()).toContain(back.value.toFixed(3));

    // the viewer's own zone (this browser runs in UTC): the same point, another clock
    // (a radio group: Tab reaches the checked option, arrows choose)
    await tabTo(page, /^Organisation time \(Pacific\/Auckland\)/, { back: true });
    await page.keyboard.press('ArrowRight');
    expect((await focused(page)).name).toBe('My time (UTC)');
    await tabTo(page, /^Water Level \(m\) chart$/);
    const utc = parse(await press(page, 'End'), 'UTC');
    expect(utc.zoneName).toBe('UTC');
    expect(utc.at.toMillis()).toBe(latest.at.toMillis());
    expect(utc.value).toBe(latest.value);

    // the table view: the drawn points as rows
    await tabTo(page, /^Chart$/, { back: true });
    await page.keyboard.press('ArrowRight');
    expect((await focused(page)).name).toBe('Table');
    const table = page.getByTestId('chart-table');
    await table.waitFor();
    expect(await table.getByRole('row').count()).toBe(latest.of + 1);
    await expectAccessible(page, 'chart as a table');
    await page.keyboard.press('ArrowLeft'); // back to Chart (a radio group)
    await table.waitFor({ state: 'detached' });

    // export the CSV: the dialog traps focus and gives it back to Export when it closes
    const exportButton = await tabTo(page, /^Export$/, { back: true });
    expect(exportButton.tag).toBe('button');
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Export Options' });
    await dialog.waitFor();
    await expectAccessible(page, 'export dialog');
    for (let i = 0; i < 12; i++) {
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => !!document.activeElement?.closest('[role=dialog]')), 'focus stays in the dialog').toBe(true);
    }
    await tabTo(page, /^Download CSV$/);
    const [download] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
    const lines = readFileSync((await download.path())!, 'utf8').trimEnd().split(/\r?\n/);
    expect(lines[0]).toMatch(/Water Level \(m\)/);
    expect(lines.length).toBeGreaterThan(1000); // full resolution: every minute of the range
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(async () => (await focused(page)).name, { timeout: 5_000 }).toBe('Export');

    // sign out from the profile menu
    await tabTo(page, /Profile menu/, { back: true, max: 200 });
    await page.keyboard.press('Enter');
    await page.getByRole('menu').waitFor();
    // a menu moves by arrow keys
    for (let i = 0; i < 12 && (await focused(page)).name !== 'Log out'; i++) await page.keyboard.press('ArrowDown');
    expect((await focused(page)).name).toBe('Log out');
    await page.keyboard.press('Enter');
    await page.waitForURL((u) => u.pathname === '/login', { timeout: 30_000 });
    await context.close();
  });

  it('the date presets list: Up/Down, Home/End move, Enter chooses, focus stays in the popover and returns to its button (WAI-ARIA listbox)', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, timezoneId: 'UTC' });
    const page = await context.newPage();
    await signIn(page, baseUrl, 'owner@demo.test');
    await page.goto(`${baseUrl}/org/riverbend-water/sensors/1A2B3C4D`);
    await page.waitForFunction(() => document.querySelector('[data-testid=chart-pane]')?.getAttribute('data-status') === 'ready', null, { timeout: 60_000 });
    await page.getByRole('heading', { level: 1, name: SENSOR }).click(); // a start for Tab inside the page
    await tabTo(page, /^Date range: Last 3 Days/);
    await page.keyboard.press('Enter');
    const list = page.getByRole('listbox', { name: 'Date presets' });
    await list.waitFor();
    // focus starts on the chosen preset (moved there once the popover has opened), and the list is one tab stop
    await expect.poll(() => focused(page), { timeout: 5_000 }).toMatchObject({ role: 'option', name: 'Last 3 Days' });
    expect(await list.locator('[tabindex="0"]').count()).toBe(1);
    const after = async (key: string) => {
      await page.keyboard.press(key);
      return (await focused(page)).name;
    };
    expect(await after('ArrowDown')).toBe('Last 30 Days');
    expect(await after('ArrowUp')).toBe('Last 3 Days');
    expect(await after('ArrowUp')).toBe('Today');
    expect(await after('ArrowUp')).toBe('Today'); // no wrap
    expect(await after('End')).toBe('Custom: pick days');
    expect(await after('ArrowDown')).toBe('Custom: pick days');
    expect(await after('Home')).toBe('Today');
    await expectAccessible(page, 'date presets list moved by arrows');
    // Enter on Custom takes the focus to the calendar's days
    await after('End');
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => !!document.activeElement?.closest('table') && document.activeElement?.tagName === 'BUTTON')).toBe(true);
    // Tab cycles inside the popover: the list is one stop, the rest is the calendar
    for (let i = 0; i < 10; i++) {
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => !!document.activeElement?.closest('[role=dialog]')), 'focus stays in the popover').toBe(true);
    }
    // back in the list the roving stop is where the arrows left it; choose This Month with Enter
    await tabTo(page, /^Custom: pick days$/);
    expect(await after('Home')).toBe('Today');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    expect(await after('ArrowDown')).toBe('This Month');
    await page.keyboard.press('Enter');
    await list.waitFor({ state: 'hidden' });
    // the popover hands the focus back once its closing transition ends, a moment after the list hides
    await expect.poll(async () => (await focused(page)).name, { timeout: 5_000 }).toMatch(/^Date range: This Month/);
    // opened again, the focus starts on the new choice; Escape closes and returns the focus
    await page.keyboard.press('Enter');
    await list.waitFor();
    await expect.poll(() => focused(page), { timeout: 5_000 }).toMatchObject({ role: 'option', name: 'This Month' });
    await page.keyboard.press('Escape');
    await list.waitFor({ state: 'hidden' });
    // the popover hands the focus back once its closing transition ends, a moment after the list hides
    await expect.poll(async () => (await focused(page)).name, { timeout: 5_000 }).toMatch(/^Date range: This Month/);
    await context.close();
  });
});
