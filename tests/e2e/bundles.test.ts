import { describe, expect, inject, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { useBrowser } from './session';

const DIST = resolve('dist');
/** The libraries a page may load only when it needs them (issue 34), by their path in node_modules. */
const HEAVY = {
  map: /node_modules\/(?:maplibre-gl|@deck\.gl|@luma\.gl)\//,
  mqtt: /node_modules\/mqtt\//,
  'password list': /node_modules\/@zxcvbn-ts\/language-common\//,
} as const;
type Heavy = keyof typeof HEAVY;

/**
 * Which of the heavy libraries the scripts a page fetched carry, read from the build's own source
 * maps (dist/assets/*.js.map list each chunk's modules), not guessed from file names.
 */
function heavyIn(scripts: string[]): Set<Heavy> {
  const found = new Set<Heavy>();
  for (const url of scripts) {
    const file = join(DIST, new URL(url).pathname);
    if (!existsSync(`${file}.map`)) continue;
    const { sources } = JSON.parse(readFileSync(`${file}.map`, 'utf8')) as { sources: string[] };
    for (const [name, re] of Object.entries(HEAVY) as [Heavy, RegExp][]) if (sources.some((s) => re.test(s))) found.add(name);
  }
  return found;
}

/** Records every script the page fetches (workers' too) from now on. */
function recordScripts(page: Page): string[] {
  const urls: string[] = [];
  page.on('response', (res) => {
    if (/\.m?js(?:\?|$)/.test(new URL(res.url()).pathname)) urls.push(res.url());
  });
  return urls;
}

describe('what each page loads (issue 34: code splitting)', () => {
  const baseUrl = inject('baseUrl');
  const b = useBrowser();

  it('the login page loads no map, no mqtt and no password list; the sign-up wizard loads the list', async () => {
    const page = await b.browser.newPage();
    try {
      const scripts = recordScripts(page);
      await page.goto(`${baseUrl}/login`);
      await page.getByRole('heading', { name: 'Log in to Tidewatch' }).waitFor({ timeout: 30_000 });
      await page.waitForLoadState('networkidle');
      expect(scripts.length).toBeGreaterThan(0);
      expect([...heavyIn(scripts)]).toEqual([]);
      // the check sees the list where it is: the wizard's password step needs it
      const more = recordScripts(page);
      await page.goto(`${baseUrl}/signup`);
      await page.waitForLoadState('networkidle');
      expect([...heavyIn(more)]).toContain('password list');
      expect([...heavyIn(more)]).not.toContain('map');
    } finally {
      await page.close();
    }
  });

  it('a sensor dashboard loads the map for its mini-map; the settings page loads none of the three', async () => {
    const page = await b.signedIn(baseUrl, 'owner@demo.test');
    try {
      const settings = recordScripts(page);
      await page.goto(`${baseUrl}/settings/account`);
      await page.waitForLoadState('networkidle');
      expect([...heavyIn(settings)].filter((h) => h !== 'mqtt')).toEqual([]);
      const dashboard = recordScripts(page);
      await page.goto(`${baseUrl}/org/riverbend-water/sensors/1A2B3C4D`);
      await page.getByTestId('sensor-map').waitFor({ timeout: 60_000 });
      expect([...heavyIn(dashboard)]).toContain('map');
    } finally {
      await page.close();
    }
  });
});
