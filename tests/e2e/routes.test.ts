import { readFileSync } from 'node:fs';
import { describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { expectAccessible } from './browser';
import { useBrowser } from './session';
import { ROUTE_MESSAGES } from '../../src/contract/route.schema';
import { METER_READER_MESSAGE } from '../../src/domain/messages';

const SHOTS = 'test-results/e2e';
const ROUTES = '/org/harbour-city-council/service-routes';

/**
 * Issue 14's screens in the browser against the demo world (Harbour City Council has the
 * meterReading feature; its seeded tasks: 1001 KEL-01 exported, 1002 TEA-02 complete, 1003 MAK-03
 * active, 1004 KAR-04 waiting and assigned, 1005 MIR-05 waiting and unassigned, 1006 a special
 * route). owner@demo.test owns it, siteadmin@demo.test is a member, reader@demo.test its meter reader.
 */
describe('service routes in the browser (issue 14)', () => {
  const baseUrl = inject('baseUrl');
  // no test here signs out or changes an account's sign-in: each account signs in through the form once
  const b = useBrowser({ shots: SHOTS, signInOnce: true });
  const as = (email: string, path: string, width = 1280): Promise<Page> => b.signedIn(baseUrl, email, { path, width, acceptDownloads: true });
  const taskRow = (page: Page, n: number) => page.getByRole('row').filter({ has: page.getByRole('link', { name: String(n), exact: true }) });
  const taskLinks = (page: Page) => page.getByRole('table', { name: 'Route tasks' }).getByRole('link');
  async function pick(page: Page, label: string, option: string, scope = page.getByRole('dialog')) {
    // force: a MultiSelect's pills lie over its input
    await scope.getByLabel(label, { exact: true }).first().click({ force: true });
    await page.getByRole('option', { name: option, exact: true }).click();
  }

  it('meter-reading organisations get Service Routes instead of Sensors and Map; without the feature the path goes to /', async () => {
    const page = await as('owner@demo.test', ROUTES);
    const nav = page.getByRole('navigation', { name: 'Sections' });
    await nav.getByRole('link', { name: 'Service Routes' }).waitFor();
    expect(await nav.getByRole('link', { name: 'Sensors' }).count()).toBe(0);
    expect(await nav.getByRole('link', { name: 'Map' }).count()).toBe(0);
    await page.getByRole('heading', { level: 1, name: 'Meter Reading Route Tasks' }).waitFor();
    // Riverbend Water has no meterReading feature. (In-app navigation, not a goto: the sensors page
    // it lands on is not this issue's, and its loading bar still lacks a name for axe; see the notes.)
    await page.evaluate(() => {
      history.pushState({}, '', '/org/riverbend-water/service-routes');
      dispatchEvent(new PopStateEvent('popstate'));
    });
    await page.waitForURL((u) => !u.pathname.includes('service-routes'));
    expect(new URL(page.url()).pathname).not.toContain('service-routes');
    await page.close();
  });

  it('the list: default progress filter, every column, sort and filters remembered across visits, Task No. links to the task', async () => {
    const page = await as('owner@demo.test', ROUTES);
    const table = page.getByRole('table', { name: 'Route tasks' });
    await table.waitFor();
    for (const h of ['Task No.', 'Route', 'Group', 'Suburb', 'Classification', 'Assigned To', 'Progress', 'Completed Readings', 'Total Readings', 'Total Exceptions', 'Time taken', 'Start Time', 'Completion Time', 'Actions'])
      await table.getByRole('columnheader', { name: h, exact: true }).waitFor();
    // default: Complete, Active, Waiting; the exported KEL-01 (1001) is hidden; Task No. descending
    await expect.poll(() => taskLinks(page).allTextContents()).toEqual(['1006', '1005', '1004', '1003', '1002']);
    await page.getByText('0 Selected').waitFor();
    await page.screenshot({ path: `${SHOTS}/routes-list.png`, fullPage: true });
    // wider than the page: a shadow says more columns lie to the right, then to the left once scrolled (issue 36 item 15)
    await page.getByTestId('scroll-cue-right').waitFor();
    expect(await page.getByTestId('scroll-cue-left').count()).toBe(0);
    await page.getByRole('region', { name: 'Route tasks, scrolls sideways' }).evaluate((el) => el.scrollBy({ left: 10_000 }));
    await page.getByTestId('scroll-cue-left').waitFor();
    await page.getByTestId('scroll-cue-right').waitFor({ state: 'detached' });
    await page.getByRole('region', { name: 'Route tasks, scrolls sideways' }).evaluate((el) => el.scrollBy({ left: -10_000 }));

    // add Exported, filter the route, sort by Route: all of it survives a reload
    await pick(page, 'Progress', 'Exported', page.getByRole('region', { name: 'Filters' }));
    await page.keyboard.press('Escape');
    await expect.poll(() => taskLinks(page).count()).toBe(6);
    await page.getByLabel('Group', { exact: true }).fill('west');
    await expect.poll(() => taskLinks(page).allTextContents()).toEqual(['1004', '1003']);
    await table.getByRole('button', { name: 'Route', exact: true }).click();
    await expect.poll(() => taskLinks(page).allTextContents()).toEqual(['1004', '1003']); // KAR-04 < MAK-03
    await table.getByRole('button', { name: 'Route', exact: true }).click();
    await expect.poll(() => taskLinks(page).allTextContents()).toEqual(['1003', '1004']);
    await page.reload();
    await expect.poll(() => taskLinks(page).allTextContents()).toEqual(['1003', '1004']);
    await expect(page.getByLabel('Group', { exact: true }).inputValue()).resolves.toBe('west');
    await taskLinks(page).filter({ hasText: '1003' }).click();
    await page.getByRole('heading', { level: 1, name: 'Task 1003 · MAK-03' }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`${ROUTES}/1003`);
    await page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'Routes' }).waitFor();
    await page.close();
  });

  it('group and suburb dialogs close on success and the list shows the change', async () => {
    const page = await as('owner@demo.test', ROUTES);
    await taskRow(page, 1005).hover();
    await taskRow(page, 1005).getByRole('button', { name: 'Edit group of task 1005' }).click();
    const dialog = page.getByRole('dialog', { name: 'Change Group of task 1005' });
    await expectAccessible(page, 'Change Group dialog');
    await dialog.getByLabel('Group').fill('East Wing');
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    await taskRow(page, 1005).getByText('East Wing').waitFor();
    await taskRow(page, 1005).getByRole('button', { name: 'Change Classification of task 1005' }).click();
    const cls = page.getByRole('dialog', { name: /Change Classification/ });
    await expect(cls.getByRole('button', { name: 'Confirm' }).isDisabled()).resolves.toBe(true);
    await cls.getByLabel('Rural').check();
    await cls.getByRole('button', { name: 'Confirm' }).click();
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    await taskRow(page, 1005).getByText('Rural').waitFor();
    await page.close();
  });

  it('edit a reading: the can\u2019t-read interplay, the reading rules, only changed fields, Nothing is edited', async () => {
    const page = await as('owner@demo.test', `${ROUTES}/1002`);
    const readings = page.getByRole('table', { name: 'Readings' });
    await readings.waitFor();
    await pick(page, 'Status', 'Complete', page.getByRole('region', { name: 'Filters' }));
    await page.keyboard.press('Escape');
    await page.screenshot({ path: `${SHOTS}/routes-task.png` });
    await readings.getByRole('row').nth(1).getByRole('link').click();
    await page.waitForURL((u) => u.pathname.includes('/reading/'));
    await page.getByRole('heading', { level: 2, name: 'Photo' }).waitFor();
    await page.getByRole('button', { name: 'Edit' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit Property and Reading Details' });
    const reading = dialog.getByLabel(/^Reading/); // 'Reading *' while required
    const original = await reading.inputValue();
    expect(original).toMatch(/^\d+$/);
    await pick(page, "Can't Read Code", 'Dog');
    await expect(reading.inputValue()).resolves.toBe('');
    await expect(reading.isDisabled()).resolves.toBe(true);
    await expect(dialog.getByLabel('Comment Code', { exact: true }).first().isDisabled()).resolves.toBe(true);
    await pick(page, "Can't Read Code", 'N/A');
    await expect(reading.inputValue()).resolves.toBe(original);
    await reading.fill('');
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await dialog.getByText('Reading is required').waitFor();
    await reading.fill('12.5');
    await dialog.getByText('Reading is not a valid integer').waitFor();
    await reading.fill('10000000');
    await dialog.getByText('Reading must be between 0 and 9999999').waitFor();
    await expectAccessible(page, 'Edit dialog with a reading message');
    await page.screenshot({ path: `${SHOTS}/routes-edit.png` });
    const sent: unknown[] = [];
    page.on('request', (r) => r.method() === 'PATCH' && r.url().includes('/meter-readings/') && sent.push(r.postDataJSON()));
    await reading.fill(String(Number(original) + 7));
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    expect(sent).toEqual([{ id: expect.any(String), value: Number(original) + 7 }]);
    await page.getByText('Edited', { exact: true }).first().waitFor();
    await page.getByText(String(Number(original) + 7), { exact: true }).waitFor();
    // nothing changed: the server says NOTHING_UPDATED and the modal says so
    await page.getByRole('button', { name: 'Edit' }).click();
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await dialog.getByText(ROUTE_MESSAGES.NOTHING_UPDATED).waitFor();
    await page.keyboard.press('Escape');
    // back to the task: the reading shows Edited; the scroll position of the readings is restored
    await page.goBack();
    await readings.waitFor();
    await page.close();
  });

  it('export, exceptions only: the exceptions file downloads and the task is not marked exported (only the results file marks it, section 4)', async () => {
    const page = await as('owner@demo.test', ROUTES);
    const row = taskRow(page, 1002);
    await row.getByText('Complete', { exact: true }).waitFor();
    await page.getByRole('checkbox', { name: 'Select task 1002' }).check();
    await page.getByRole('button', { name: 'Export', exact: true }).click();
    const options = page.getByRole('dialog', { name: 'Export task 1002' });
    await options.getByLabel('Exceptions only').check();
    const [download] = await Promise.all([page.waitForEvent('download'), options.getByRole('button', { name: 'Export' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^TCC_DCOL_TEA-02_.*IMP_exceptions\.csv$/);
    expect(readFileSync((await download.path())!, 'utf8')).toMatch(/^Sequence,Serial,/);
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    // read again from the server: still Complete, not Exported
    await page.reload();
    await row.getByText('Complete', { exact: true }).waitFor();
    expect(await row.getByText('Exported', { exact: true }).count()).toBe(0);
    await page.close();
  });

  it('an exported task: its readings cannot be edited', async () => {
    const page = await as('owner@demo.test', `${ROUTES}/1001`);
    const readings = page.getByRole('table', { name: 'Readings' });
    await readings.getByRole('row').nth(1).getByRole('link').click();
    await page.getByRole('heading', { level: 2, name: 'Photo' }).waitFor();
    await expect(page.getByRole('button', { name: 'Edit' }).isDisabled()).resolves.toBe(true);
    await page.close();
  });

  it('scroll position of a task\u2019s readings is restored on return from a reading', async () => {
    const page = await as('owner@demo.test', `${ROUTES}/1004`, 1280);
    const scroller = page.getByTestId('readings-scroll');
    await scroller.waitFor();
    await scroller.evaluate((el) => el.scrollTo({ top: 400 }));
    await expect.poll(() => scroller.evaluate((el) => el.scrollTop)).toBe(400);
    await page.getByRole('table', { name: 'Readings' }).getByRole('link').nth(14).click();
    await page.getByRole('heading', { level: 2, name: 'Photo' }).waitFor();
    await page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: '1004' }).click();
    await expect.poll(() => page.getByTestId('readings-scroll').evaluate((el) => el.scrollTop)).toBe(400);
    await page.close();
  });

  it('delete an unstarted task after Confirm Action', async () => {
    const page = await as('owner@demo.test', ROUTES);
    await taskRow(page, 1005).waitFor();
    await page.getByRole('checkbox', { name: 'Select task 1003' }).check();
    await page.getByText('1 Selected').waitFor();
    await expectAccessible(page, 'task list with a selection');
    // a started task cannot be deleted
    await expect(page.getByRole('button', { name: 'Delete' }).isDisabled()).resolves.toBe(true);
    await page.getByRole('checkbox', { name: 'Select task 1003' }).uncheck();
    await page.getByRole('checkbox', { name: 'Select task 1005' }).check();
    await page.getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('dialog', { name: 'Confirm Action' });
    await confirm.getByRole('button', { name: 'Yes' }).click();
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    await expect.poll(() => taskLinks(page).allTextContents()).not.toContain('1005');
    await page.close();
  });

  it('a member sees the pages without action controls', async () => {
    const page = await as('siteadmin@demo.test', ROUTES);
    await page.getByRole('heading', { level: 1, name: 'Meter Reading Route Tasks' }).waitFor();
    await taskLinks(page).first().waitFor();
    for (const name of ['Import', 'Assign', 'Export', 'To CSV', 'Delete']) expect(await page.getByRole('button', { name, exact: true }).count(), name).toBe(0);
    expect(await page.getByRole('columnheader', { name: 'Actions' }).count()).toBe(0);
    expect(await page.getByRole('checkbox').count()).toBe(0);
    expect(await page.getByRole('button', { name: /^Edit group/ }).count()).toBe(0);
    await page.screenshot({ path: `${SHOTS}/routes-member.png` });
    await taskLinks(page).filter({ hasText: '1002' }).click();
    const readings = page.getByRole('table', { name: 'Readings' });
    await readings.getByRole('row').nth(1).getByRole('link').waitFor();
    // the task page follows the roles table too: no To CSV, no selection boxes (issue 36 item 25)
    expect(await page.getByRole('button', { name: 'To CSV', exact: true }).count()).toBe(0);
    expect(await page.getByRole('checkbox').count()).toBe(0);
    await readings.getByRole('row').nth(1).getByRole('link').click();
    await page.getByRole('heading', { level: 2, name: 'Photo' }).waitFor();
    expect(await page.getByRole('button', { name: 'Edit' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Create Task' }).count()).toBe(0);
    // an unknown reading and an unknown task go back to the task and to the list
    await page.goto(`${baseUrl}${ROUTES}/1002/reading/00000000-0000-4000-8000-000000000000`);
    await page.waitForURL((u) => u.pathname === `${ROUTES}/1002`);
    await page.goto(`${baseUrl}${ROUTES}/999999`);
    await page.waitForURL((u) => u.pathname === ROUTES);
    await page.close();
  });

  it('the whole loop: import a council file, assign it, the simulated reader reads it, edit, export and re-export, a special route from xlsx, delete it', { timeout: 420_000 }, async () => {
    const page = await as('owner@demo.test', ROUTES);
    const toast = (text: string) => page.getByText(text, { exact: true }).first().waitFor({ timeout: 20_000 });
    await taskLinks(page).first().waitFor();
    const before = await taskLinks(page).allTextContents();

    // import the sample council file (parsed in the data worker)
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    let dialog = page.getByRole('dialog', { name: 'Import' });
    await dialog.locator('input[type=file]').setInputFiles('tests/fixtures/routes/TCC_DCOL_R12_3_EXP.TXT');
    await dialog.getByText('R12 · 3 · 5 readings').waitFor();
    await expectAccessible(page, 'Import dialog with a parsed file');
    await page.screenshot({ path: `${SHOTS}/routes-import.png` });
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await toast(ROUTE_MESSAGES.IMPORT_SUCCESS);
    await expect.poll(() => taskLinks(page).count()).toBe(before.length + 1);
    const row = page.getByRole('row').filter({ hasText: 'R12' });
    const taskNumber = Number(await row.getByRole('link').first().textContent());
    expect(taskNumber).toBeGreaterThan(Math.max(...before.map(Number)));
    await row.getByText('Waiting', { exact: true }).waitFor();

    // assign it to the demo meter reader
    await page.getByRole('checkbox', { name: `Select task ${taskNumber}` }).check();
    await page.getByRole('button', { name: 'Assign', exact: true }).click();
    dialog = page.getByRole('dialog', { name: `Assign task ${taskNumber}` });
    await pick(page, 'Assign to', 'Rangi Reader (Meter Reader)', dialog);
    await expectAccessible(page, 'Assign dialog');
    await page.screenshot({ path: `${SHOTS}/routes-assign.png` });
    await dialog.getByRole('button', { name: 'Assign' }).click();
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    await row.getByText('Rangi Reader').waitFor();

    // the simulated reader works through its tasks, lowest number first; refresh until ours is complete
    await expect
      .poll(
        async () => {
          await page.getByRole('button', { name: 'Refresh route tasks' }).click();
          return row.getByText('Complete', { exact: true }).count();
        },
        { timeout: 330_000, interval: 5_000 },
      )
      .toBe(1);
    await row.getByText('5', { exact: true }).first().waitFor();

    // filter its readings and edit one
    await row.getByRole('link').first().click();
    const readings = page.getByRole('table', { name: 'Readings' });
    await readings.waitFor();
    await pick(page, 'Status', 'Complete', page.getByRole('region', { name: 'Filters' }));
    await page.keyboard.press('Escape');
    await readings.getByRole('row').nth(1).getByRole('link').click();
    await page.getByRole('heading', { level: 2, name: 'Photo' }).waitFor();
    await page.getByRole('img', { name: /^Meter at / }).waitFor(); // the reader's photo, from storage
    await page.screenshot({ path: `${SHOTS}/routes-reading.png`, fullPage: true });
    await page.getByRole('button', { name: 'Edit' }).click();
    dialog = page.getByRole('dialog', { name: 'Edit Property and Reading Details' });
    const reading = dialog.getByLabel(/^Reading/);
    const edited = Number(await reading.inputValue()) + 3;
    await reading.fill(String(edited));
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    await page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: String(taskNumber) }).click();
    await readings.waitFor();

    // export: the results file is formatted in the worker, downloaded, and the task marked exported
    const exportOnce = async () => {
      const options = page.getByRole('dialog', { name: `Export task ${taskNumber}` });
      await options.getByLabel('All readings').check();
      const [download] = await Promise.all([page.waitForEvent('download'), options.getByRole('button', { name: 'Export' }).click()]);
      expect(download.suggestedFilename()).toBe('TCC_DCOL_R12_3_IMP.TXT');
      return readFileSync((await download.path())!, 'latin1');
    };
    await page.getByRole('button', { name: 'Export', exact: true }).click();
    const text = await exportOnce();
    const lines = text.split('\r\n');
    expect(lines.pop()).toBe(''); // CRLF after every row
    expect(lines).toHaveLength(5);
    lines.forEach((line, i) => {
      const f = line.split('|');
      expect(f).toHaveLength(17);
      expect(f[0]).toBe(String(i + 1));
      expect(f[1]).toBe('R12');
      expect(f.slice(14)).toEqual(['', '', '']);
    });
    expect(lines.some((l) => l.split('|')[8] === String(edited))).toBe(true);
    await page.getByText('Exported', { exact: true }).first().waitFor();

    // re-export asks first
    await expect.poll(() => page.getByRole('button', { name: 'Export', exact: true }).isEnabled()).toBe(true);
    await page.getByRole('button', { name: 'Export', exact: true }).click();
    const confirm = page.getByRole('dialog', { name: 'Confirm Action' });
    await confirm.getByText('This route task has already been exported once').waitFor();
    await expectAccessible(page, 'Confirm Action before a re-export');
    await confirm.getByRole('button', { name: 'Yes' }).click();
    expect(await exportOnce()).toContain(`|${edited}|`);

    // a special route from xlsx: its meters are the ones just imported
    await page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'Routes' }).click();
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    dialog = page.getByRole('dialog', { name: 'Import' });
    await dialog.getByRole('tab', { name: 'Special Routes' }).click();
    await dialog.locator('input[type=file]').setInputFiles('tests/fixtures/routes/special-route.xlsx');
    await dialog.getByText('3 meters').waitFor();
    await dialog.getByLabel('Group').fill('Audit');
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await toast(ROUTE_MESSAGES.SPECIAL_ROUTE_SUCCESS);
    const special = page.getByRole('row').filter({ hasText: 'Audit' });
    await special.waitFor();
    const specialNumber = Number(await special.getByRole('link').first().textContent());

    // it has not started: it can be deleted
    await page.getByRole('checkbox', { name: `Select task ${specialNumber}` }).check();
    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog', { name: 'Confirm Action' }).getByRole('button', { name: 'Yes' }).click();
    await expect.poll(() => taskLinks(page).allTextContents()).not.toContain(String(specialNumber));
    await page.close();
  });

  it('a meter reader gets the not-authorised page', async () => {
    const page = await as('reader@demo.test', ROUTES, 390);
    await page.getByRole('heading', { name: 'Page Not Found' }).waitFor();
    await page.getByText(METER_READER_MESSAGE).waitFor();
    await page.screenshot({ path: `${SHOTS}/routes-reader.png` });
    await page.close();
  });
});
