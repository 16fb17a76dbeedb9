import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { DEMO_PASSWORD, expectAccessible, launchBrowser, signIn } from './browser';

const baseUrl = inject('baseUrl');

async function cognito(op: string, body: object) {
  const res = await fetch(`${baseUrl}/identity`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': `AWSCognitoIdentityProviderService.${op}` },
    body: JSON.stringify({ ClientId: 'tidewatch-web', ...body }),
  });
  return (await res.json()) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
}

describe('an existing account accepts an invitation in the app (issue 9)', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser?.close());

  it('is asked after sign-in, and joins only when it accepts', async () => {
    const owner = await cognito('InitiateAuth', { AuthFlow: 'USER_PASSWORD_AUTH', AuthParameters: { USERNAME: 'owner@demo.test', PASSWORD: DEMO_PASSWORD } });
    const token = owner.AuthenticationResult.IdToken as string;
    const { organisations } = (await (await fetch(`${baseUrl}/api/organisations`, { headers: { authorization: token } })).json()) as { organisations: { id: string; slug: string }[] };
    const riverbend = organisations.find((o) => o.slug === 'riverbend-water')!;
    const harbour = organisations.find((o) => o.slug === 'harbour-city-council')!;

    // an existing account of its own, with no organisation (the identity API's SignUp is off by
    // default): invited to Harbour City Council, it sets its password and then leaves
    const email = `existing.${Date.now()}@example.com`;
    const password = 'Existing-pass-2026!';
    await fetch(`${baseUrl}/api/organisations/${harbour.id}/invite`, {
      method: 'POST',
      headers: { authorization: token, 'content-type': 'application/json' },
      body: JSON.stringify({ email, name: 'Existing Person', role: 1 }),
    });
    const { messages } = (await (await fetch(`${baseUrl}/dev/mailbox?to=${encodeURIComponent(email)}`)).json()) as { messages: { kind?: string; text?: string }[] };
    const temporary = new URL(/https?:\/\/\S+\/accept\?\S+/.exec(messages.find((m) => m.kind === 'invitation')!.text!)![0]).searchParams.get('code')!;
    const first = await cognito('InitiateAuth', { AuthFlow: 'USER_PASSWORD_AUTH', AuthParameters: { USERNAME: email, PASSWORD: temporary } });
    expect(first.ChallengeName).toBe('NEW_PASSWORD_REQUIRED');
    const set = await cognito('RespondToAuthChallenge', { ChallengeName: 'NEW_PASSWORD_REQUIRED', Session: first.Session, ChallengeResponses: { USERNAME: email, NEW_PASSWORD: password } });
    const own = set.AuthenticationResult.IdToken as string;
    const sub = JSON.parse(Buffer.from(own.split('.')[1], 'base64url').toString()).sub as string;
    const left = await fetch(`${baseUrl}/api/organisations/${harbour.id}/members/${sub}`, {
      method: 'DELETE',
      headers: { authorization: own, 'content-type': 'application/json' },
      body: JSON.stringify({ cognitoIdentityId: sub }),
    });
    expect(left.status).toBeLessThan(300);

    // the owner of Riverbend Water invites it
    const invited = await fetch(`${baseUrl}/api/organisations/${riverbend.id}/invite`, {
      method: 'POST',
      headers: { authorization: token, 'content-type': 'application/json' },
      body: JSON.stringify({ email, name: 'Existing Person', role: 1 }),
    });
    expect(((await invited.json()) as { status: string }).status).toBe('Invited');

    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await signIn(page, baseUrl, email, password);
    const dialog = page.getByRole('dialog', { name: 'You have been invited' });
    await dialog.waitFor({ timeout: 30_000 });
    expect(await dialog.textContent()).toContain('to join Riverbend Water as member');
    await dialog.getByRole('button', { name: 'Accept' }).click();
    await page.waitForURL((u) => u.pathname.startsWith('/org/riverbend-water'), { timeout: 30_000 });
    await page.getByText('You joined Riverbend Water.').waitFor();
    await page.close();
  });

  it("a meter reader with an invitation waiting lands on the question before the reader app, and that screen passes axe (issue 16)", async () => {
    const owner = await cognito('InitiateAuth', { AuthFlow: 'USER_PASSWORD_AUTH', AuthParameters: { USERNAME: 'owner@demo.test', PASSWORD: DEMO_PASSWORD } });
    const token = owner.AuthenticationResult.IdToken as string;
    const { organisations } = (await (await fetch(`${baseUrl}/api/organisations`, { headers: { authorization: token } })).json()) as { organisations: { id: string; slug: string }[] };
    const invite = (slug: string, role: number) =>
      fetch(`${baseUrl}/api/organisations/${organisations.find((o) => o.slug === slug)!.id}/invite`, {
        method: 'POST',
        headers: { authorization: token, 'content-type': 'application/json' },
        body: JSON.stringify({ email, name: 'Reading Person', role }),
      });

    // an account of its own (not the demo reader, whom other files sign in): Harbour City Council's meter reader
    const email = `reader.${Date.now()}@example.com`;
    const password = 'Reader-pass-2026!';
    await invite('harbour-city-council', 4);
    const { messages } = (await (await fetch(`${baseUrl}/dev/mailbox?to=${encodeURIComponent(email)}`)).json()) as { messages: { kind?: string; text?: string }[] };
    const temporary = new URL(/https?:\/\/\S+\/accept\?\S+/.exec(messages.find((m) => m.kind === 'invitation')!.text!)![0]).searchParams.get('code')!;
    const first = await cognito('InitiateAuth', { AuthFlow: 'USER_PASSWORD_AUTH', AuthParameters: { USERNAME: email, PASSWORD: temporary } });
    await cognito('RespondToAuthChallenge', { ChallengeName: 'NEW_PASSWORD_REQUIRED', Session: first.Session, ChallengeResponses: { USERNAME: email, NEW_PASSWORD: password } });
    // then invited to Riverbend Water as a member: asked on the landing, before the reader app
    expect(((await (await invite('riverbend-water', 1)).json()) as { status: string }).status).toBe('Invited');

    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    await signIn(page, baseUrl, email, password);
    const dialog = page.getByRole('dialog', { name: 'You have been invited' });
    await dialog.waitFor({ timeout: 30_000 });
    expect(await dialog.textContent()).toContain('to join Riverbend Water as member');
    await expectAccessible(page, "a meter reader's invitation landing");
    await page.close();
  });
});
