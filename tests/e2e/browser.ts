import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { inject } from 'vitest';
import { createRequire } from 'node:module';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

/*
 * Shared by every browser test. Two checks ride along with every page a test opens:
 *
 * 1. Content-Security-Policy: a violation is an error of the test run (collectCspViolations below).
 *
 * 2. Accessibility (issue 16): axe-core (the npm package in devDependencies) checks the page against
 *    WCAG 2.0, 2.1 and 2.2 A and AA (tags wcag2a wcag2aa wcag21a wcag21aa wcag22aa) and any
 *    violation, of any impact, fails the test with a report of rule, impact, target and HTML.
 *    - automatically: after every `page.goto` (every context's pages, whoever created them) once the
 *      page has settled (no loader left, the DOM quiet), so every screen a test visits is checked;
 *    - explicitly: `await expectAccessible(page, 'label')` for states a goto does not reach (an open
 *      modal, a chart that has drawn, a table view, dark mode...).
 *    axe is injected through the DevTools protocol (Runtime.evaluate, which is what page.evaluate of a
 *    string is), which the page's CSP does not govern: the app's CSP stays exactly as strict
 *    (no bypassCSP, no 'unsafe-eval'), and the CSP check stays meaningful; axe itself runs in the
 *    page's main world and needs nothing the CSP forbids (a violation would still fail the run).
 *    Contexts get `reducedMotion: 'reduce'` unless a test asks otherwise: transitions are then
 *    instant (the app honours prefers-reduced-motion), so contrast is never measured mid-fade.
 *    There is no opt-out: every screen is checked. `expectAccessible` waits for the page to settle.
 *    A screen whose shape axe has already passed in this run (screenShape: the same elements,
 *    attributes and text-holding at the same viewport and colour scheme; /login before every
 *    sign-in, for one) is not run through axe again; the page-structure rules run every time.
 */
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
/** Rules still being fixed on the existing screens (issue 16 in progress): emptied as the fixes land. */
const AXE_PENDING_RULES: string[] = process.env.AXE_PENDING ? process.env.AXE_PENDING.split(',') : [];
let axeSource: string | undefined;
const axeScript = () => (axeSource ??= readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8'));

interface AxeNode {
  target: unknown[];
  html: string;
  failureSummary?: string;
}
interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: AxeNode[];
}

/** Waits until the page has settled: no loader shown and no DOM change for 400 ms (the h1 waited for at most 45 s: a starved CPU can take 15 s to boot the app). */
async function settle(page: Page) {
  await page
    // a lazy section still on its way has no loader yet but no h1 either: every settled page has one
    .waitForFunction(() => !document.querySelector('.mantine-Loader-root, [aria-busy="true"]') && !!document.querySelector('h1'), null, { timeout: 45_000, polling: 100 })
    .catch(() => undefined);
  await page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        const state: { timer?: ReturnType<typeof setTimeout> } = {};
        const observer = new MutationObserver(() => {
          clearTimeout(state.timer);
          state.timer = setTimeout(done, 400);
        });
        const cap = setTimeout(() => done(), 8_000);
        const done = () => {
          observer.disconnect();
          clearTimeout(state.timer);
          clearTimeout(cap);
          resolve();
        };
        state.timer = setTimeout(done, 400);
        observer.observe(document.documentElement, { subtree: true, childList: true, attributes: true, characterData: true });
      }),
  );
}

/** Runs axe-core on the page as it is now; returns the violations. */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  const loaded = await page.evaluate(() => typeof (window as unknown as { axe?: unknown }).axe === 'object');
  if (!loaded) await page.evaluate(axeScript());
  return page.evaluate(async ({ tags, pending }) => {
    const axe = (window as unknown as { axe: { run: (ctx: unknown, opts: unknown) => Promise<{ violations: AxeViolation[] }> } }).axe;
    const rules = Object.fromEntries(pending.map((id) => [id, { enabled: false }]));
    const result = await axe.run(document, { runOnly: { type: 'tag', values: tags }, rules, resultTypes: ['violations'] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target, html: n.html, failureSummary: n.failureSummary })) }));
  }, { tags: AXE_TAGS, pending: AXE_PENDING_RULES });
}

/** A readable report of axe violations: rule, impact, help, then each node's target and HTML. */
export function formatViolations(label: string, violations: AxeViolation[]): string {
  const lines = [`${label}: ${violations.length} accessibility rule(s) violated (axe-core, WCAG 2.2 AA)`];
  for (const v of violations) {
    lines.push(`- ${v.id} (${v.impact ?? 'n/a'}): ${v.help} [${v.nodes.length} node(s)]`);
    for (const n of v.nodes.slice(0, 8)) {
      lines.push(`    ${JSON.stringify(n.target)}  ${n.html.replace(/\s+/g, ' ').slice(0, 200)}`);
      if (n.failureSummary) lines.push(`      ${n.failureSummary.replace(/\s+/g, ' ').slice(0, 240)}`);
    }
    if (v.nodes.length > 8) lines.push(`    ... and ${v.nodes.length - 8} more`);
  }
  return lines.join('\n');
}

/** Issue 16's page rules beyond axe's WCAG set: exactly one main landmark and one h1 on a page. */
async function pageStructure(page: Page): Promise<AxeViolation[]> {
  return page.evaluate(() => {
    const shown = (e: Element) => (e as HTMLElement).checkVisibility?.() !== false && !e.closest('[aria-hidden="true"], [hidden]');
    const nodes = (sel: string) => [...document.querySelectorAll(sel)].filter(shown).map((e) => ({ target: [e.tagName.toLowerCase()], html: e.outerHTML.slice(0, 200) }));
    const mains = nodes('main, [role="main"]');
    const h1s = nodes('h1, [role="heading"][aria-level="1"]');
    const out: AxeViolation[] = [];
    if (mains.length !== 1) out.push({ id: 'one-main-landmark', impact: 'moderate', help: `A page has exactly one main landmark (found ${mains.length})`, nodes: mains });
    if (h1s.length !== 1) out.push({ id: 'one-h1', impact: 'moderate', help: `A page has exactly one h1 (found ${h1s.length})`, nodes: h1s });
    return out;
  });
}

/**
 * The screen's shape, for checking each screen once a test process: every element's tag, its
 * attributes (digits in their values made one: generated ids, sizes and positions vary between
 * visits of the same screen) and whether it holds text of its own, at the viewport's size and colour
 * scheme. Two visits with the same shape get the same answer from axe's WCAG rules, which read
 * elements, roles, names, attributes and the styles their classes give; a screen whose shape
 * differs in any element is checked again.
 */
async function screenShape(page: Page): Promise<string> {
  const shape = await page.evaluate(() => {
    const parts: string[] = [String(matchMedia('(prefers-color-scheme: dark)').matches), String(!!document.title)];
    const all = document.querySelectorAll('*');
    // generated ids (Mantine's, React's) differ between visits: each id is named by its order
    const ids = new Map<string, string>();
    for (const e of all) if (e.id && !ids.has(e.id)) ids.set(e.id, `id${ids.size}`);
    for (const e of all) {
      let part = e.tagName;
      for (const a of e.attributes) part += ` ${a.name}=${a.value.split(/(\s+)/).map((t) => ids.get(t) ?? t.replace(/\d+/g, '#')).join('')}`;
      for (const n of e.childNodes) if (n.nodeType === Node.TEXT_NODE && n.textContent?.trim()) { part += ' T'; break; }
      parts.push(part);
    }
    // cyrb53: a 53-bit hash of the shape, so only a number crosses the DevTools protocol
    const text = parts.join('\n');
    let h1 = 0xdeadbeef, h2 = 0x41c6ce57;
    for (let i = 0; i < text.length; i++) {
      const ch = text.charCodeAt(i);
      h1 = Math.imul(h1 ^ ch, 2654435761);
      h2 = Math.imul(h2 ^ ch, 1597334677);
    }
    h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
    h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
    return `${4294967296 * (2097151 & h2) + (h1 >>> 0)}:${parts.length}`;
  });
  const size = page.viewportSize();
  return `${size?.width}x${size?.height} ${shape}`;
}

/**
 * Shapes of the screens axe has passed in this run, kept in a file the run's global setup names so
 * that every file of the run (each in a module graph of its own) skips what another passed; outside
 * vitest (the benchmarks' pages) in this process's memory. E2E_AXE_EVERY=1 checks every visit again.
 */
const passedShapes = (() => {
  const file = (() => {
    try {
      return inject('axeShapesFile');
    } catch {
      return undefined; // not a vitest run
    }
  })();
  const memory = new Set<string>();
  return {
    has: (shape: string) => memory.has(shape) || (!!file && existsSync(file) && readFileSync(file, 'utf8').split('\n').includes(shape)),
    add: (shape: string) => {
      memory.add(shape);
      if (file) appendFileSync(file, `${shape}\n`);
    },
  };
})();

/** Checks the page as it is now against WCAG 2.2 AA; throws a readable report on any violation. */
export async function expectAccessible(page: Page, label = page.url(), { settled = false } = {}) {
  if (!settled) await settle(page);
  const shape = process.env.E2E_AXE_EVERY ? undefined : await screenShape(page);
  const seen = shape !== undefined && passedShapes.has(shape);
  const violations = [...(seen ? [] : await axeViolations(page)), ...(await pageStructure(page))];
  if (violations.length) throw new Error(formatViolations(`${label} (${page.viewportSize()?.width ?? '?'} px wide)`, violations));
  if (shape !== undefined && !seen) passedShapes.add(shape);
}

/** Every page.goto of the page is followed by an accessibility check of the screen it reached. */
function checkAfterNavigation(page: Page) {
  const goto = page.goto.bind(page);
  page.goto = async (...args) => {
    const response = await goto(...args);
    await expectAccessible(page, `after goto ${new URL(page.url()).pathname}`);
    return response;
  };
}

/**
 * Every page runs under the server's Content-Security-Policy; a violation is an error of the test
 * that caused it: each context reports `securitypolicyviolation` events (and Chromium's own
 * "Refused to ..." console errors), and `browser.close()` in the test's afterAll throws them.
 * (Violations inside workers reach the server's /csp-report; global-setup fails the run on those.)
 */
function collectCspViolations(browser: Browser) {
  const violations: string[] = [];
  const watch = async (context: BrowserContext) => {
    context.on('page', checkAfterNavigation);
    await context.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) => console.error(`CSP violation: ${e.effectiveDirective} blocked ${e.blockedURI || 'inline'} in ${e.sourceFile}:${e.lineNumber}`));
    });
    context.on('console', (msg) => {
      if (msg.type() === 'error' && /CSP violation|Content Security Policy/.test(msg.text())) violations.push(`${msg.location().url}: ${msg.text()}`);
    });
  };
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options = {}) => {
    // transitions instant (prefers-reduced-motion): axe never measures contrast mid-fade
    const context = await newContext({ reducedMotion: 'reduce', ...options });
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

/** The full browser's executable and flags: the benchmarks, the README's screenshots, and a test that needs a persistent profile. */
export const CHROMIUM_LAUNCH = {
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
};

const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';
/**
 * The browser tests' launch: Chromium's headless shell where it is installed (Debian's
 * chromium-headless-shell, the same Blink, V8 and network stack without the desktop browser's layers;
 * what playwright itself runs headless), the full browser otherwise; CHROMIUM names another. The
 * browser files take about a fifth less CPU in it (docs/testing.md), and the CI machine's two cores
 * are what they wait for.
 */
export const TEST_LAUNCH = {
  ...CHROMIUM_LAUNCH,
  executablePath: process.env.CHROMIUM ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium'),
};

/** Debian's Chromium, headless, with the flags this machine needs (DESIGN.md "Tests"); playwright gives each launch a fresh profile. */
export async function launchBrowser(launch: typeof CHROMIUM_LAUNCH = TEST_LAUNCH): Promise<Browser> {
  const browser = await chromium.launch(launch);
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
