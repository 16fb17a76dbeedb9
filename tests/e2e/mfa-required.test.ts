import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { Secret, TOTP } from 'otpauth';
import { DEMO_PASSWORD, signIn } from './browser';
import { startOwnDemoServer, useBrowser } from './session';
import type { TestServer } from '../server/harness';
import { sealSecret } from '../../server/identity/totp';

/**
 * MFA required by role and a lost authenticator, in the browser with aws-amplify (issue 35): the
 * owner requires two-factor authentication of Riverbend Water's managers; the admin's open session
 * is refused the organisation with a page that says why; at sign-in the login view shows the new
 * authenticator's key and takes its first code (Cognito's MFA_SETUP), then offers recovery codes
 * before the app opens; Account settings makes new ones, and one signs the admin in at the code
 * step in place of the app's code; the owner resets the admin's lost authenticator from the members
 * screen after their own password again, and the admin's next sign-in sets one up again and offers codes again. A server of the file's own: the requirement must not reach other files' demo world.
 */
describe('MFA required by role and recovery codes in the browser', () => {
  const ADMIN = 'admin@demo.test';
  const b = useBrowser();
  let s: TestServer;
  let baseUrl = '';
  let secret = '';
  let recoveryCode = '';

  const codeOf = (base32: string) => new TOTP({ secret: Secret.fromBase32(base32), algorithm: 'SHA1', digits: 6, period: 30 }).generate();
  const codeNow = () => codeOf(secret);

  beforeAll(async () => {
    s = await startOwnDemoServer();
    baseUrl = s.url;
  }, 60_000);
  afterAll(() => s?.close());

  const page = async () => {
    const p = await b.browser.newPage({ viewport: { width: 1280, height: 900 } });
    p.setDefaultTimeout(30_000);
    return p;
  };
  const logIn = async (p: Page) => {
    await p.goto(`${baseUrl}/login`);
    await p.getByLabel('Email').fill(ADMIN);
    await p.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD);
    await p.getByRole('button', { name: 'Log in' }).click();
  };

  it('refuses the admin’s open session once the owner requires MFA, saying why', async () => {
    const open = await page();
    await signIn(open, baseUrl, ADMIN);
    const [owner] = await s.ctx.db.query<{ id: string }>("UPDATE users SET totp_enabled = true, totp_secret = 'fixture' WHERE email = 'owner@demo.test' RETURNING id");
    const [org] = await s.ctx.db.query<{ id: string }>("SELECT id FROM organisations WHERE slug = 'riverbend-water'");
    const res = await s.api(`/organisations/${org!.id}/security`, { method: 'PUT', token: await s.tokenFor(owner!.id), json: { managerMfaRequired: true } });
    expect(res.status).toBe(200);
    await open.goto(`${baseUrl}/org/riverbend-water/sensors`);
    await open.getByRole('heading', { name: 'Two-factor authentication required' }).waitFor();
    await open.getByText('Riverbend Water requires its owners and admins to use two-factor authentication').waitFor();
    await open.getByRole('button', { name: 'Log out' }).click();
    await open.waitForURL('**/login');
    await open.close();
  });

  it('asks the admin at sign-in to set up an authenticator, from the key on screen, offers recovery codes, then opens the app', async () => {
    const p = await page();
    await logIn(p);
    await p.getByRole('heading', { name: 'Set up two-factor authentication' }).waitFor();
    await p.getByRole('img', { name: 'QR code for your authenticator app' }).waitFor();
    secret = (await p.getByTestId('totp-setup-secret').innerText()).replace(/\s/g, '');
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await p.getByLabel('Authentication code').fill(codeNow());
    await p.getByRole('button', { name: 'Verify' }).click();

    // before the app opens, the recovery codes Account settings offers: after the password again, shown once
    await p.getByRole('heading', { name: 'Two-factor authentication is on' }).waitFor();
    await p.getByText('You have no recovery codes. Make some, in case you lose your authenticator app.').waitFor();
    expect(new URL(p.url()).pathname).toBe('/login');
    await p.getByRole('button', { name: 'Make recovery codes' }).click();
    await p.getByLabel('Current password').fill(DEMO_PASSWORD);
    await p.getByRole('button', { name: 'Make recovery codes' }).click();
    await p.getByTestId('recovery-codes').waitFor();
    const first = (await p.getByTestId('recovery-codes').locator('code').allInnerTexts()).map((c) => c.trim());
    expect(first).toHaveLength(10);
    await p.getByRole('button', { name: 'I have saved them' }).click();
    await p.getByText('10 unused recovery codes left.').waitFor();
    await p.getByRole('button', { name: 'Continue' }).click();
    await p.waitForURL((u) => !u.pathname.startsWith('/login'));
    await p.goto(`${baseUrl}/org/riverbend-water/sensors`);
    await p.getByRole('heading', { name: 'Two-factor authentication required' }).waitFor({ state: 'detached' });

    // Account settings counts them and makes new ones (the first ten stop working)
    await p.goto(`${baseUrl}/settings/account`);
    await p.getByText('10 unused recovery codes left.').waitFor();
    await p.getByRole('button', { name: 'Make new recovery codes' }).click();
    await p.getByTestId('two-factor').getByLabel('Current password').fill(DEMO_PASSWORD);
    await p.getByRole('button', { name: 'Make recovery codes' }).click();
    await p.getByTestId('recovery-codes').waitFor();
    const codes = (await p.getByTestId('recovery-codes').locator('code').allInnerTexts()).map((c) => c.trim());
    expect(codes).toHaveLength(10);
    expect(codes.filter((c) => first.includes(c))).toEqual([]);
    recoveryCode = codes[0]!;
    await p.getByRole('button', { name: 'I have saved them' }).click();
    await p.getByText('10 unused recovery codes left.').waitFor();
    await p.getByRole('button', { name: 'Profile menu' }).click();
    await p.getByRole('menuitem', { name: /log out|sign out/i }).click();
    await p.waitForURL('**/login');
    await p.close();
  });

  it('signs the admin in with a recovery code at the code step, once', async () => {
    const p = await page();
    await logIn(p);
    await p.getByRole('heading', { name: 'Enter your authentication code' }).waitFor();
    await p.getByLabel('Authentication code').fill(recoveryCode.toUpperCase());
    await p.getByRole('button', { name: 'Verify' }).click();
    await p.waitForURL((u) => !u.pathname.startsWith('/login'));
    await p.goto(`${baseUrl}/settings/account`);
    await p.getByText('9 unused recovery codes left.').waitFor();
    await p.close();
  });

  it('the owner resets the admin’s two-factor authentication from the members screen; the admin sets up an authenticator again at sign-in', async () => {
    // the owner's own authenticator (Riverbend Water requires it of the owner too)
    const ownerSecret = new Secret({ size: 20 }).base32;
    const sealed = await sealSecret(s.ctx, ownerSecret);
    await s.ctx.db.query("UPDATE users SET totp_enabled = true, totp_secret = $1 WHERE email = 'owner@demo.test'", [sealed]);
    const owner = await page();
    await owner.goto(`${baseUrl}/login`);
    await owner.getByLabel('Email').fill('owner@demo.test');
    await owner.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD);
    await owner.getByRole('button', { name: 'Log in' }).click();
    await owner.getByRole('heading', { name: 'Enter your authentication code' }).waitFor();
    await owner.getByLabel('Authentication code').fill(codeOf(ownerSecret));
    await owner.getByRole('button', { name: 'Verify' }).click();
    await owner.waitForURL((u) => !u.pathname.startsWith('/login'));

    await owner.goto(`${baseUrl}/org/riverbend-water/settings/members`);
    const row = (email: string) => owner.getByRole('table', { name: 'Organisation members' }).getByRole('row').filter({ hasText: email });
    await row(ADMIN).getByText('2FA', { exact: true }).waitFor();
    expect(await row('member@demo.test').getByText('2FA', { exact: true }).count(), 'no 2FA badge for a member without it').toBe(0);
    await owner.getByRole('button', { name: 'Actions for Aroha Admin' }).click();
    await owner.getByRole('menuitem', { name: 'Reset two-factor authentication' }).click();
    const confirm = owner.getByRole('dialog', { name: 'Please confirm' });
    await confirm.getByText(/recovery codes stop working at once. At their next sign-in they must set up an authenticator again/).waitFor();
    // the owner's own password first, as for turning their own off: a wrong one resets nothing
    expect(await confirm.getByRole('button', { name: 'Yes' }).count()).toBe(0);
    await confirm.getByLabel('Current password').fill('Not-the-password-1!');
    await confirm.getByRole('button', { name: 'Reset two-factor authentication' }).click();
    await confirm.getByText('Incorrect password.').waitFor();
    expect((await s.ctx.db.query<{ totp_enabled: boolean }>('SELECT totp_enabled FROM users WHERE email = $1', [ADMIN]))[0]!.totp_enabled).toBe(true);
    await confirm.getByLabel('Current password').fill(DEMO_PASSWORD);
    await confirm.getByRole('button', { name: 'Reset two-factor authentication' }).click();
    await owner.getByText('The two-factor authentication of Aroha Admin has been reset.').waitFor();
    await row(ADMIN).getByText('2FA', { exact: true }).waitFor({ state: 'detached' });
    // the member without two-factor authentication offers no reset
    await owner.getByRole('button', { name: 'Actions for Manu Member' }).click();
    await owner.getByRole('menuitem', { name: 'Remove' }).waitFor();
    expect(await owner.getByRole('menuitem', { name: 'Reset two-factor authentication' }).count()).toBe(0);
    await owner.keyboard.press('Escape');
    await owner.close();

    // as docs/security.md says: the recovery codes are gone, the admin is told who did it
    const [admin] = await s.ctx.db.query<{ id: string }>('SELECT id FROM users WHERE email = $1', [ADMIN]);
    expect(await s.ctx.db.query('SELECT 1 FROM mfa_recovery_codes WHERE user_id = $1', [admin!.id])).toEqual([]);
    const notices = await s.ctx.db.query<{ payload: { subject: string; text: string } }>('SELECT payload FROM outbox WHERE recipient = $1 ORDER BY created_at', [ADMIN]);
    expect(notices.map((n) => n.payload).find((p) => p.subject === 'Tidewatch: Two-factor authentication was reset')?.text).toContain('owner@demo.test');

    // the admin's next sign-in asks for a new authenticator (the organisation requires one of its admins)
    const p = await page();
    await logIn(p);
    await p.getByRole('heading', { name: 'Set up two-factor authentication' }).waitFor();
    await p.getByTestId('totp-setup-secret').waitFor();
    const secretAgain = (await p.getByTestId('totp-setup-secret').innerText()).replace(/\s/g, '');
    expect(secretAgain).not.toBe(secret);
    await p.getByLabel('Authentication code').fill(codeOf(secretAgain));
    await p.getByRole('button', { name: 'Verify' }).click();
    // the reset took the recovery codes too: the offer starts from none, and Continue opens the app without them
    await p.getByRole('heading', { name: 'Two-factor authentication is on' }).waitFor();
    await p.getByText('You have no recovery codes. Make some, in case you lose your authenticator app.').waitFor();
    await p.getByRole('button', { name: 'Continue' }).click();
    await p.waitForURL((u) => !u.pathname.startsWith('/login'));
    await p.close();
  });
});
