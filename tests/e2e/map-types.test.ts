import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { ownServerDriver, useBrowser } from './session';
import { startTestServer, type TestServer } from '../server/harness';

/**
 * Issue 34: each map type its own style. A deployment with Satellite and Terrain styles on another
 * origin (a style server of the test's own: one background colour each) offers Roadmap, Satellite
 * and Terrain, not Hybrid, and each button loads its type's style; the offline default offers no
 * switcher at all (tests/e2e/map.test.ts).
 */
const STYLES: Record<string, { type: string; name: string; colour: [number, number, number] }> = {
  '/satellite.json': { type: 'Satellite', name: 'Test satellite', colour: [0x12, 0x34, 0x56] },
  '/terrain.json': { type: 'Terrain', name: 'Test terrain', colour: [0x65, 0x43, 0x21] },
};
const hex = (c: number[]) => `#${c.map((x) => x.toString(16).padStart(2, '0')).join('')}`;

describe('map types (issue 34)', () => {
  let styleServer: Server;
  let s: TestServer;
  const requested: string[] = [];

  beforeAll(async () => {
    styleServer = createServer((req, res) => {
      const style = STYLES[req.url ?? ''];
      requested.push(req.url ?? '');
      if (!style) return void res.writeHead(404).end();
      res.writeHead(200, { 'Content-Type': 'application/json', 'Access-Control-Allow-Origin': '*' });
      res.end(JSON.stringify({ version: 8, name: style.name, sources: {}, layers: [{ id: 'background', type: 'background', paint: { 'background-color': hex(style.colour) } }] }));
    });
    await new Promise<void>((resolve) => styleServer.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(styleServer.address() as AddressInfo).port}`;
    s = await startTestServer(ownServerDriver(), {
      SEED_DEMO: 'true',
      DEMO_MODE: 'true',
      MAP_STYLE_URL_SATELLITE: `${base}/satellite.json`,
      MAP_STYLE_URL_TERRAIN: `${base}/terrain.json`,
    });
  }, 240_000);
  afterAll(async () => {
    await s?.close();
    styleServer?.close();
  });
  const b = useBrowser({ hookTimeout: 240_000 });

  /** How many of a few pixels away from the middle (where sensors cluster) show the colour. */
  async function pixelsOf(page: Page, colour: readonly number[]): Promise<number> {
    const png = (await page.getByTestId('fleet-map').screenshot()).toString('base64');
    return page.evaluate(
      async ({ b64, want }) => {
        const bytes = Uint8Array.from(atob(b64), (ch) => ch.charCodeAt(0));
        const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
        const c = new OffscreenCanvas(bitmap.width, bitmap.height).getContext('2d')!;
        c.drawImage(bitmap, 0, 0);
        const spots = [[0.1, 0.5], [0.9, 0.5], [0.5, 0.9], [0.3, 0.8], [0.7, 0.8]];
        return spots.filter(([fx, fy]) => {
          const px = c.getImageData(Math.floor(bitmap.width * fx), Math.floor(bitmap.height * fy), 1, 1).data;
          return want.every((v, i) => Math.abs(v - px[i]) <= 6);
        }).length;
      },
      { b64: png, want: [...colour] },
    );
  }

  it('the switcher offers the types the deployment has; each loads its own style', async () => {
    const page = await b.signedIn(s.url, 'member@demo.test', { path: '/org/riverbend-water/map', width: 1280, height: 800, timeout: 30_000 });
    const switcher = page.getByRole('radiogroup', { name: 'Map type' });
    await expect.poll(async () => (await switcher.locator('label').allInnerTexts()).map((t) => t.trim())).toEqual(['Roadmap', 'Satellite', 'Terrain']);
    await expect(switcher.getByRole('radio').count()).resolves.toBe(3);
    const map = page.getByTestId('fleet-map');
    await expect.poll(() => map.getAttribute('data-style')).toBe('Tidewatch offline');

    for (const [path, { type, name, colour }] of Object.entries(STYLES)) {
      await switcher.getByText(type, { exact: true }).click();
      await expect.poll(() => map.getAttribute('data-style')).toBe(name);
      expect(requested).toContain(path);
      await expect.poll(() => pixelsOf(page, colour)).toBeGreaterThanOrEqual(3);
    }
    await switcher.getByText('Roadmap', { exact: true }).click();
    await expect.poll(() => map.getAttribute('data-style')).toBe('Tidewatch offline');
    await page.close();
  });
});
