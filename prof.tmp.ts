import { chromium } from 'playwright-core';
import { CHROMIUM_LAUNCH, signIn } from './tests/e2e/browser';
const BASE = process.env.BASE ?? 'http://127.0.0.1:4555';
const PATH = process.env.PAGE ?? '/org/riverbend-water/sensors';
const SEL = process.env.SEL ?? '[role=list][aria-label=Sensors] [data-serial]';
const browser = await chromium.launch(CHROMIUM_LAUNCH);
const c0 = await browser.newContext();
const p0 = await c0.newPage();
await signIn(p0, BASE, 'owner@demo.test');
const storage = await c0.storageState();
await c0.close();
const agg = new Map<string, number>(); const evalUrls = new Map<string, number>(); const byUrl = new Map<string, number>();
const RUNS = Number(process.env.RUNS ?? 3);
for (let i = 0; i < RUNS; i++) {
  const ctx = await browser.newContext({ viewport: { width: 1440, height: 1000 }, storageState: storage });
  const page = await ctx.newPage();
  await page.goto(BASE + '/favicon.svg');
  const cdp = await ctx.newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
  await page.goto(BASE + PATH);
  await page.waitForSelector(SEL, { timeout: 60000 });
  await page.waitForTimeout(1000);
  const { profile } = await cdp.send('Profiler.stop') as any;
  const nodes = new Map<number, any>(profile.nodes.map((n: any) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  // the samples whose stack has a module's top level (anon at 0:0): the entry's evaluation; by the outermost such module and by the innermost url
  let t = profile.startTime; let first = -1, last = -1;
  for (let k = 0; k < profile.samples.length; k++) {
    t += profile.timeDeltas[k];
    let id = profile.samples[k]; let outer: string | undefined;
    const selfUrl = nodes.get(id).callFrame.url.replace(/^.*\//, '') || nodes.get(id).callFrame.functionName;
    while (id !== undefined) { const cf = nodes.get(id).callFrame; if (cf.lineNumber === 0 && cf.columnNumber === 0 && cf.url) outer = cf.url.replace(/^.*\//, ''); id = parent.get(id)!; }
    if (outer && evalUrls) { if (first < 0) first = t; last = t; const d = profile.timeDeltas[k] / 1000 / RUNS; evalUrls.set('outer ' + outer, (evalUrls.get('outer ' + outer) ?? 0) + d); evalUrls.set('self ' + selfUrl, (evalUrls.get('self ' + selfUrl) ?? 0) + d); }
  }
  { // the first busy burst containing a module's top level: the entry's evaluation task
    let t2 = profile.startTime; const ts: number[] = []; for (const d of profile.timeDeltas) { t2 += d; ts.push(t2); }
    const isIdle = (k: number) => nodes.get(profile.samples[k]).callFrame.functionName === '(idle)';
    let k0 = ts.findIndex((x) => x >= first); let a = k0, b = k0;
    while (a > 0 && !isIdle(a - 1)) a--; while (b < ts.length - 1 && !isIdle(b + 1)) b++;
    const burst = new Map<string, number>();
    for (let k = a; k <= b; k++) { let id = profile.samples[k]; const cf = nodes.get(id).callFrame; let key = (cf.url.replace(/^.*\//, '') || cf.functionName); 
      // attribute to the innermost app/library source via the top-level module chain
      let outer = ''; while (id !== undefined) { const c = nodes.get(id).callFrame; if (c.lineNumber === 0 && c.columnNumber === 0 && c.url) outer = c.url.replace(/^.*\//, ''); id = parent.get(id)!; }
      burst.set(key + ' < ' + outer, (burst.get(key + ' < ' + outer) ?? 0) + profile.timeDeltas[k] / 1000); }
    console.log(`run ${i}: entry burst ${((ts[b] - ts[a]) / 1000).toFixed(0)} ms: ` + [...burst].sort((x, y) => y[1] - x[1]).slice(0, 14).map(([k, v]) => `${k} ${v.toFixed(1)}`).join('; '));
  }
  console.log(`run ${i}: top-level samples from ${((first - profile.startTime) / 1000).toFixed(0)} to ${((last - profile.startTime) / 1000).toFixed(0)} ms`);
  const self = new Map<number, number>();
  for (let k = 0; k < profile.samples.length; k++) self.set(profile.samples[k], (self.get(profile.samples[k]) ?? 0) + profile.timeDeltas[k] / 1000);
  for (const [id, ms] of self) {
    const n = nodes.get(id); const cf = n.callFrame;
    const u = cf.url.replace(/^.*\//, '') || '(native)';
    const key = `${cf.functionName || '(anon)'} ${u}:${cf.lineNumber}:${cf.columnNumber}`;
    agg.set(key, (agg.get(key) ?? 0) + ms / RUNS);
    byUrl.set(u, (byUrl.get(u) ?? 0) + ms / RUNS);
  }
  await ctx.close();
}
console.log('TOP-LEVEL'); for (const [k, v] of [...evalUrls].sort((a, b) => b[1] - a[1]).slice(0, 40)) console.log(v.toFixed(1).padStart(8), k);
console.log('BY URL');
for (const [k, v] of [...byUrl].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(v.toFixed(1).padStart(8), k);
console.log('BY FUNCTION');
for (const [k, v] of [...agg].sort((a, b) => b[1] - a[1]).slice(0, 50)) console.log(v.toFixed(1).padStart(8), k);
await browser.close();
