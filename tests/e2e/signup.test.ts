import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from './browser';

// Monitoring-client 2.3 (three-step wizard), 5 (sign-up checks), 8 (sign-up codes), 2.2 (forgot password in
// two steps, the changed-password message). The new account is this file's own, so changing its password
// disturbs no other test.
describe('sign-up and password reset (issue 3)', () => {
  const baseUrl = inject('baseUrl');
  const email = `new.owner.${Date.now()}@example.com`;
  const password = 'First-pass-2026!';
  const newPassword = 'Second-pass-2026!';
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser?.close());

  async function freshPage(): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    return page;
  }
  const next = (page: Page) => page.getByRole('button', { name: 'Next', exact: true }).click();

  it('shows the first failing check under its field and a rejected claim as the invalid claim code', async () => {
    const page = await freshPage();
    await page.goto(`${baseUrl}/signup`);
    await expect(page.getByRole('link', { name: 'Need help' }).getAttribute('href')).resolves.toMatch(/^mailto:/);
    await expect(page.getByRole('button', { name: 'Cancel' }).isVisible()).resolves.toBe(true);
    await next(page);
    await page.getByText('Serial is required.').waitFor();
    await page.getByLabel('Serial number').fill('c0ffee01');
    await page.getByLabel('Claim code').fill('c0ffee01-0000-4000-8000-00000000000f');
    await next(page);
    await page.getByText('Invalid claim code. Please check the serial and claim code on your sensor.').waitFor();
    await page.context().close();
  });

  it('a new user claims C0FFEE01 through all three steps and lands in the new organisation with that sensor', async () => {
    const page = await freshPage();
    await page.goto(`${baseUrl}/login`);
    await page.getByRole('link', { name: 'New to the product? Sign up here' }).click();
    await page.waitForURL('**/signup');

    await page.getByRole('heading', { name: 'Claim a sensor' }).waitFor();
    await page.getByLabel('Serial number').fill(' c0ffee01 ');
    await page.getByLabel('Claim code').fill('C0FFEE01-0000-4000-8000-000000000001');
    await next(page);

    await page.getByRole('heading', { name: 'Account details' }).waitFor();
    await expect(page.getByRole('button', { name: 'Cancel' }).isVisible()).resolves.toBe(true);
    await page.getByLabel('Name', { exact: true }).fill('Nora Newcomer');
    await page.getByLabel('Organisation Name').fill('Newcomer Farms');
    await next(page);

    await page.getByRole('heading', { name: 'Complete sign up' }).waitFor();
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Confirm email').fill(email.toUpperCase());
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByLabel('Confirm password').fill('not the same');
    await page.getByRole('button', { name: 'Sign up', exact: true }).click();
    await page.getByText('The two passwords must match').waitFor();
    await page.getByLabel('Confirm password').fill(password);
    await page.getByRole('button', { name: 'Sign up', exact: true }).click();

    await page.waitForURL(/\/org\/newcomer-farms(-\d+)?\/sensors/, { timeout: 60_000 });
    await page.locator('header').getByText('Newcomer Farms').waitFor();
    await page.getByText('C0FFEE01').first().waitFor({ timeout: 30_000 });

    // Organisation-and-routes 2.3: the unverified user verifies from the profile menu and the emailed link.
    await page.getByRole('button', { name: 'Profile menu' }).click();
    await page.getByRole('menuitem', { name: 'Verify email' }).click();
    await page.getByText(`A verification link has been sent to ${email}.`).waitFor();
    await page.getByRole('button', { name: 'Done' }).click();
    const { messages } = (await (await fetch(`${baseUrl}/dev/mailbox?to=${encodeURIComponent(email)}`)).json()) as { messages: { kind?: string; text?: string }[] };
    const link = /https?:\/\/\S+\/verify-email\?code=\S+/.exec(messages.find((m) => m.kind === 'verification-code')?.text ?? '')?.[0];
    expect(link, 'a verification link in the newest verification email').toBeTruthy();
    // The success screen goes back to the app 6 s after it shows. Timed from before the visit, since
    // the checks that run after each navigation (axe, tests/e2e/browser.ts) may delay seeing it.
    const visitedAt = Date.now();
    await page.goto(`${baseUrl}${new URL(link!).pathname}${new URL(link!).search}`);
    await page.getByText('Your email has been verified.', { exact: false }).waitFor();
    await page.waitForURL(/\/org\//, { timeout: 15_000 });
    expect(Date.now() - visitedAt).toBeGreaterThan(5_500);
    await page.getByRole('button', { name: 'Profile menu' }).click();
    await page.getByRole('menuitem', { name: 'Log out' }).waitFor();
    await expect(page.getByRole('menuitem', { name: 'Verify email' }).count()).resolves.toBe(0);
    await page.context().close();
  });

  it('forgot password: the emailed code sets a new password, which then signs in', async () => {
    const page = await freshPage();
    await page.goto(`${baseUrl}/login`);
    await page.getByRole('link', { name: 'Forgot password' }).click();
    await page.waitForURL('**/forgot-password');
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Send code' }).click();
    await page.getByRole('heading', { name: 'Check your email' }).waitFor();
    // the demo keeps Cognito's default: unknown addresses are answered alike, so no code is promised
    await page.getByText(/^If an account exists for .+, we have sent a code to it\./).waitFor();

    const mailbox = (await (await fetch(`${baseUrl}/dev/mailbox?to=${encodeURIComponent(email)}`)).json()) as { messages: { kind?: string; text?: string }[] };
    const mail = mailbox.messages.find((m) => m.kind === 'reset-code');
    const code = /\b(\d{6})\b/.exec(mail?.text ?? '')?.[1];
    expect(code, 'a reset code in the mailbox').toBeTruthy();

    await page.getByLabel('Code').fill('12x');
    await page.getByLabel('New password', { exact: true }).fill(newPassword);
    await page.getByLabel('Confirm new password').fill(newPassword);
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('The code is the number in the email we sent you.').waitFor();

    await page.getByLabel('Code').fill(code!);
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.waitForURL((u) => u.pathname === '/login');
    await page.getByText('Password changed successfully. Please use the new password to login.').waitFor();

    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByText('Incorrect email or password.').waitFor();

    await page.getByLabel('Password', { exact: true }).fill(newPassword);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(/\/org\/newcomer-farms(-\d+)?\/sensors/);
    await page.context().close();
  });
});
