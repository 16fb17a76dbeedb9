import { mkdirSync } from 'node:fs';
import { afterAll, afterEach, beforeAll } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, signIn } from './browser';
import { startTestServer, type TestServer } from '../server/harness';

export interface PageOptions {
  /** Opened after signing in (a path of the app, e.g. '/org/riverbend-water/sensors'). */
  path?: string;
  width?: number;
  height?: number;
  acceptDownloads?: boolean;
  /** Playwright's default wait for the page (its own default when unset). */
  timeout?: number;
}

/**
 * One browser for a describe block: launched before its tests (making the screenshots' folder
 * when asked), closed after them, and pages signed in as an account.
 */
export function useBrowser(opts: { shots?: string; hookTimeout?: number } = {}) {
  let browser: Browser | undefined;
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
    /** A new page of `width` x `height` (1280 x 900 unless told), signed in at `baseUrl` as `email`. */
    async signedIn(baseUrl: string, email: string, { path, width = 1280, height = 900, acceptDownloads, timeout }: PageOptions = {}): Promise<Page> {
      const page = await get().newPage({ viewport: { width, height }, ...(acceptDownloads ? { acceptDownloads } : {}) });
      if (timeout) page.setDefaultTimeout(timeout);
      await signIn(page, baseUrl, email);
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
 * A product of the file's own (built client, demo world, embedded broker, no simulator), so what
 * the file changes does not move the ground under other files. Call in beforeAll.
 */
export const startOwnDemoServer = (): Promise<TestServer> => startTestServer('pglite', { SEED_DEMO: 'true', SIMULATOR: 'false', DEMO_MODE: 'true' });
