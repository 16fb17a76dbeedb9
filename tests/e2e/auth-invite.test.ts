import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser } from './browser';
import { idToken as idTokenOf } from './session';

// /accept (monitoring-client 2.1, organisation-and-routes 2.5): an invited user sets a password and
// joins; the invitation email's link carries the email and a one-time code (issue 35), which says so
// when opened again.
describe('accepting an invitation (issue 3)', () => {
  const baseUrl = inject('baseUrl');
  const invited = `invited.${Date.now()}@example.com`;
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser?.close());

  const idToken = (email: string) => idTokenOf(baseUrl, email);

  it('the invited user opens the link, chooses a password and lands in the organisation', async () => {
    const token = await idToken('admin@demo.test');
    const { organisations } = (await (await fetch(`${baseUrl}/api/organisations`, { headers: { Authorization: token } })).json()) as { organisations: { id: string; slug: string }[] };
    const org = organisations.find((o) => o.slug === 'riverbend-water')!;
    const invite = await fetch(`${baseUrl}/api/organisations/${org.id}/invite`, {
      method: 'POST',
      headers: { Authorization: token, 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: invited, name: 'Ivy Invited', role: 1 }),
    });
    expect(invite.status).toBe(200);

    const { messages } = (await (await fetch(`${baseUrl}/dev/mailbox?to=${encodeURIComponent(invited)}`)).json()) as { messages: { kind?: string; text?: string }[] };
    const link = /https?:\/\/\S+\/accept\?\S+/.exec(messages.find((m) => m.kind === 'invitation')?.text ?? '')?.[0];
    expect(link, 'an accept link in the invitation email').toBeTruthy();

    const page = await browser.newPage();
    page.setDefaultTimeout(30_000);
    await page.goto(`${baseUrl}${new URL(link!).pathname}${new URL(link!).search}`);
    await page.getByRole('heading', { name: 'Accept your invitation' }).waitFor();
    await expect(page.getByLabel('Email').inputValue()).resolves.toBe(invited);
    await page.getByLabel('New password', { exact: true }).fill('Invited-pass-2026!');
    await page.getByLabel('Confirm new password').fill('Invited-pass-2027!');
    await page.getByRole('button', { name: 'Accept invitation' }).click();
    await page.getByText('The two passwords must match').waitFor();
    await page.getByLabel('Confirm new password').fill('Invited-pass-2026!');
    await page.getByRole('button', { name: 'Accept invitation' }).click();
    await page.waitForURL('**/org/riverbend-water/sensors');
    await page.locator('header').getByText('Riverbend Water').waitFor();
    await page.close();

    // the same link a second time, in a fresh browser: used, and it says so
    const again = await browser.newContext();
    const second = await again.newPage();
    second.setDefaultTimeout(30_000);
    await second.goto(`${baseUrl}${new URL(link!).pathname}${new URL(link!).search}`);
    await second.getByLabel('New password', { exact: true }).fill('Another-pass-2026!');
    await second.getByLabel('Confirm new password').fill('Another-pass-2026!');
    await second.getByRole('button', { name: 'Accept invitation' }).click();
    await second.getByText('This invitation link has already been used. Sign in with your email and password.').waitFor();
    await again.close();
  });
});
