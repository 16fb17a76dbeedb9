import { describe, expect, inject, it } from 'vitest';
import { signIn } from './browser';
import { useBrowser } from './session';

const SHOTS = 'test-results/e2e';
const PRIORITY: Record<string, number> = {
  'Water level alarm': 0,
  'Threshold alarm': 0,
  'Movement detected': 1,
  'Sensor error': 2,
  'Low battery': 3,
  'Sensor offline': 4,
  'Rapid change': 5,
};

describe('notifications page in the browser (issue 4: monitoring-client 2.8, 4)', () => {
  const baseUrl = inject('baseUrl');
  const b = useBrowser({ shots: SHOTS });

  it('orders the demo notifications by type priority, badges them and links VIEW to the sensor with start and end in ms', async () => {
    const page = await b.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await signIn(page, baseUrl, 'owner@demo.test');
    await page.goto(`${baseUrl}/org/riverbend-water/notifications`);
    const cards = page.getByRole('article');
    await cards.first().waitFor();
    await page.screenshot({ path: `${SHOTS}/notifications-owner-1280.png`, fullPage: true });

    const read = await cards.evaluateAll((els) => els.map((e) => ({ title: e.getAttribute('aria-label')!, badge: e.getAttribute('data-badge')!, style: e.getAttribute('data-style')! })));
    expect(read.length).toBeGreaterThan(3);
    const priorities = read.map((c) => PRIORITY[c.title]);
    expect(priorities.every((p, i) => i === 0 || priorities[i - 1] <= p)).toBe(true);
    // CLEARED cards are styled as history; ACTIVE and INFO ones by type
    for (const c of read) {
      if (c.badge === 'CLEARED') expect(c.style).toBe('history');
      else expect(c.style).not.toBe('history');
    }
    const badges = new Set(read.map((c) => c.badge));
    expect(badges.has('ACTIVE') && badges.has('CLEARED')).toBe(true);
    // the open threshold notification of Harbour Tide Gauge is ACTIVE with the alarm style, and comes first
    expect(read[0]).toEqual({ title: 'Threshold alarm', badge: 'ACTIVE', style: 'alarm' });
    for (const c of read.filter((x) => x.badge === 'INFO')) expect(['info', 'alarm', 'warning']).toContain(c.style);

    const view = cards.filter({ hasText: 'Harbour Tide Gauge' }).first().getByRole('link', { name: 'VIEW' });
    const href = (await view.getAttribute('href'))!;
    const m = /\/org\/riverbend-water\/sensors\/708192A3\?start=(\d+)&end=(\d+)$/.exec(href);
    expect(m).not.toBeNull();
    expect(Number(m![2]) - Number(m![1])).toBeGreaterThan(60 * 60_000);
    await view.click();
    await page.waitForURL(/\/sensors\/708192A3\?start=\d+&end=\d+/);
    await page.getByRole('heading', { name: 'Harbour Tide Gauge' }).waitFor();
    await page.close();
  });

  it('shows the empty page when an organisation has no notifications (the demo council has none)', async () => {
    const page = await b.browser.newPage({ viewport: { width: 390, height: 844 } });
    await signIn(page, baseUrl, 'owner@demo.test');
    await page.goto(`${baseUrl}/org/harbour-city-council/notifications`);
    await page.getByRole('heading', { name: 'No notifications' }).waitFor();
    expect(await page.getByRole('article').count()).toBe(0);
    await page.screenshot({ path: `${SHOTS}/notifications-council-390.png`, fullPage: true });
    await page.close();
  });
});
