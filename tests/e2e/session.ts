import { mkdirSync } from 'node:fs';
import { afterAll, afterEach, beforeAll } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { DEMO_PASSWORD, launchBrowser, signIn } from './browser';
import { startTestServer, testDrivers, type TestServer } from '../server/harness';

export interface PageOptions {
  /** Opened after signing in (a path of the app, e.g. '/org/riverbend-water/sensors'). */
  path?: string;
  width?: number;
  height?: number;
  acceptDownloads?: boolean;
  /** Playwright's default wait for the page (its own default when unset). */
  timeout?: number;
  /** A script for every document the page loads (page.addInitScript), added before its first navigation. */
  initScript?: string;
}

/**
 * One browser for a describe block: launched before its tests (making the screenshots' folder
 * when asked), closed after them, and pages signed in as an account.
 *
 * With `signInOnce`, each account signs in through the login form once for the block (per server
 * address); its later pages opened at a path start in a new context holding that sign-in's saved
 * session (the tokens aws-amplify keeps in localStorage, Playwright's storageState taken as the
 * form's sign-in left the login page), as a second tab of a signed-in browser would. A page with
 * no path still signs in through the form: it is wanted where that sign-in lands. A form sign-in costs
 * several seconds of a starved CPU (the login page, the password hash, the
 * landing page) and proves nothing the first one did not. Only for files whose tests do not sign
 * out, change an account's sign-in (email, password, MFA) or need the login form's own steps.
 */
export function useBrowser(opts: { shots?: string; hookTimeout?: number; signInOnce?: boolean } = {}) {
  let browser: Browser | undefined;
  const sessions = new Map<string, Awaited<ReturnType<BrowserContext['storageState']>>>();
  beforeAll(async () => {
    browser = await launchBrowser();
    if (opts.shots) mkdirSync(opts.shots, { recursive: true });
  }, opts.hookTimeout);
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail' && browser) await reportOpenPages(browser, ctx.task.name);
  });
  afterAll(() => browser?.close());
  const get = () => {
    if (!browser) throw new Error('the browser is launched in beforeAll');
    return browser;
  };
  return {
    get browser(): Browser {
      return get();
    },
    /** A new page of `width` x `height` (1280 x 900 unless told), signed in at `baseUrl` as `email`, at `path` or else the landing page the sign-in reached. */
    async signedIn(baseUrl: string, email: string, { path, width = 1280, height = 900, acceptDownloads, timeout, initScript }: PageOptions = {}): Promise<Page> {
      const key = `${baseUrl} ${email}`;
      // with no path the page is where the form's sign-in lands (a meter reader's invitation prompt, for one)
      const saved = opts.signInOnce && path ? sessions.get(key) : undefined;
      const page = await get().newPage({ viewport: { width, height }, ...(acceptDownloads ? { acceptDownloads } : {}), ...(saved ? { storageState: saved } : {}) });
      if (timeout) page.setDefaultTimeout(timeout);
      if (initScript) await page.addInitScript(initScript);
      if (!saved) {
        await signIn(page, baseUrl, email);
        if (opts.signInOnce) sessions.set(key, await page.context().storageState());
      }
      if (path) await page.goto(`${baseUrl}${path}`);
      return page;
    },
  };
}

const FAILURES = 'test-results/e2e/failures';

/**
 * What a failed test left on screen, for a failure that does not happen again when run alone:
 * each page still open (a test closes its pages at its end, so these are the failed test's) is
 * saved as a screenshot, and its address and the start of its text go to stderr, which CI keeps.
 */
async function reportOpenPages(browser: Browser, testName: string): Promise<void> {
  mkdirSync(FAILURES, { recursive: true });
  const slug = testName.replace(/[^A-Za-z0-9]+/g, '-').slice(0, 80);
  const pages = browser.contexts().flatMap((c) => c.pages());
  for (const [i, page] of pages.entries()) {
    const path = `${FAILURES}/${slug}-${i + 1}.png`;
    const shot = await page.screenshot({ path, fullPage: true, timeout: 10_000 }).then(
      () => path,
      (err: Error) => `no screenshot (${err.message.split('\n')[0]})`,
    );
    const text = await page
      .evaluate(() => document.body?.innerText ?? '', undefined)
      .then((t) => t.replace(/\s+/g, ' ').slice(0, 800))
      .catch((err: Error) => `no text (${err.message.split('\n')[0]})`);
    process.stderr.write(`[e2e failure] "${testName}", page ${i + 1} of ${pages.length}: ${page.url()}\n  ${shot}\n  text: ${text}\n`);
  }
}

/**
 * The database of a browser file's own server: a new one on the machine's PostgreSQL when
 * TEST_DATABASE_URL names one (CI; the server suites' `testDrivers` then include it), so the demo
 * world's seed and every page's reads run natively there instead of in PGlite's WebAssembly inside
 * the test's process, which shares the machine's two cores with the browser; PGlite otherwise.
 * (The shared server, global-setup's, is the product as `npm start` runs it, on its embedded
 * database.)
 */
export const ownServerDriver = (): 'postgres' | 'pglite' => (testDrivers.includes('postgres') ? 'postgres' : 'pglite');

/**
 * A product of the file's own (built client, demo world, embedded broker, no simulator), so what
 * the file changes does not move the ground under other files; `env` adds settings (a
 * certificate, say). Call in beforeAll.
 */
export const startOwnDemoServer = (env: Record<string, string> = {}): Promise<TestServer> => startTestServer(ownServerDriver(), { SEED_DEMO: 'true', SIMULATOR: 'false', DEMO_MODE: 'true', ...env });

/** An account's ID token from the identity endpoint, asked as aws-amplify's USER_PASSWORD_AUTH asks. */
export async function idToken(baseUrl: string, email: string, password = DEMO_PASSWORD): Promise<string> {
  const config = (await (await fetch(`${baseUrl}/config.json`)).json()) as { auth: { userPoolClientId: string } };
  const res = await fetch(`${baseUrl}/identity`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-amz-json-1.1', 'X-Amz-Target': 'AWSCognitoIdentityProviderService.InitiateAuth' },
    body: JSON.stringify({ AuthFlow: 'USER_PASSWORD_AUTH', ClientId: config.auth.userPoolClientId, AuthParameters: { USERNAME: email, PASSWORD: password } }),
  });
  const body = (await res.json()) as { AuthenticationResult?: { IdToken: string } };
  if (!body.AuthenticationResult) throw new Error(`no ID token for ${email}: ${res.status} ${JSON.stringify(body)}`);
  return body.AuthenticationResult.IdToken;
}

/** A gateway call with an ID token; a status of 300 or more throws with the call and its answer. */
export async function gateway(baseUrl: string, token: string, method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${baseUrl}/api${path}`, { method, headers: { Authorization: token, 'Content-Type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.json() as Promise<Record<string, unknown>>;
}

/** The organisation's id by its slug, as the token's account sees its organisations. */
export async function orgId(baseUrl: string, token: string, slug: string): Promise<string> {
  const { organisations } = (await gateway(baseUrl, token, 'GET', '/organisations')) as { organisations: { id: string; slug: string }[] };
  const org = organisations.find((o) => o.slug === slug);
  if (!org) throw new Error(`no organisation ${slug}`);
  return org.id;
}

/** The demo owner invites a new address into an organisation; the invitee opens the emailed link and accepts with a password. */
export async function inviteAndAccept(browser: Browser, baseUrl: string, invitee: { email: string; name: string; password: string; slug?: string }) {
  const slug = invitee.slug ?? 'riverbend-water';
  const owner = await idToken(baseUrl, 'owner@demo.test');
  await gateway(baseUrl, owner, 'POST', `/organisations/${await orgId(baseUrl, owner, slug)}/invite`, { email: invitee.email, name: invitee.name, role: 1 });
  const { messages } = (await (await fetch(`${baseUrl}/dev/mailbox?to=${encodeURIComponent(invitee.email)}`)).json()) as { messages: { kind?: string; text?: string }[] };
  const link = new URL(/https?:\/\/\S+\/accept\?\S+/.exec(messages.find((m) => m.kind === 'invitation')!.text!)![0]);
  const page = await browser.newPage();
  await page.goto(`${baseUrl}${link.pathname}${link.search}`);
  await page.getByLabel('New password', { exact: true }).fill(invitee.password);
  await page.getByLabel('Confirm new password').fill(invitee.password);
  await page.getByRole('button', { name: 'Accept invitation' }).click();
  await page.waitForURL(`**/org/${slug}/**`, { timeout: 30_000 });
  await page.close();
}
