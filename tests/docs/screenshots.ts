// The README's screenshots (npm run docs:screenshots): the product started as npm start starts it
// (its own data directory, the demo world), three screens in headless Chromium, written to docs/images/.
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { CHROMIUM_LAUNCH, signIn } from '../e2e/browser';
import { startProduct } from '../e2e/product';

const root = resolve(import.meta.dirname, '../..');
const out = join(root, 'docs/images');
mkdirSync(out, { recursive: true });

const product = await startProduct({ SIMULATOR_SPEED: '1' });
// a plain browser: the e2e one checks each screen with axe in the page, which tsx-compiled code cannot evaluate
const browser = await chromium.launch(CHROMIUM_LAUNCH);
/** Quiet for a moment: fonts, the chart's last frame and the map's tiles drawn. */
const settled = async (page: Page) => {
  // (expressions as strings: tsx's name-keeping wraps functions in a helper the page does not have)
  await page.evaluate('document.fonts.ready.then(() => true)');
  await page.waitForTimeout(1_500);
};
try {
  // 1. a sensor's dashboard: the latest level, the chart of the last three days, on a laptop
  const desk = await browser.newPage({ viewport: { width: 1366, height: 860 } });
  await signIn(desk, product.url, 'owner@demo.test');
  await desk.goto(`${product.url}/org/riverbend-water/sensors/1A2B3C4D`);
  await desk.locator('[data-testid="chart-pane"][data-status="ready"]').waitFor({ timeout: 60_000 });
  await settled(desk);
  await desk.screenshot({ path: join(out, 'dashboard.png') });

  // 2. the organisation's sensors on the map, in their status colours, fitted to them all
  await desk.goto(`${product.url}/org/riverbend-water/map`);
  await desk.locator('[data-testid="fleet-map"][data-idle="true"]').waitFor({ timeout: 60_000 });
  await settled(desk);
  await desk.screenshot({ path: join(out, 'map.png') });
  await desk.close();

  // 3. the meter reader's app on a phone: the route tasks assigned to the reader
  const phone = await browser.newPage({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2 });
  await signIn(phone, product.url, 'reader@demo.test');
  await phone.waitForURL((u) => u.pathname === '/reader/');
  await phone.getByRole('heading', { level: 1, name: 'My route tasks' }).waitFor();
  await settled(phone);
  await phone.screenshot({ path: join(out, 'reader.png') });
  await phone.close();
  console.log(`wrote ${['dashboard', 'map', 'reader'].map((n) => `docs/images/${n}.png`).join(', ')}`);
} finally {
  await browser.close();
  await product.stop();
}
