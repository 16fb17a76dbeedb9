import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { gateway, idToken, orgId, startOwnDemoServer, useBrowser } from './session';
import type { TestServer } from '../server/harness';
import { sendUplink } from '../server/live-helpers';
import { demoDeviceKey } from '../../server/seed/device-keys';
import { addMember, makeOrg, makeSensor } from '../server/fixtures';

/**
 * Issue 13, organisation settings (organisation-and-routes 2.1, 4, 5, 8), against a product of its
 * own (built client, demo world, no simulator): renames and role changes here must not move the
 * ground under other files, and the alerts below are the ones this file causes.
 */
interface Mail {
  channel: 'email' | 'sms';
  to: string;
  kind?: string;
  text?: string;
  createdAt: number;
}

describe('organisation settings (issue 13)', () => {
  let s: TestServer;
  const RIVERBEND = '/org/riverbend-water/settings';

  beforeAll(async () => {
    s = await startOwnDemoServer();
  }, 240_000);
  afterAll(() => s?.close());
  // each account signs in through the form once, then opens pages with that session: no test here
  // signs out or changes an account's sign-in (roles and memberships are the server's to check)
  const b = useBrowser({ hookTimeout: 240_000, signInOnce: true });

  /** A page signed in as `email`, at `path` or else where the form's sign-in lands. */
  const as = (email: string, path?: string, width = 1280, height = 800): Promise<Page> => b.signedIn(s.url, email, { path, width, height, timeout: 30_000 });
  const mailbox = async (to?: string) =>
    ((await (await fetch(`${s.url}/dev/mailbox${to ? `?to=${encodeURIComponent(to)}` : ''}`)).json()) as { messages: Mail[] }).messages;
  const membersTable = (page: Page) => page.getByRole('table', { name: 'Organisation members' });
  const row = (page: Page, text: string) => membersTable(page).getByRole('row').filter({ hasText: text });
  async function act(page: Page, who: string, action: string) {
    await page.getByRole('button', { name: `Actions for ${who}` }).click();
    await page.getByRole('menuitem', { name: action }).click();
  }

  it('rename: the name is checked, saved trimmed, and the browser follows the new slug', { timeout: 90_000 }, async () => {
    const page = await as('owner@demo.test', RIVERBEND);
    await page.waitForURL(`**${RIVERBEND}/details`);
    const name = page.getByLabel('Organisation name');
    await name.fill('Riverbend #1');
    await page.getByText("Only the following symbols are allowed: '.-").waitFor();
    await expect(page.getByRole('button', { name: 'Save' }).isDisabled()).resolves.toBe(true);
    await name.fill('  Riverbend Water Board  ');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL('**/org/riverbend-water-board/settings/details');
    await page.locator('header').getByText('Riverbend Water Board').waitFor();
    await expect(name.inputValue()).resolves.toBe('Riverbend Water Board');
    // and back, so the rest of the file (and its old links) read the demo names
    await name.fill('Riverbend Water');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(`**${RIVERBEND}/details`);
    await page.locator('header').getByText('Riverbend Water', { exact: true }).waitFor();
    await page.close();
  });

  it('members and meter readers see the settings without action controls', { timeout: 60_000 }, async () => {
    const page = await as('member@demo.test', `${RIVERBEND}/members`);
    await membersTable(page).waitFor();
    await row(page, 'owner@demo.test').waitFor();
    await expect(page.getByRole('button', { name: 'Invite Member' }).count()).resolves.toBe(0);
    await expect(page.getByRole('button', { name: /^Actions for/ }).count()).resolves.toBe(0);
    await page.goto(`${s.url}${RIVERBEND}/details`);
    await page.getByText('Only the organisation\'s admins and owner can change these details.').waitFor();
    await page.close();

    const reader = await as('reader@demo.test', '/org/harbour-city-council/settings/nowhere');
    await reader.waitForURL('**/org/harbour-city-council/settings/details');
    await reader.getByRole('link', { name: 'Members' }).click();
    await membersTable(reader).waitFor();
    await expect(reader.getByRole('button', { name: /^Actions for/ }).count()).resolves.toBe(0);
    await reader.close();
  });

  it('invite a new user (rules, then the email) who accepts through the link', { timeout: 120_000 }, async () => {
    const email = `nia.${Date.now()}@example.com`;
    const page = await as('owner@demo.test', `${RIVERBEND}/members`);
    await page.getByRole('button', { name: 'Invite Member' }).click();
    const dialog = page.getByRole('dialog', { name: 'Invite Member' });
    await dialog.getByRole('button', { name: 'Invite' }).click();
    await dialog.getByText('Email is required.').waitFor();
    await dialog.getByText('Name is required.').waitFor();
    await dialog.getByLabel('Email').fill('nia@');
    await dialog.getByLabel('Email').blur();
    await dialog.getByText('Please enter an email in the format name@example.com').waitFor();
    await dialog.getByLabel('Email').fill(email.toUpperCase());
    await dialog.getByLabel('Name').fill('Nia New');
    await dialog.getByLabel('Mobile Number (optional)').fill('abc');
    await dialog.getByLabel('Mobile Number (optional)').blur();
    await dialog.getByText('Please enter a valid phone number').waitFor();
    await dialog.getByLabel('Mobile Number (optional)').fill('021 555 0199');
    await dialog.getByRole('button', { name: 'Invite' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await row(page, email).getByText(/Invitation expires in/).waitFor();

    // inviting the same email again: the red alert
    await page.getByRole('button', { name: 'Invite Member' }).click();
    await dialog.getByLabel('Email').fill(email);
    await dialog.getByLabel('Name').fill('Nia Again');
    await dialog.getByRole('button', { name: 'Invite' }).click();
    await dialog.getByRole('alert').getByText('The email already exists or have been invited').waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    // the modal resets when closed
    await page.getByRole('button', { name: 'Invite Member' }).click();
    await expect(dialog.getByLabel('Email').inputValue()).resolves.toBe('');
    await expect(dialog.getByRole('alert').count()).resolves.toBe(0);
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    const mail = (await mailbox(email)).find((m) => m.kind === 'invitation');
    const link = /https?:\/\/\S+\/accept\?\S+/.exec(mail?.text ?? '')?.[0];
    expect(link, 'an accept link in the invitation email').toBeTruthy();
    const invitee = await b.browser.newPage();
    invitee.setDefaultTimeout(30_000);
    await invitee.goto(`${s.url}${new URL(link!).pathname}${new URL(link!).search}`);
    await invitee.getByLabel('New password', { exact: true }).fill('Invited-pass-2026!');
    await invitee.getByLabel('Confirm new password').fill('Invited-pass-2026!');
    await invitee.getByRole('button', { name: 'Accept invitation' }).click();
    await invitee.waitForURL('**/org/riverbend-water/sensors');
    await invitee.close();
    await page.reload();
    await row(page, email).getByText('Active').waitFor();
    await page.close();
  });

  it('invite an existing account: the look-up fills and locks the name and hides the mobile; it joins when it accepts', { timeout: 120_000 }, async () => {
    const page = await as('owner@demo.test', `${RIVERBEND}/members`);
    await page.getByRole('button', { name: 'Invite Member' }).click();
    const dialog = page.getByRole('dialog', { name: 'Invite Member' });
    await dialog.getByLabel('Email').fill('Reader@Demo.test');
    await dialog.getByLabel('Email').blur();
    await expect.poll(() => dialog.getByLabel('Name').inputValue()).toBe('Rangi Reader');
    await expect(dialog.getByLabel('Name').isDisabled()).resolves.toBe(true);
    await expect(dialog.getByLabel('Mobile Number (optional)').count()).resolves.toBe(0);
    await dialog.getByRole('button', { name: 'Invite' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await row(page, 'reader@demo.test').getByText(/Invitation expires in/).waitFor();

    const reader = await as('reader@demo.test');
    await reader.getByRole('dialog', { name: 'You have been invited' }).getByRole('button', { name: /accept/i }).click();
    await reader.goto(`${s.url}${RIVERBEND}/members`);
    await membersTable(reader).waitFor();
    await reader.close();
    await page.reload();
    await row(page, 'reader@demo.test').getByText('Active').waitFor();
    await page.close();
  });

  it("change a role and the member's view changes; remove a member and their next visit is refused", { timeout: 120_000 }, async () => {
    const owner = await as('owner@demo.test', `${RIVERBEND}/members`);
    await row(owner, 'member@demo.test').waitFor();
    const member = await as('member@demo.test', `${RIVERBEND}/members`);
    await row(member, 'owner@demo.test').waitFor();
    await expect(member.getByRole('button', { name: 'Invite Member' }).count()).resolves.toBe(0);

    // no actions on the owner's row or one's own
    await expect(owner.getByRole('button', { name: 'Actions for Olivia Owner' }).count()).resolves.toBe(0);
    await act(owner, 'Manu Member', 'Make Admin');
    await row(owner, 'member@demo.test').getByText('Admin').waitFor();
    await member.reload();
    await member.getByRole('button', { name: 'Invite Member' }).waitFor();
    await act(owner, 'Manu Member', 'Change to Member');
    await row(owner, 'member@demo.test').getByRole('cell', { name: 'Member', exact: true }).waitFor();
    await member.reload();
    await row(member, 'owner@demo.test').waitFor();
    await expect(member.getByRole('button', { name: 'Invite Member' }).count()).resolves.toBe(0);
    await member.close();

    // remove the reader who joined above: the confirmation, then the row is gone
    await act(owner, 'Rangi Reader', 'Remove');
    const confirm = owner.getByRole('dialog', { name: 'Please confirm' });
    await confirm.getByText('Are you sure you want to remove this member?').waitFor();
    await confirm.getByRole('button', { name: 'Yes' }).click();
    await row(owner, 'reader@demo.test').waitFor({ state: 'detached' });
    await owner.close();
    const reader = await as('reader@demo.test', `${RIVERBEND}/members`);
    await reader.waitForURL('**/org/harbour-city-council/**');
    await reader.close();
  });

  it('notification rules decide who gets an alert: edited in the settings, then a real alert arrives by the new rule', { timeout: 120_000 }, async () => {
    const page = await as('owner@demo.test', `${RIVERBEND}/notifications`);
    const rules = page.getByRole('table', { name: 'Member Rules' });
    await rules.waitFor();
    // alert triggered goes by SMS too
    await page.getByRole('checkbox', { name: 'Alert triggered: send SMS' }).check();
    await expect.poll(() => page.getByRole('checkbox', { name: 'Alert triggered: send SMS' }).isEnabled()).toBe(true);
    // the owner's own rule: SMS only
    await page.getByRole('button', { name: 'Add a rule for Olivia Owner' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Rule' });
    await dialog.getByLabel('Email').uncheck();
    await dialog.getByLabel('SMS').check();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await rules.getByRole('row').filter({ hasText: 'owner@demo.test' }).getByText('SMS', { exact: true }).waitFor();
    // a member with no mobile: the warning
    await page.getByRole('button', { name: 'Add a rule for Manu Member' }).click();
    await dialog.getByLabel('SMS').check();
    await dialog.getByText('This member has no mobile number, so SMS notifications cannot reach them.').waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await page.close();

    // the Harbour Tide Gauge's high-water alarm: clear it, then raise it again (level = 7500 - rawDistance)
    const key = await demoDeviceKey(s.ctx, '708192A3');
    const since = Date.now();
    for (const rawDistance of [5500, 500]) {
      const res = await sendUplink(s, key, { serial: '708192A3', measurements: [{ time: Date.now(), rawDistance }] });
      expect(res.status, await res.clone().text()).toBe(200);
    }
    const triggered = (m: Mail) => m.kind === 'alert-triggered' && m.createdAt >= since;
    const ownerSms = async () => (await mailbox('+64211550101')).filter((m) => m.channel === 'sms' && triggered(m)).length;
    await expect.poll(ownerSms, { timeout: 30_000 }).toBeGreaterThan(0);
    expect((await mailbox('owner@demo.test')).filter(triggered), 'no email: the owner chose SMS only').toEqual([]);
    // the same alerts reach a member without a rule of their own by the default rule: email
    expect((await mailbox('member@demo.test')).filter(triggered).length).toBe(await ownerSms());
  });

  it('a site admin sends a test notification and it arrives in the mailbox', { timeout: 60_000 }, async () => {
    const page = await as('siteadmin@demo.test', `${RIVERBEND}/notifications`, 390, 844);
    await page.getByRole('button', { name: 'Send Test Notification' }).click();
    await page.getByText('Test notification has been sent.').waitFor();
    await expect.poll(async () => (await mailbox('siteadmin@demo.test')).filter((m) => m.kind === 'test-notification').length).toBe(1);
    await page.close();
  });
  // issue 36 item 20: a member who goes gives back their unfinished route tasks, and the confirmation says how many first
  it('removing a meter reader and a member leaving: the confirmation counts their unfinished route tasks, which the list then shows unassigned', { timeout: 180_000 }, async () => {
    const HARBOUR = '/org/harbour-city-council';
    const token = await idToken(s.url, 'owner@demo.test');
    const harbour = await orgId(s.url, token, 'harbour-city-council');
    type Task = { id: string; taskNumber: number; exported: boolean; completedAt: number | null; assignedTo: { cognitoIdentityId: string } | null };
    const tasks = async () => ((await gateway(s.url, token, 'GET', `/organisations/${harbour}/routes`)) as { routes: Task[] }).routes;
    const { members } = (await gateway(s.url, token, 'GET', `/organisations/${harbour}/members`)) as { members: { email: string; cognitoIdentityId: string }[] };
    const idOf = (email: string) => members.find((m) => m.email === email)!.cognitoIdentityId;
    const heldBy = (all: Task[], id: string) => all.filter((t) => t.assignedTo?.cognitoIdentityId === id);
    const unfinished = (all: Task[]) => all.filter((t) => !t.exported && t.completedAt === null);

    const readerTasks = heldBy(await tasks(), idOf('reader@demo.test'));
    const open = unfinished(readerTasks);
    const done = readerTasks.filter((t) => !open.includes(t));
    expect(open.length, 'the demo reader holds unfinished tasks').toBeGreaterThan(1);
    expect(done.length, 'and finished ones').toBeGreaterThan(0);

    const owner = await as('owner@demo.test', `${HARBOUR}/settings/members`);
    await row(owner, 'reader@demo.test').waitFor({ timeout: 30_000 });
    await act(owner, 'Rangi Reader', 'Remove');
    const confirm = owner.getByRole('dialog', { name: 'Please confirm' });
    await confirm.getByText('Are you sure you want to remove this member?').waitFor();
    await confirm.getByText(`Their ${open.length} unfinished route tasks will be unassigned.`).waitFor({ timeout: 30_000 });
    await confirm.getByRole('button', { name: 'Yes' }).click();
    await row(owner, 'reader@demo.test').waitFor({ state: 'detached', timeout: 30_000 });

    // the route list shows them unassigned; finished and exported tasks keep their reader
    await owner.goto(`${s.url}${HARBOUR}/service-routes`);
    const taskRow = (n: number) => owner.getByRole('row').filter({ has: owner.getByRole('link', { name: String(n), exact: true }) });
    for (const t of open) await taskRow(t.taskNumber).getByText('Unassigned').waitFor({ timeout: 30_000 });
    const after = await tasks();
    expect(heldBy(after, idOf('reader@demo.test')).map((t) => t.id).sort()).toEqual(done.map((t) => t.id).sort());

    // leaving: a member given one task is told before they leave
    const site = idOf('siteadmin@demo.test');
    const spare = unfinished(after).find((t) => !t.assignedTo)!;
    await gateway(s.url, token, 'PATCH', `/organisations/${harbour}/routes/${spare.id}`, { assignedTo: site });
    const leaver = await as('siteadmin@demo.test', '/settings/organisations');
    await leaver.getByRole('button', { name: 'Leave Harbour City Council' }).click();
    const dialog = leaver.getByRole('dialog', { name: 'Leave Harbour City Council?' });
    await dialog.getByText('Your 1 unfinished route task will be unassigned.').waitFor({ timeout: 30_000 });
    await dialog.getByRole('button', { name: 'Leave organisation' }).click();
    await expect.poll(() => leaver.getByTestId('user-org-harbour-city-council').count(), { timeout: 30_000 }).toBe(0);
    await leaver.close();
    await owner.reload();
    await taskRow(spare.taskNumber).getByText('Unassigned').waitFor({ timeout: 30_000 });
    await owner.close();
  });
  // docs/decisions.md: the Integration section of an organisation without a REST API shows its
  // radio callbacks once it has a Sigfox or Myriota sensor; the first one added shows it without a reload
  it('a manager of an organisation without a REST API who adds its first Sigfox sensor finds Integration, with only the radio callbacks, without a reload', { timeout: 120_000 }, async () => {
    // last in the file, so no other test sees the owner's extra organisation
    const org = await makeOrg(s.ctx.db, { name: 'Zephyr Farms' });
    const ownerId = (await s.ctx.db.query<{ id: string }>(`SELECT id FROM users WHERE email = 'owner@demo.test'`))[0]!.id;
    await addMember(s.ctx.db, org.id, ownerId, 3);
    await makeSensor(s.ctx.db, org.id, { name: 'Farm Tank', radio: 'cellular' });
    const slug = (await s.ctx.db.query<{ slug: string }>(`SELECT slug FROM organisations WHERE id = $1`, [org.id]))[0]!.slug;
    const ZEPHYR = `/org/${slug}`;

    const page = await as('owner@demo.test', `${ZEPHYR}/settings/details`);
    const menu = page.getByRole('navigation', { name: 'Settings sections' });
    await menu.getByRole('link', { name: 'Webhooks' }).waitFor({ timeout: 30_000 });
    expect(await menu.getByRole('link', { name: 'Integration' }).count()).toBe(0);
    // from here on the page is never loaded again: a reload would forget this
    await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));

    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Sensors' }).click();
    await page.getByRole('heading', { name: 'Farm Tank' }).waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Add Sensor' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a New Sensor' });
    await dialog.getByLabel('Serial number').fill('C0FFEE03');
    await dialog.getByLabel('Claim code').fill('c0ffee03-0000-4000-8000-000000000003');
    await dialog.getByRole('button', { name: 'Add Sensor' }).click();
    await dialog.getByText('Sensor C0FFEE03 has been added to your organisation.').waitFor({ timeout: 30_000 });
    await dialog.getByRole('button', { name: 'Done' }).click();
    await page.waitForURL(`**${ZEPHYR}/sensors/C0FFEE03`);

    await page.getByRole('navigation', { name: 'Organisation settings' }).getByRole('link', { name: 'Settings' }).click();
    await menu.getByRole('link', { name: 'Integration' }).click({ timeout: 30_000 });
    await page.waitForURL(`**${ZEPHYR}/settings/integration`);
    const section = page.getByTestId('org-settings-integration');
    await section.getByRole('heading', { name: 'Radio network callbacks' }).waitFor();
    await section.getByRole('textbox', { name: 'Sigfox callback URL', exact: true }).waitFor({ timeout: 30_000 });
    // no REST API here: no organisation id, key or token
    for (const field of ['Organisation id', 'API key', 'API token']) expect(await section.getByRole('textbox', { name: field, exact: true }).count(), field).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
    await page.close();
  });
});
