import { chromium } from 'playwright-core';
import { CHROMIUM_LAUNCH } from './tests/e2e/browser';
const URL = process.env.URL ?? 'http://127.0.0.1:4561/evalprobe.html';
const browser = await chromium.launch(CHROMIUM_LAUNCH);
const acc = new Map<string, number[]>();
for (let i = 0; i < Number(process.env.RUNS ?? 6); i++) {
  const ctx = await browser.newContext();
  const page = await ctx.newPage();
  await page.goto(URL);
  await page.waitForFunction(() => (window as any).evalTimes, null, { timeout: 30000 });
  const t = await page.evaluate(() => (window as any).evalTimes as [string, number][]);
  for (const [k, v] of t) acc.set(k, [...(acc.get(k) ?? []), v]);
  await ctx.close();
}
const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
for (const [k, v] of acc) console.log(String(med(v)).padStart(7), k, v.join(' '));
await browser.close();
