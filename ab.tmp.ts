import { chromium } from 'playwright-core';
import { CHROMIUM_LAUNCH, signIn } from './tests/e2e/browser';
const SIDES = (process.env.SIDES ?? 'http://127.0.0.1:4561,http://127.0.0.1:4562').split(',');
const PATH = process.env.PAGE ?? '/org/riverbend-water/sensors';
const SEL = process.env.SEL ?? '[role=list][aria-label=Sensors] [data-serial]';
const RUNS = Number(process.env.RUNS ?? 8);
const PROBE = `(() => { const w = window; w.lt = [];
 new PerformanceObserver((l) => l.getEntries().forEach((e) => w.lt.push([Math.round(e.startTime), Math.round(e.duration)]))).observe({ type: 'longtask' });
 w.firstSeen = undefined; const f = (t) => { if (document.querySelector(${JSON.stringify(SEL)})) w.firstSeen = t; else requestAnimationFrame(f); }; requestAnimationFrame(f); })()`;
const browser = await chromium.launch(CHROMIUM_LAUNCH);
const storage: any[] = [];
for (const s of SIDES) { const c = await browser.newContext(); const p = await c.newPage(); await signIn(p, s, 'owner@demo.test'); storage.push(await c.storageState()); await c.close(); }
const res: { max: number[]; tbt: number[]; n: number[]; drawn: number[] }[] = SIDES.map(() => ({ max: [], tbt: [], n: [], drawn: [] }));
for (let i = 0; i < RUNS; i++) for (let s = 0; s < SIDES.length; s++) {
  const side = (i % 2 === 0) ? s : SIDES.length - 1 - s;
  const ctx = await browser.newContext({ viewport: { width: 1440, height: 1000 }, reducedMotion: 'reduce', storageState: storage[side] });
  await ctx.addInitScript({ content: PROBE });
  const page = await ctx.newPage();
  await page.goto(SIDES[side] + PATH);
  await page.waitForFunction(() => (window as any).firstSeen !== undefined, null, { timeout: 60000, polling: 200 });
  await page.waitForTimeout(Number(process.env.AFTER ?? 1500));
  const r = await page.evaluate(() => ({ lt: (window as any).lt as [number, number][], drawn: (window as any).firstSeen as number }));
  const d = r.lt.map((x) => x[1]);
  res[side].max.push(Math.max(0, ...d)); res[side].tbt.push(d.reduce((a, x) => a + Math.max(0, x - 50), 0)); res[side].n.push(d.filter((x) => x > 50).length); res[side].drawn.push(r.drawn);
  console.log(`${SIDES[side]} run ${i}: drawn ${r.drawn.toFixed(0)} long ${JSON.stringify(r.lt)}`);
  await ctx.close();
}
const med = (xs: number[]) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };
for (let s = 0; s < SIDES.length; s++) console.log(`${SIDES[s]}: median max task ${med(res[s].max)}, median blocking ${med(res[s].tbt)}, median count>50 ${med(res[s].n)}, median drawn ${med(res[s].drawn).toFixed(0)}; maxes ${res[s].max.join(',')}`);
await browser.close();
