import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { ownServerDriver, useBrowser } from './session';
import { startTestServer, type TestServer } from '../server/harness';
import { WEIR, writeTestStreetArchive } from '../server/pmtiles-fixture';

/**
 * Issue 34: the self-hosted street map. A small PMTiles archive the test builds (streets around the
 * demo world's Kaituna River Weir, tests/server/pmtiles-fixture.ts) is the deployment's Roadmap
 * (MAP_PMTILES_PATH): the map page draws it through the pmtiles protocol, by range requests to
 * this server, under the app's Content-Security-Policy (a violation fails the file).
 */
// Protomaps' light flavour: earth and major roads
const EARTH = [0xe2, 0xdf, 0xda];
const ROAD = [0xff, 0xff, 0xff];

describe('the street map from a PMTiles archive (issue 34)', () => {
  let s: TestServer;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tidewatch-streets-'));
    writeTestStreetArchive(join(dir, 'region.pmtiles'));
    s = await startTestServer(ownServerDriver(), { SEED_DEMO: 'true', DEMO_MODE: 'true', MAP_PMTILES_PATH: join(dir, 'region.pmtiles') });
  }, 240_000);
  afterAll(async () => {
    await s?.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const b = useBrowser({ hookTimeout: 240_000 });

  /** The RGB of pixels of the map, at offsets from its middle (CSS pixels, device scale 1). */
  async function pixels(page: Page, offsets: [number, number][]): Promise<number[][]> {
    const png = (await page.getByTestId('fleet-map').screenshot()).toString('base64');
    return page.evaluate(
      async ({ b64, at }) => {
        const bytes = Uint8Array.from(atob(b64), (ch) => ch.charCodeAt(0));
        const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
        const c = new OffscreenCanvas(bitmap.width, bitmap.height).getContext('2d')!;
        c.drawImage(bitmap, 0, 0);
        return at.map(([dx, dy]) => Array.from(c.getImageData(Math.floor(bitmap.width / 2) + dx, Math.floor(bitmap.height / 2) + dy, 1, 1).data.slice(0, 3)));
      },
      { b64: png, at: offsets },
    );
  }
  const near = (a: number[], b: number[]) => a.every((x, i) => Math.abs(x - b[i]) <= 8);

  it('draws a street of the archive, read by range requests', async () => {
    const page = await b.signedIn(s.url, 'member@demo.test', { width: 1366, height: 860, timeout: 30_000 });
    const ranges: number[] = [];
    page.on('response', (r) => {
      if (r.url().endsWith('/map/streets.pmtiles')) ranges.push(r.status());
    });
    await page.goto(`${s.url}/org/riverbend-water/map/3C4D5E6F`);
    // the deep link selected the weir (its card may have come and gone on a slow runner)
    await page.getByRole('list', { name: 'Sensors on the map' }).locator('[data-serial="3C4D5E6F"][aria-current="true"]').waitFor({ timeout: 30_000 });
    const map = page.getByTestId('fleet-map');
    await expect.poll(() => map.getAttribute('data-style')).toBe('Tidewatch streets');
    await page.locator('[data-testid="fleet-map"][data-idle="true"]').waitFor();

    // the weir is centred at zoom 14; Tideway Road runs east-west 0.002 degrees north of it
    const scale = (512 * 2 ** 14) / 360;
    const y = (lat: number) => (180 / Math.PI) * Math.log(Math.tan(Math.PI / 4 + (lat * Math.PI) / 360));
    const roadDy = Math.round(-(y(WEIR.lat + 0.002) - y(WEIR.lat)) * scale);
    // a strip across the road, 150 px east of the weir (clear of the sensor's dot), and the land beside it
    const strip: [number, number][] = Array.from({ length: 9 }, (_, i) => [150, roadDy - 4 + i]);
    await expect
      .poll(
        async () => {
          const [land, ...across] = await pixels(page, [[150, roadDy + 20], ...strip]);
          return near(land, EARTH) && across.some((p) => near(p, ROAD)) ? 'street drawn' : JSON.stringify({ land, across });
        },
        { timeout: 30_000 },
      )
      .toBe('street drawn');
    // OpenStreetMap's licence asks for the credit: the map shows its source's attribution
    await map.getByText('© OpenStreetMap contributors').waitFor();
    expect(ranges.length).toBeGreaterThan(0);
    expect(ranges.every((status) => status === 206)).toBe(true);
    await page.screenshot({ path: '/tmp/map-e2e-streets.png' });
    await page.close();
  });
});
