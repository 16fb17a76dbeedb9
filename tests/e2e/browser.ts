import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

/**
 * Every page runs under the server's Content-Security-Policy; a violation is an error of the test
 * that caused it: each context reports `securitypolicyviolation` events (and Chromium's own
 * "Refused to ..." console errors), and `browser.close()` in the test's afterAll throws them.
 * (Violations inside workers reach the server's /csp-report; global-setup fails the run on those.)
 */
function collectCspViolations(browser: Browser) {
  const violations: string[] = [];
  const watch = async (context: BrowserContext) => {
    await context.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) => console.error(`CSP violation: ${e.effectiveDirective} blocked ${e.blockedURI || 'inline'} in ${e.sourceFile}:${e.lineNumber}`));
    });
    context.on('console', (msg) => {
      if (msg.type() === 'error' && /CSP violation|Content Security Policy/.test(msg.text())) violations.push(`${msg.location().url}: ${msg.text()}`);
    });
  };
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (...args) => {
    const context = await newContext(...args);
    await watch(context);
    return context;
  };
  browser.newPage = async (...args) => {
    const context = await browser.newContext(...args);
    const page = await context.newPage();
    // like Browser.newPage: closing the page closes its own context
    page.on('close', () => void context.close().catch(() => undefined));
    return page;
  };
  const close = browser.close.bind(browser);
  browser.close = async (...args) => {
    await close(...args);
    if (violations.length) throw new Error(`Content-Security-Policy violations:\n${[...new Set(violations)].join('\n')}`);
  };
}

/** Debian's Chromium, headless, with the flags this machine needs (DESIGN.md "Tests"); playwright gives each launch a fresh profile. */
export async function launchBrowser(): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  collectCspViolations(browser);
  return browser;
}

export const DEMO_PASSWORD = 'Demo-pass-2026!';

/** Signs in through the real login form. */
export async function signIn(page: Page, baseUrl: string, email: string, password = DEMO_PASSWORD) {
  await page.goto(`${baseUrl}/login`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: /log in|sign in/i }).click();
  await page.waitForURL((u) => !u.pathname.startsWith('/login'), { timeout: 30_000 });
}
