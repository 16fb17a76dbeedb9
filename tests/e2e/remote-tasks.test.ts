import { describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useBrowser } from './session';
import { BANNERS, TASK_MESSAGES } from '../../src/domain/remote-tasks';
import { ALARM_MESSAGES, ALARM_ORDER_MESSAGES } from '../../src/domain/task-params';

const SHOTS = 'test-results/e2e';
const SENSORS = '/org/riverbend-water/sensors';

/**
 * Issue 12 in the browser against the demo world and its simulator (speed 60: a 15-minute
 * transmission every 15 s). Culvert 12 (A3B4C5) is offline and never calls in, so its tasks stay
 * queued; Main Reservoir (1A2B3C4D) collects and reports tasks; Harbour Tide Gauge (708192A3) runs
 * firmware 131, so a site admin may create every task type on it.
 */
describe('remote tasks in the browser (issue 12)', () => {
  const baseUrl = inject('baseUrl');
  // no test here signs out or changes an account's sign-in: each account signs in through the form once
  const b = useBrowser({ shots: SHOTS, signInOnce: true });
  const as = (email: string, path: string, width = 1280): Promise<Page> => b.signedIn(baseUrl, email, { path, width });
  const toast = (page: Page, text: string) => page.getByText(text, { exact: true }).first().waitFor({ timeout: 15_000 });
  const completed = (page: Page) => page.getByTestId('completed-tasks').getByTestId('task-row');
  async function pick(page: Page, label: string, option: string) {
    await page.getByRole('dialog').getByLabel(label, { exact: true }).first().click();
    await page.getByRole('option', { name: option, exact: true }).click();
  }
  async function openCreate(page: Page, type?: string) {
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0); // the last modal has closed
    await page.getByRole('button', { name: 'Create', exact: true }).first().click();
    await page.getByRole('dialog', { name: 'Create Remote Task' }).waitFor();
    if (type) await pick(page, 'Task type', type);
  }
  const submit = (page: Page) => page.getByRole('dialog').getByRole('button', { name: 'Create', exact: true }).click();

  it('a created task goes from queued to completed as the simulated device collects and reports it', async () => {
    const page = await as('admin@demo.test', `${SENSORS}/1A2B3C4D/setup/remote`);
    await page.getByRole('heading', { name: 'Queued Tasks' }).waitFor();
    await openCreate(page, 'Update Alarm Mode Scheduler');
    await page.getByText('Update the alarm mode scheduler setting').waitFor();
    await pick(page, 'Transmit while an alarm is active', 'Every 2 minutes (2 measurements)');
    await submit(page);
    await toast(page, TASK_MESSAGES.created);
    const row = page.getByTestId('queued-tasks').locator('[data-type=ExtendedConfig]');
    await row.waitFor();
    await page.screenshot({ path: `${SHOTS}/remote-tasks-queued.png` });
    // dispatched with the next transmission, reported with the one after: live, without a reload
    await expect.poll(() => completed(page).first().getAttribute('data-type'), { timeout: 90_000 }).toBe('ExtendedConfig');
    await expect(completed(page).first().getAttribute('data-status')).resolves.toMatch(/Success|Error/);
    await completed(page).first().getByRole('button', { expanded: false }).click();
    await page.getByTestId('task-details').first().getByText('Completed time').waitFor();
    await page.close();
  });

  it('update rate on a sensor that never calls in: save, save again over the pending task, cancel the pending changes', async () => {
    const page = await as('admin@demo.test', `${SENSORS}/A3B4C5/setup/update-rate`);
    const save = page.getByRole('button', { name: 'Save' });
    await expect(save.isDisabled()).resolves.toBe(true); // nothing changed
    await page.getByLabel('Transmission interval', { exact: true }).first().click();
    await page.getByRole('option', { name: '30 minutes', exact: true }).click();
    await save.click();
    await toast(page, TASK_MESSAGES.sensorUpdated);
    await page.getByTestId('pending-banner').waitFor();
    await page.getByLabel('Transmission interval', { exact: true }).first().click();
    await page.getByRole('option', { name: '15 minutes', exact: true }).click();
    await save.click();
    await page.getByRole('dialog', { name: 'Changes already scheduled' }).waitFor();
    await page.screenshot({ path: `${SHOTS}/update-rate-scheduled.png` });
    await page.getByRole('button', { name: 'Update changes' }).click();
    await expect.poll(() => page.getByText(TASK_MESSAGES.sensorUpdated, { exact: true }).count()).toBeGreaterThan(0);
    await page.getByTestId('pending-banner').getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('button', { name: 'Yes, cancel changes' }).click();
    await expect.poll(() => page.getByTestId('pending-banner').count()).toBe(0);
    // the first save's task was cancelled by the second, the second's by the banner
    await page.goto(`${baseUrl}${SENSORS}/A3B4C5/setup/remote`);
    await page.getByRole('heading', { name: 'Completed Tasks' }).waitFor();
    await expect.poll(() => page.getByTestId('completed-tasks').locator('[data-type=SensorConfig][data-status=Canceled]').count()).toBeGreaterThanOrEqual(2);
    await page.close();
  });

  it('cancel asks Yes/No; then each admin type until the limits leave nothing to create', async () => {
    const page = await as('admin@demo.test', `${SENSORS}/A3B4C5/setup/remote`);
    await page.getByRole('heading', { name: 'Queued Tasks' }).waitFor();
    await openCreate(page, 'Update Scheduler');
    await submit(page);
    await toast(page, TASK_MESSAGES.created);
    const row = page.getByTestId('queued-tasks').locator('[data-type=SensorConfig]');
    await row.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('dialog', { name: 'Cancel Remote Task' }).getByRole('button', { name: 'No' }).click();
    await expect(row.count()).resolves.toBe(1);
    await row.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('dialog', { name: 'Cancel Remote Task' }).getByRole('button', { name: 'Yes' }).click();
    await toast(page, TASK_MESSAGES.canceled);
    await expect.poll(() => row.count()).toBe(0);

    await openCreate(page, 'Update Scheduler');
    await submit(page);
    await toast(page, TASK_MESSAGES.created);
    await openCreate(page, 'Update Alarm Mode Scheduler');
    await submit(page);
    await expect.poll(() => page.getByTestId('queued-tasks').locator('[data-type=ExtendedConfig]').count()).toBe(1);
    // the seeded alarm task holds one of three alarm places; two more fill them. The low alarm is typed as
    // a percentage of the display limits (0-2 m): negative is refused, 75% (1.5 m) is above the queued high alarm (1.4 m)
    await openCreate(page, 'Update Alarm Setting');
    await pick(page, 'Alarm type', 'Low level');
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Percentage (%)', { exact: true }).click();
    const threshold = dialog.getByLabel(/^Threshold/).first();
    await threshold.fill('-5');
    await submit(page);
    await dialog.getByText(ALARM_MESSAGES.negativePercent, { exact: true }).waitFor();
    await threshold.fill('75');
    await dialog.getByText(ALARM_ORDER_MESSAGES.percentage.lowAboveHigh, { exact: true }).waitFor();
    await page.screenshot({ path: `${SHOTS}/remote-alarm-percentage.png` });
    await threshold.fill('10');
    await submit(page);
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    const alarms = page.getByTestId('queued-tasks').locator('[data-type=AlarmConfig]');
    await expect.poll(() => alarms.count()).toBe(2);
    await alarms.last().getByRole('button', { expanded: false }).click();
    await alarms.last().getByText('Low level at 0.200 m').first().waitFor(); // 10% of 0-2000 mm, in the organisation's metres
    await openCreate(page, 'Update Alarm Setting');
    await pick(page, 'Alarm type', 'Rapid change (rising)');
    await dialog.getByLabel(/^Threshold/).first().fill('300');
    await submit(page);
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    await expect.poll(() => page.getByTestId('queued-tasks').locator('[data-type=AlarmConfig]').count()).toBe(3);
    await openCreate(page);
    await page.getByText(TASK_MESSAGES.noTypeLeft).waitFor();
    await page.screenshot({ path: `${SHOTS}/remote-tasks-none-left.png` });
    await page.close();
  });

  it('shows each banner: satellite, scheduler off, firmware below 27', async () => {
    const page = await as('owner@demo.test', `${SENSORS}/5E6F7081/setup/remote`);
    await page.getByText(BANNERS.satellite).waitFor();
    await page.goto(`${baseUrl}${SENSORS}/92A3B4C5/setup/remote`);
    await page.getByText(BANNERS.schedulerOff).waitFor();
    await page.goto(`${baseUrl}${SENSORS}/4D5E6F70/setup/remote`);
    await page.getByText(BANNERS.firmware(27)).waitFor().catch(async (err) => {
      await page.screenshot({ path: `${SHOTS}/remote-tasks-firmware-banner.png` });
      throw err;
    });
    await expect(page.getByRole('button', { name: 'Create', exact: true }).count()).resolves.toBe(0);
    await page.close();
  });

  it('a site admin upgrades firmware and sends a full radar configuration', async () => {
    const page = await as('siteadmin@demo.test', `${SENSORS}/708192A3/setup/remote`);
    await page.getByRole('heading', { name: 'Queued Tasks' }).waitFor();
    await openCreate(page, 'Upgrade Firmware');
    await page.getByRole('dialog').getByLabel('Firmware').first().click();
    await page.getByRole('option').first().click();
    await submit(page);
    await toast(page, TASK_MESSAGES.created);
    await expect.poll(() => page.getByTestId('queued-tasks').locator('[data-type=FirmwareDownload]').count()).toBeGreaterThan(0);
    await page.goto(`${baseUrl}${SENSORS}/708192A3/setup/radar`);
    // the device reports the radar settings it runs with (the seeded history's) with its first uplink
    const current = page.getByTestId('radar-current');
    await page.getByText('Reported by the sensor', { exact: false }).waitFor({ timeout: 60_000 });
    await expect(current.getByRole('row', { name: /Peak sorting/ }).innerText()).resolves.toContain('Strongest Flat Reflector First');
    await page.getByLabel('Gain').fill('0.4');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await toast(page, TASK_MESSAGES.radarCreated);
    // one full radar task at a time: the form waits until it has run
    await page.getByText('A full radar configuration is already queued', { exact: false }).waitFor();
    await expect(page.getByRole('button', { name: 'Create', exact: true }).isDisabled()).resolves.toBe(true);
    await page.screenshot({ path: `${SHOTS}/radar-queued.png`, fullPage: true });
    // after the firmware task ahead of it, the device collects it and reports Success: the screen shows it, live
    await page.getByText('Applied by a remote task', { exact: false }).waitFor({ timeout: 150_000 });
    await expect(current.getByRole('row', { name: /^Gain/ }).innerText()).resolves.toContain('0.4');
    await expect.poll(() => page.getByRole('button', { name: 'Create', exact: true }).isDisabled()).toBe(false);
    await page.close();
  });

  it('a member has no setup and the gateway refuses their remote-task calls', async () => {
    const page = await as('member@demo.test', `${SENSORS}/1A2B3C4D/setup/remote`);
    await expect.poll(() => page.url()).not.toContain('/setup');
    await page.getByRole('tab', { name: 'Dashboard' }).waitFor();
    expect(await page.getByRole('tab', { name: 'Sensor Setup' }).count()).toBe(0);
    const status = await page.evaluate(async () => {
      const key = Object.keys(localStorage).find((k) => k.endsWith('.idToken'))!;
      const headers = { Authorization: localStorage.getItem(key)! };
      const { organisations } = await (await fetch('/api/organisations', { headers })).json();
      const org = organisations.find((o: { slug: string }) => o.slug === 'riverbend-water');
      const { sensors } = await (await fetch(`/api/organisations/${org.id}/sensors`, { headers })).json();
      const s = sensors.find((x: { serial: string }) => x.serial === '1A2B3C4D');
      const body = JSON.stringify({ type: 'SensorConfig', params: { measurementInterval: 15, measurementsPerTransmission: 1, maxGradient: 150, deltaCompressionEnabled: false } });
      const post = await fetch(`/api/organisations/${org.id}/sensors/${s.id}/downlink-tasks`, { method: 'POST', headers: { ...headers, 'Content-Type': 'application/json' }, body });
      const get = await fetch(`/api/organisations/${org.id}/sensors/${s.id}/downlink-tasks`, { headers });
      return [post.status, get.status];
    });
    expect(status).toEqual([403, 403]);
    await page.close();
  });
});
