import { mkdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { DEMO_PASSWORD, launchBrowser, signIn } from './browser';
import { gateway as gatewayOf, idToken as idTokenOf, inviteAndAccept, orgId } from './session';
import { USER_SETTINGS_MESSAGES } from '../../src/domain/user-settings';
import { VERIFY_EMAIL_MESSAGES } from '../../src/domain/messages';

const SHOTS = 'test-results/e2e';
// Friendly: '10 Mar 2026, 14:05'; AmericanLocal: 'Mar 10, 2026, 2:05 PM' (organisation-and-routes 2.2, 9)
const FRIENDLY = /\b\d{1,2} [A-Z][a-z]{2} \d{4},? \d{2}:\d{2}\b/;
const AMERICAN = /\b[A-Z][a-z]{2} \d{1,2}, \d{4},? \d{1,2}:\d{2}\s?(AM|PM)\b/;

/**
 * Issue 13's user settings in the browser. A fresh account (invited to Riverbend Water, accepted,
 * then invited to Harbour City Council and accepted in-app) is the one that edits, changes its
 * display and leaves, so the demo accounts other tests use are left as they are.
 */
describe('user settings in the browser (issue 13)', () => {
  const baseUrl = inject('baseUrl');
  // the account's sign-in address (the email-change test changes it)
  let email = `settings.${Date.now()}@example.com`;
  const password = 'Settings-pass-2026!';
  let browser: Browser;

  const idToken = (who: string, pass = DEMO_PASSWORD) => idTokenOf(baseUrl, who, pass);
  const gateway = (token: string, method: string, path: string, body?: unknown) => gatewayOf(baseUrl, token, method, path, body);

  beforeAll(async () => {
    browser = await launchBrowser();
    mkdirSync(SHOTS, { recursive: true });
    // a new account in Riverbend Water (accepted through /accept), then in Harbour City Council too
    await inviteAndAccept(browser, baseUrl, { email, name: 'Sam Settings', password });
    const owner = await idToken('owner@demo.test');
    const harbour = await orgId(baseUrl, owner, 'harbour-city-council');
    await gateway(owner, 'POST', `/organisations/${harbour}/invite`, { email, name: 'Sam Settings', role: 1 });
    const mine = await idToken(email, password);
    const { invitations } = (await gateway(mine, 'GET', '/invitations')) as { invitations: { inviteId: string }[] };
    await gateway(mine, 'POST', `/invitations/${invitations[0].inviteId}/accept`);
  }, 120_000);
  afterAll(() => browser?.close());

  async function as(who: string, path: string, width = 1280, pass = DEMO_PASSWORD): Promise<Page> {
    const page = await browser.newPage({ viewport: { width, height: 900 } });
    page.setDefaultTimeout(30_000);
    await signIn(page, baseUrl, who, pass);
    await page.goto(`${baseUrl}${path}`);
    return page;
  }
  const toast = (page: Page, text: string) => page.getByText(text, { exact: true }).first().waitFor({ timeout: 15_000 });
  /** Asks for `to` as the new sign-in email on the Account form (with the current password, as it asks) and waits for the pending notice. */
  async function requestEmailChange(page: Page, to: string) {
    await page.getByLabel('New email address').fill(to);
    await page.getByTestId('email-change').getByLabel('Current password').fill(password);
    await page.getByRole('button', { name: 'Change email' }).click();
    await page.getByText(USER_SETTINGS_MESSAGES.emailChangeSent(to)).waitFor();
  }
  /** The verification link mailed to `to` (the dev mailbox), once it has been sent. */
  async function verificationLink(to: string): Promise<URL> {
    const mailbox = async () =>
      ((await (await fetch(`${baseUrl}/dev/mailbox?to=${encodeURIComponent(to)}`)).json()) as { messages: { kind?: string; text?: string }[] }).messages;
    await expect.poll(async () => (await mailbox()).some((m) => m.kind === 'verification-code'), { timeout: 15_000 }).toBe(true);
    return new URL(/https?:\/\/\S+\/verify-email\?code=\S+/.exec((await mailbox()).find((m) => m.kind === 'verification-code')!.text!)![0]);
  }

  it('reached from the profile menu; the four sections; an unknown section goes to account', async () => {
    const page = await as(email, '/org/riverbend-water/notifications', 1280, password);
    await page.getByRole('button', { name: 'Profile menu' }).click();
    await page.getByRole('menuitem', { name: 'User settings' }).click();
    await page.waitForURL('**/settings/account');
    await page.getByRole('heading', { name: 'User Settings', level: 1 }).waitFor();
    const nav = page.getByRole('navigation', { name: 'User settings sections' });
    await expect(nav.getByRole('link').allInnerTexts()).resolves.toEqual(['Account', 'Display', 'Organisations', 'Notifications']);
    await page.goto(`${baseUrl}/settings/nonsense`);
    await page.waitForURL('**/settings/account');
    await page.goto(`${baseUrl}/settings`);
    await page.waitForURL('**/settings/account');
    await page.close();
  });

  it('account: the mobile rule, no call when nothing changed, and a saved name shows in the header at once', async () => {
    const page = await as(email, '/settings/account', 1280, password);
    const patches: string[] = [];
    const regions: (string | null)[] = [];
    page.on('request', (r) => {
      if (r.method() !== 'PATCH' || !r.url().includes('/api/users/')) return;
      patches.push(r.postData() ?? '');
      regions.push(new URL(r.url()).searchParams.get('region'));
    });
    await page.getByRole('button', { name: 'Save' }).click();
    await toast(page, USER_SETTINGS_MESSAGES.noChanges);
    await page.getByLabel('Mobile number').fill('12345');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Invalid mobile phone number').waitFor();
    expect(patches).toEqual([]);

    await page.getByLabel('Name').fill('  Sam Renamed ');
    await page.getByLabel('Mobile number').fill('021 555 0123');
    await page.getByRole('button', { name: 'Save' }).click();
    await toast(page, USER_SETTINGS_MESSAGES.accountUpdated);
    expect(patches.map((p) => JSON.parse(p))).toEqual([{ name: 'Sam Renamed', mobile: '+64215550123' }]);
    // the user pool's region (the demo pool is local_demo) rides along, as the spec's call lists it
    expect(regions).toEqual(['local']);
    // the profile menu (header) reads the refreshed user
    await page.getByRole('banner').getByText('Sam Renamed').waitFor();
    await page.reload();
    await expect(page.getByLabel('Mobile number').inputValue()).resolves.toBe('021 555 0123');
    await page.screenshot({ path: `${SHOTS}/user-settings-account.png` });
    await page.close();
  });

  it('display: AmericanLocal changes the times the notifications page shows, and back', async () => {
    const page = await as(email, '/org/riverbend-water/notifications', 1280, password);
    const times = page.getByRole('main').getByText(FRIENDLY).first();
    await times.waitFor();
    await page.goto(`${baseUrl}/settings/display`);
    await page.getByRole('radio', { name: /American/ }).check();
    await toast(page, USER_SETTINGS_MESSAGES.displayUpdated);
    await page.screenshot({ path: `${SHOTS}/user-settings-display.png` });
    await page.goto(`${baseUrl}/org/riverbend-water/notifications`);
    await page.getByRole('main').getByText(AMERICAN).first().waitFor();
    expect(await page.getByRole('main').getByText(FRIENDLY).count()).toBe(0);
    // back to Friendly: saved (only when changed) and shown
    await page.goto(`${baseUrl}/settings/display`);
    await page.getByRole('radio', { name: /Friendly/ }).check();
    await toast(page, USER_SETTINGS_MESSAGES.displayUpdated);
    await page.goto(`${baseUrl}/org/riverbend-water/notifications`);
    await page.getByRole('main').getByText(FRIENDLY).first().waitFor();
    await page.close();
  });

  it('notifications: the own rule in each organisation, read-only for a member', async () => {
    const page = await as(email, '/settings/notifications', 1280, password);
    for (const slug of ['riverbend-water', 'harbour-city-council']) {
      const card = page.getByTestId(`own-rule-${slug}`);
      await card.getByRole('checkbox', { name: 'Email alerts' }).waitFor();
      await expect(card.getByRole('checkbox', { name: 'Email alerts' }).isDisabled()).resolves.toBe(true);
      await card.getByText("The organisation's admins set who gets which alerts.").waitFor();
    }
    await page.close();
  });

  it('organisations: Leave is disabled for the owner; leaving moves the app off the organisation left', async () => {
    const owner = await as('owner@demo.test', '/settings/organisations');
    await owner.getByTestId('user-org-riverbend-water').waitFor();
    for (const name of ['Riverbend Water', 'Harbour City Council']) await expect(owner.getByRole('button', { name: `Leave ${name}` }).isDisabled()).resolves.toBe(true);
    await owner.close();

    // the frame is on Harbour City Council (the organisation used last) when it is left
    const page = await as(email, '/org/harbour-city-council/notifications', 1280, password);
    await page.getByRole('banner').getByText('Harbour City Council').first().waitFor();
    await page.goto(`${baseUrl}/settings/organisations`);
    await page.getByRole('banner').getByText('Harbour City Council').first().waitFor();
    await page.getByRole('button', { name: 'Leave Harbour City Council' }).click();
    const dialog = page.getByRole('dialog', { name: 'Leave Harbour City Council?' });
    await dialog.getByRole('button', { name: 'Leave organisation' }).click();
    await toast(page, USER_SETTINGS_MESSAGES.left('Harbour City Council'));
    await expect.poll(() => page.getByTestId('user-org-harbour-city-council').count()).toBe(0);
    await page.getByRole('banner').getByText('Riverbend Water').first().waitFor();
    expect(await page.getByRole('banner').getByText('Harbour City Council').count()).toBe(0);
    // its pages are gone too: the slug goes to the default organisation
    await page.goto(`${baseUrl}/org/harbour-city-council/notifications`);
    await page.waitForURL('**/org/riverbend-water/notifications');
    await page.close();
  });

  it('account: a pending new email can be withdrawn by keeping the current one; its link then changes nothing', async () => {
    const other = `withdrawn.${Date.now()}@example.com`;
    const page = await as(email, '/settings/account', 1280, password);
    // a new sign-in address needs the current password (security: re-authentication)
    await page.getByLabel('New email address').fill(other);
    await page.getByRole('button', { name: 'Change email' }).click();
    await page.getByText(USER_SETTINGS_MESSAGES.passwordRequired).waitFor();
    await page.getByTestId('email-change').getByLabel('Current password').fill('Not-the-pass-2026!');
    await page.getByRole('button', { name: 'Change email' }).click();
    await page.getByText(USER_SETTINGS_MESSAGES.passwordWrong).waitFor();
    expect(await page.getByText(USER_SETTINGS_MESSAGES.emailChangeSent(other)).count()).toBe(0);
    await requestEmailChange(page, other);
    await page.getByRole('button', { name: `Keep ${email}` }).click();
    await page.getByText(USER_SETTINGS_MESSAGES.emailChangeSent(other)).waitFor({ state: 'detached' });
    // withdrawn on the server: a reload shows nothing pending
    await page.reload();
    await page.getByText(`You sign in with ${email}.`).waitFor();
    expect(await page.getByText(USER_SETTINGS_MESSAGES.emailChangeSent(other)).count()).toBe(0);
    // and the link sent to the withdrawn address does not make it the sign-in email
    const link = await verificationLink(other);
    // (the identity service answers that code as expired, which the page leaves at once: spec 2.3)
    await page.goto(`${baseUrl}${link.pathname}${link.search}`);
    await page.waitForURL((u) => u.pathname !== '/verify-email', { timeout: 30_000 });
    expect(await page.getByText(VERIFY_EMAIL_MESSAGES.success).count()).toBe(0);
    await page.goto(`${baseUrl}/settings/account`);
    await page.getByText(`You sign in with ${email}.`).waitFor();
    await page.close();
  });

  it('account: a new email stays pending until the link sent to it is opened, then it signs in', async () => {
    const next = `renamed.${Date.now()}@example.com`;
    const page = await as(email, '/settings/account', 1280, password);
    await requestEmailChange(page, next);
    // still the old sign-in address until verified
    await page.getByText(`You sign in with ${email}.`).waitFor();
    // the pending address is part of the current user: a reload still shows it
    await page.reload();
    await page.getByText(`You sign in with ${email}.`).waitFor();
    await page.getByText(USER_SETTINGS_MESSAGES.emailChangeSent(next)).waitFor();
    const link = await verificationLink(next);
    await page.goto(`${baseUrl}${link.pathname}${link.search}`);
    await page.getByText(VERIFY_EMAIL_MESSAGES.success).waitFor();
    await page.waitForURL((u) => u.pathname !== '/verify-email', { timeout: 30_000 });
    await page.close();
    email = next;
    const again = await as(next, '/settings/account', 1280, password);
    await again.getByText(`You sign in with ${next}.`).waitFor();
    // verified: nothing is pending any more
    expect(await again.getByText(USER_SETTINGS_MESSAGES.emailChangeSent(next)).count()).toBe(0);
    await again.close();
  });

  it('phone width: the sections above the form', async () => {
    const page = await as(email, '/settings/account', 390, password);
    await page.getByRole('navigation', { name: 'User settings sections' }).waitFor();
    await page.screenshot({ path: `${SHOTS}/user-settings-account-phone.png`, fullPage: true });
    await page.close();
  });
});
