import { describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useBrowser } from './session';
import { SIGN_UP_MESSAGES } from '../../src/domain/sign-up-rules';

const SHOTS = 'test-results/e2e';
const ORG = '/org/riverbend-water';
const SENSORS = `${ORG}/sensors`;
// the demo sensors of Riverbend Water sorted by name (monitoring-client 2.4)
const BY_NAME = [
  'Bore 7 Pressure',
  'Culvert 12',
  'Diesel Depot Tank 1',
  'Flood Gauge Deep',
  'Harbour Tide Gauge',
  'Kaituna River Weir',
  'Main Reservoir',
  'Outfall Flume',
  'Spare Tank',
  'Stock Tank North',
];

describe('sensors page and dashboard in the browser (issue 4)', () => {
  const baseUrl = inject('baseUrl');
  // no test here signs out or changes an account's sign-in: each account signs in through the form once
  const b = useBrowser({ shots: SHOTS, signInOnce: true });
  const as = (email: string, path: string, width = 1280, height = 900): Promise<Page> => b.signedIn(baseUrl, email, { path, width, height });
  const listItems = (page: Page) => page.getByRole('list', { name: 'Sensors' }).getByRole('listitem');

  it('a member sees the list sorted by name, the bare route opens the first sensor, and search narrows it (2.4, 5)', async () => {
    const page = await as('member@demo.test', SENSORS);
    await page.waitForURL(`**${SENSORS}/5E6F7081`);
    // a row is an empty, busy placeholder until the worker has sent its sensor: read the names once all are in
    const names = () => listItems(page).evaluateAll((els) => els.map((e) => e.querySelector('[data-part=name]')?.textContent));
    await expect.poll(names).toEqual(BY_NAME);

    await page.getByLabel('Search sensors').fill('Resevoir');
    await expect.poll(async () => (await listItems(page).allTextContents()).map((t) => t.includes('1A2B3C4D'))).toEqual([true]);
    await page.getByLabel('Search sensors').fill('   ');
    await expect.poll(names).toEqual(BY_NAME);

    await page.getByLabel('Search sensors').fill('1A2B');
    await expect.poll(names).toEqual(['Main Reservoir']); // after the 200 ms debounce
    await listItems(page).first().click();
    await page.waitForURL(`**${SENSORS}/1A2B3C4D`);
    await page.getByRole('heading', { name: 'Main Reservoir' }).waitFor();
    const info = page.getByRole('table', { name: 'Sensor information' });
    await expect(info.textContent()).resolves.toMatch(/Sensor typeLS1-R.*ModuleRadar.*Serial1A2B3C4D.*RadioCellular/);
    await expect(page.getByText('Latest measurement').isVisible()).resolves.toBe(true);
    await expect(page.getByTestId('latest-level').textContent()).resolves.toMatch(/^\d+\.\d{3} m$/);
    // members see only the Dashboard: no Add Sensor, no Admin Tools (roles 6)
    expect(await page.getByRole('button', { name: 'Add Sensor' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Admin Tools' }).count()).toBe(0);
    await page.screenshot({ path: `${SHOTS}/sensors-dashboard-member-1280.png`, fullPage: true });
    await page.close();
  });

  it('shows the status icon by status and the highlight pane messages (4, 8)', async () => {
    const page = await as('member@demo.test', `${SENSORS}/92A3B4C5`);
    await page.getByRole('heading', { name: 'Spare Tank' }).waitFor();
    // the scheduler is off: disabled
    await expect(listItems(page).filter({ hasText: 'Spare Tank' }).locator('[data-status]').getAttribute('data-status')).resolves.toBe('DISABLED');
    // offline asserted with battery 4: warning, battery text 'Less than 5%'
    await expect(listItems(page).filter({ hasText: 'Culvert 12' }).locator('[data-status]').getAttribute('data-status')).resolves.toBe('WARNING');
    await listItems(page).filter({ hasText: 'Culvert 12' }).click();
    await page.getByRole('heading', { name: 'Culvert 12' }).waitFor();
    await expect(page.getByRole('table', { name: 'Sensor information' }).textContent()).resolves.toContain('Less than 5%');
    await page.close();
  });

  it('sends an unknown serial and an unknown sub-path to the default sensors route (2.4, 2.5)', async () => {
    const page = await as('member@demo.test', `${SENSORS}/DEADBEEF`);
    await page.waitForURL(`**${SENSORS}/5E6F7081`);
    await page.goto(`${baseUrl}${SENSORS}/1A2B3C4D/admin-tools/errors`); // a member is no site admin
    await page.waitForURL(`**${SENSORS}/5E6F7081`);
    await page.goto(`${baseUrl}${SENSORS}/1A2B3C4D/nonsense`);
    await page.waitForURL(`**${SENSORS}/5E6F7081`);
    await page.close();
  });

  it('an admin adds the unclaimed demo sensor C0FFEE02 and sees the success text (2.4, 4)', async () => {
    const page = await as('admin@demo.test', `${SENSORS}/1A2B3C4D`);
    await page.getByRole('button', { name: 'Add Sensor' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a New Sensor' });
    await dialog.getByLabel('Serial number').fill('c0ffee02');
    await dialog.getByLabel('Claim code').fill('not-a-code');
    await dialog.getByRole('button', { name: 'Add Sensor' }).click();
    await dialog.getByText(SIGN_UP_MESSAGES.claimCodeInvalid).waitFor(); // the claim code's own message, under its field
    await dialog.getByLabel('Claim code').fill('c0ffee02-0000-4000-8000-000000000002');
    await dialog.getByRole('button', { name: 'Add Sensor' }).click();
    await dialog.getByText('Sensor C0FFEE02 has been added to your organisation.').waitFor();
    await page.screenshot({ path: `${SHOTS}/sensors-add-success-1280.png` });
    await dialog.getByRole('button', { name: 'Done' }).click();
    await page.waitForURL(`**${SENSORS}/C0FFEE02`);
    await expect.poll(() => listItems(page).count()).toBe(BY_NAME.length + 1);
    await page.close();
  });

  it('a site admin opens Measurement Errors under Admin Tools, filters and sorts (2.5, 2.7, 4)', async () => {
    const page = await as('siteadmin@demo.test', `${SENSORS}/2B3C4D5E`);
    await page.getByRole('button', { name: 'Admin Tools' }).click();
    await page.getByRole('menuitem', { name: 'Measurement Errors' }).click();
    await page.waitForURL(`**${SENSORS}/2B3C4D5E/admin-tools/errors`);
    // a year of history: open the page over the whole year
    const now = Date.now();
    await page.goto(`${baseUrl}${SENSORS}/2B3C4D5E/admin-tools/errors?start=${now - 365 * 86_400_000}&end=${now}`);
    const table = page.getByRole('table', { name: 'Measurement errors' });
    await table.waitFor();
    await expect(table.locator('thead').textContent()).resolves.toBe('ErrorTime');
    await expect(page.getByRole('region', { name: 'Analysis summary' }).textContent()).resolves.toContain('Average frequency');
    await page.screenshot({ path: `${SHOTS}/errors-siteadmin-1280.png`, fullPage: true });

    const times = async () => (await table.locator('tbody tr td:nth-child(2)').allTextContents()).map((t) => Date.parse(t.replace(',', '')));
    // the rows arrive after the table: wait for more than one before reading the order
    await expect.poll(async () => (await times()).length).toBeGreaterThan(1);
    const desc = await times();
    expect([...desc].sort((a, b) => b - a)).toEqual(desc); // time descending by default

    await page.getByLabel('Sort', { exact: true }).first().click();
    await page.getByRole('option', { name: 'Time (oldest first)' }).click();
    await expect.poll(async () => {
      const asc = await times();
      return asc.length > 1 && asc.every((t, i) => i === 0 || asc[i - 1] <= t);
    }).toBe(true);

    await page.getByLabel('Filter', { exact: true }).first().click();
    await page.getByRole('option', { name: 'Bad Sensor' }).click();
    await expect
      .poll(async () => {
        if (await page.getByText('No measurement errors for this date range.').isVisible()) return 'empty';
        const labels = await table.locator('tbody tr td:nth-child(1)').allTextContents();
        return labels.every((l) => l.endsWith('Bad Sensor')) ? 'bad sensor only' : labels.join('|');
      })
      .toMatch(/^(empty|bad sensor only)$/);
    await page.close();
  });

  it('going back from one sensor to another\'s setup section opens that sensor\'s section, not the last sensor\'s (2.5; sensor-setup 2)', async () => {
    const STOCK = '2B3C4D5E'; // Stock Tank North: a T35 whose setup opens on Tank Settings
    const MAIN = '1A2B3C4D'; // Main Reservoir: a radar level sensor with no Tank Settings
    const page = await as('owner@demo.test', `${SENSORS}/${STOCK}/setup`);
    await page.waitForURL(`**${SENSORS}/${STOCK}/setup/tank`);
    await page.getByRole('heading', { level: 1, name: 'Stock Tank North' }).waitFor();
    await listItems(page).filter({ hasText: 'Main Reservoir' }).click();
    await page.waitForURL(`**${SENSORS}/${MAIN}`);
    await page.getByRole('heading', { level: 1, name: 'Main Reservoir' }).waitFor();

    // back to Stock Tank North's Tank Settings: not redirected to a section of Main Reservoir's setup
    await page.goBack();
    await page.getByRole('heading', { level: 1, name: 'Stock Tank North' }).waitFor();
    await page.getByRole('navigation', { name: 'Setup sections' }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`${SENSORS}/${STOCK}/setup/tank`);
    await page.close();
  });

  it('at 800 px wide the list and the detail alternate, with an All Sensors back button (2.4, 9)', async () => {
    const page = await as('owner@demo.test', SENSORS, 800, 900);
    await expect.poll(() => listItems(page).count()).toBeGreaterThan(5);
    expect(page.url()).toMatch(/\/sensors$/);
    await page.screenshot({ path: `${SHOTS}/sensors-list-800.png` });
    await listItems(page).filter({ hasText: 'Main Reservoir' }).click();
    await page.getByRole('heading', { name: 'Main Reservoir' }).waitFor();
    expect(await page.getByRole('list', { name: 'Sensors' }).count()).toBe(0);
    await page.screenshot({ path: `${SHOTS}/sensors-detail-800.png`, fullPage: true });
    await page.getByRole('link', { name: 'All Sensors' }).click();
    await page.waitForURL(/\/sensors$/);
    await expect.poll(() => listItems(page).count()).toBeGreaterThan(5);
    await page.close();
  });
});
