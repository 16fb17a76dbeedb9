import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { Secret, TOTP } from 'otpauth';
import { launchBrowser, signIn } from './browser';
import { inviteAndAccept } from './session';
import { USER_SETTINGS_MESSAGES } from '../../src/domain/user-settings';

/**
 * TOTP MFA in the browser (security issue: "a QR code ... in the user's Account settings"; "the login
 * view gains the code step"): a fresh account sets up TOTP from the key shown on screen (codes made
 * with otpauth, as an authenticator app makes them), signs out, signs in with a code, and turns MFA
 * off with its current password.
 */
describe('two-factor authentication in the browser', () => {
  const baseUrl = inject('baseUrl');
  const email = `mfa.${Date.now()}@example.com`;
  const password = 'Mfa-pass-2026!';
  let browser: Browser;
  let secret = '';
  let setupStep = 0;

  const step = () => Math.floor(Date.now() / 30_000);
  const codeNow = () => new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate();
  /** A code of a step later than the one spent at setup (each code is accepted once). */
  async function freshCode() {
    while (step() <= setupStep) await new Promise((r) => setTimeout(r, 500));
    return codeNow();
  }

  beforeAll(async () => {
    browser = await launchBrowser();
    await inviteAndAccept(browser, baseUrl, { email, name: 'Mia Mfa', password });
  }, 120_000);
  afterAll(() => browser?.close());

  async function signedIn(): Promise<Page> {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.setDefaultTimeout(30_000);
    await signIn(page, baseUrl, email, password);
    return page;
  }

  it('sets up TOTP from the QR code screen: the key as text, verified with a code from it', async () => {
    const page = await signedIn();
    await page.goto(`${baseUrl}/settings/account`);
    await page.getByText(USER_SETTINGS_MESSAGES.mfaOff).waitFor();
    await page.getByRole('button', { name: 'Set up two-factor authentication' }).click();
    await page.getByRole('img', { name: 'QR code for your authenticator app' }).waitFor();
    secret = (await page.getByTestId('totp-secret').innerText()).replace(/\s/g, '');
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await page.getByLabel('Code from the app').fill('000000' === codeNow() ? '000001' : '000000');
    await page.getByRole('button', { name: 'Verify and turn on' }).click();
    await page.getByText(USER_SETTINGS_MESSAGES.mfaCodeWrong).waitFor();
    setupStep = step();
    await page.getByLabel('Code from the app').fill(codeNow());
    await page.getByRole('button', { name: 'Verify and turn on' }).click();
    await page.getByText(USER_SETTINGS_MESSAGES.mfaOn).waitFor();
    await page.getByRole('button', { name: 'Profile menu' }).click();
    await page.getByRole('menuitem', { name: /log out|sign out/i }).click();
    await page.waitForURL('**/login');
    await page.close();
  });

  it('signs in with the password and then the authenticator code', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.setDefaultTimeout(30_000);
    await page.goto(`${baseUrl}/login`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('heading', { name: 'Enter your authentication code' }).waitFor();
    expect(page.url()).toContain('/login');
    await page.getByLabel('Authentication code').fill(await freshCode());
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL((u) => !u.pathname.startsWith('/login'), { timeout: 30_000 });

    // turning it off asks for the current password
    await page.goto(`${baseUrl}/settings/account`);
    await page.getByText(USER_SETTINGS_MESSAGES.mfaOn).waitFor();
    await page.getByRole('button', { name: 'Turn off', exact: true }).click();
    await page.getByTestId('two-factor').getByLabel('Current password').fill('Not-my-pass-2026!');
    await page.getByRole('button', { name: 'Turn off two-factor authentication' }).click();
    await page.getByText(USER_SETTINGS_MESSAGES.passwordWrong).waitFor();
    await page.getByTestId('two-factor').getByLabel('Current password').fill(password);
    await page.getByRole('button', { name: 'Turn off two-factor authentication' }).click();
    await page.getByText(USER_SETTINGS_MESSAGES.mfaOff).waitFor();
    await page.close();
  });
});
