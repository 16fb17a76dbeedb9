import { mkdirSync } from 'node:fs';
import { verifiesWebhook } from '../webhook-verify';
import { startWebhookReceiver, type ReceivedWebhook, type WebhookReceiver } from '../webhook-receiver';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, signIn } from './browser';
import { WEBHOOK_MESSAGES } from '../../src/domain/webhook-form';

const SHOTS = 'test-results/e2e';
const SETTINGS = '/org/riverbend-water/settings';


/**
 * Issue 13's Integration and Webhooks sections in the browser: the webhook form's rules, a signed
 * test event arriving at a receiver on this machine (the e2e server allows private addresses),
 * removal, the integration credentials and the API documentation they link to.
 */
describe('integration and webhooks settings in the browser (issue 13)', () => {
  const baseUrl = inject('baseUrl');
  let browser: Browser;
  let receiver: WebhookReceiver;
  let receiverUrl = '';
  let received: ReceivedWebhook[] = [];

  beforeAll(async () => {
    browser = await launchBrowser();
    mkdirSync(SHOTS, { recursive: true });
    receiver = await startWebhookReceiver();
    ({ received, url: receiverUrl } = receiver);
  });
  afterAll(async () => {
    await receiver?.close();
    await browser?.close();
  });

  async function as(email: string, path: string, width = 1280): Promise<Page> {
    const page = await browser.newPage({ viewport: { width, height: 900 } });
    page.setDefaultTimeout(30_000);
    await signIn(page, baseUrl, email);
    await page.goto(`${baseUrl}${path}`);
    return page;
  }
  const toast = (page: Page, text: string) => page.getByText(text, { exact: true }).first().waitFor({ timeout: 15_000 });

  it('members see neither section; their paths go to details', async () => {
    const page = await as('member@demo.test', `${SETTINGS}/webhooks`);
    await page.waitForURL(`**${SETTINGS}/details`);
    const nav = page.getByRole('navigation', { name: 'Settings sections' });
    await nav.getByRole('link').first().waitFor();
    expect(await nav.getByRole('link', { name: 'Webhooks' }).count()).toBe(0);
    expect(await nav.getByRole('link', { name: 'Integration' }).count()).toBe(0);
    await page.goto(`${baseUrl}${SETTINGS}/integration`);
    await page.waitForURL(`**${SETTINGS}/details`);
    await page.close();
  });

  it('set a webhook, see a signed test event arrive at the receiver, then remove it', async () => {
    const page = await as('admin@demo.test', `${SETTINGS}/webhooks`);
    const url = page.getByLabel('Webhook URL');
    const addHeader = page.getByRole('button', { name: 'Add header' });
    const update = page.getByRole('button', { name: 'Update' });
    await url.waitFor();
    // no URL: nothing to add headers to, nothing to update
    await expect(addHeader.isDisabled()).resolves.toBe(true);
    await expect(update.isDisabled()).resolves.toBe(true);
    await url.fill('ftp://example.com/hook');
    await page.getByText(WEBHOOK_MESSAGES.url).waitFor();
    await expect(update.isDisabled()).resolves.toBe(true);

    await url.fill(`  ${receiverUrl} `);
    await expect(update.isEnabled()).resolves.toBe(true);
    // a header needs both cells; up to five rows
    await addHeader.click();
    await page.getByLabel('Header 1 key').fill('X-Team');
    await page.getByText('Value required').waitFor();
    await expect(update.isDisabled()).resolves.toBe(true);
    await page.getByLabel('Header 1 value').fill('  ops  ');
    for (let i = 2; i <= 5; i++) await addHeader.click();
    await expect(addHeader.isDisabled()).resolves.toBe(true);
    await page.getByText('Headers (5 of 5)').waitFor();
    // fully empty rows are ignored
    await expect(update.isEnabled()).resolves.toBe(true);
    await page.getByRole('button', { name: 'Remove header 5' }).click();
    await page.screenshot({ path: `${SHOTS}/webhooks-editing.png` });
    await update.click();
    await toast(page, WEBHOOK_MESSAGES.saved);

    const secretField = page.getByLabel('Signing secret', { exact: true });
    await secretField.waitFor();
    const secret = await secretField.inputValue();
    expect(secret).toMatch(/^whsec_/);
    // saved trimmed, empty rows dropped
    await expect(url.inputValue()).resolves.toBe(receiverUrl);
    await page.getByText('Headers (1 of 5)').waitFor();

    const before = received.length;
    await page.getByRole('button', { name: 'Send a test event' }).click();
    await toast(page, WEBHOOK_MESSAGES.testSent(receiverUrl));
    // through the outbox and the dispatcher: it arrives within its poll
    await expect.poll(() => received.slice(before).find((r) => JSON.parse(r.body).type === 'test'), { timeout: 30_000 }).toBeTruthy();
    const event = received.slice(before).find((r) => JSON.parse(r.body).type === 'test')!;
    expect(verifiesWebhook(secret, event.headers, event.body), 'the signature verifies with the secret shown').toBe(true);
    expect(event.headers['x-team']).toBe('ops');
    expect(JSON.parse(event.body)).toMatchObject({ type: 'test', notification: null, sensor: null });
    await page.screenshot({ path: `${SHOTS}/webhooks-saved.png`, fullPage: true });

    // an empty URL with a webhook removes it (spec 4)
    await url.fill('');
    await update.click();
    await toast(page, WEBHOOK_MESSAGES.saved);
    await expect.poll(() => page.getByLabel('Signing secret', { exact: true }).count()).toBe(0);
    await page.reload();
    await url.waitFor();
    await expect(url.inputValue()).resolves.toBe('');
    await page.close();
  });

  it('integration: organisation id, key and token select on click; the API documentation page renders the OpenAPI document', async () => {
    const page = await as('admin@demo.test', `${SETTINGS}/integration`);
    const key = page.getByLabel('API key', { exact: true });
    await key.waitFor();
    expect((await key.inputValue()).length).toBeGreaterThan(10);
    await key.click();
    const selected = await key.evaluate((el: HTMLInputElement) => el.value.slice(el.selectionStart ?? 0, el.selectionEnd ?? 0));
    expect(selected).toBe(await key.inputValue());
    await expect(page.getByLabel('Organisation id', { exact: true }).inputValue()).resolves.toMatch(/^[0-9a-f-]{36}$/);
    await page.getByLabel('API token', { exact: true }).waitFor();
    await page.screenshot({ path: `${SHOTS}/integration.png` });

    await page.getByRole('link', { name: 'API documentation' }).click();
    await page.waitForURL('**/api-docs');
    await page.getByRole('heading', { name: 'Tidewatch gateway API', level: 1 }).waitFor();
    await page.getByRole('heading', { name: 'Integrations', level: 2 }).waitFor();
    const call = page.getByRole('button', { name: /^post\s*\/organisations\/\{id\}\/integrations(?!\/)/i }); // named by what it shows (issue 16)
    await call.click();
    // only this call is open: its request body's fields, from the zod contract, are what shows
    await page.getByText('Request body (application/json)').filter({ visible: true }).first().waitFor();
    await page.getByText('url', { exact: true }).filter({ visible: true }).first().waitFor();
    await page.getByText('headers', { exact: true }).filter({ visible: true }).first().waitFor();
    await page.getByLabel('Filter calls').fill('users');
    await page.getByRole('button', { name: /^patch\s*\/users\/\{memberId\}/i }).waitFor();
    expect(await page.getByRole('heading', { name: 'Integrations', level: 2 }).count()).toBe(0);
    await page.screenshot({ path: `${SHOTS}/api-docs.png` });
    // signed in, the docs lead back into the app (issue 36 item 15)
    await page.getByRole('link', { name: 'Back to the app' }).click();
    await page.waitForURL((u) => u.pathname.startsWith('/org/'));
    await page.close();
  });
});
