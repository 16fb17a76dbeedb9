// probe: long tasks of a signed-in page's load, from the longtask observer and a light trace
import { chromium } from 'playwright-core';
import { CHROMIUM_LAUNCH, signIn } from './tests/e2e/browser';
const BASE = process.env.BASE ?? 'http://127.0.0.1:4555';
const PATH = process.env.PAGE ?? '/org/riverbend-water/sensors';
const RUNS = Number(process.env.RUNS ?? 4);
const SEL = process.env.SEL ?? '[role=list][aria-label=Sensors] [data-serial]';
const PROBE = `(() => { const w = window; w.lt = []; w.probeAt = performance.now();
 new PerformanceObserver((l) => l.getEntries().forEach((e) => w.lt.push([Math.round(e.startTime), Math.round(e.duration)]))).observe({ type: 'longtask' }); })()`;
const browser = await chromium.launch(CHROMIUM_LAUNCH);
const c0 = await browser.newContext();
const p0 = await c0.newPage();
await signIn(p0, BASE, process.env.EMAIL ?? 'owner@demo.test');
const storage = await c0.storageState();
await c0.close();
for (let i = 0; i < RUNS; i++) {
  const ctx = await browser.newContext({ viewport: { width: 1440, height: 1000 }, reducedMotion: 'reduce', storageState: storage });
  await ctx.addInitScript({ content: PROBE });
  const page = await ctx.newPage();
  const trace = process.env.TRACE !== '0';
  if (trace) await browser.startTracing(page, { categories: ['devtools.timeline', 'toplevel'] });
  await page.goto(BASE + PATH);
  await page.waitForSelector(SEL, { timeout: 60000 });
  await page.waitForTimeout(1500);
  const r = await page.evaluate(() => ({ lt: (window as any).lt, probeAt: (window as any).probeAt, nav: performance.getEntriesByType('navigation')[0].toJSON() }));
  console.log(`run ${i}: probeAt ${r.probeAt.toFixed(0)} responseEnd ${r.nav.responseEnd.toFixed(0)} domInteractive ${r.nav.domInteractive.toFixed(0)} longtasks ${JSON.stringify(r.lt)}`);
  if (trace) {
    const buf = await browser.stopTracing();
    const ev = JSON.parse(buf.toString()).traceEvents as any[];
    const busy = new Map<string, number>();
    for (const x of ev) if ((x.name === 'RunTask' || x.name === 'ThreadControllerImpl::RunTask') && x.dur) busy.set(`${x.pid}:${x.tid}`, (busy.get(`${x.pid}:${x.tid}`) ?? 0) + x.dur);
    const mains = ev.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain').sort((a, b) => (busy.get(`${b.pid}:${b.tid}`) ?? 0) - (busy.get(`${a.pid}:${a.tid}`) ?? 0));
    const ph = ev.find((e) => e.name === 'ParseHTML' && String(e.args?.beginData?.url ?? '').startsWith(BASE)); const m = ph ? mains.find((x) => x.pid === ph.pid && x.tid === ph.tid) : mains[0]; if (!ph) console.log('   (no ParseHTML of ours)');
    const own = ev.filter((e) => e.pid === m.pid && e.tid === m.tid && e.ph === 'X' && e.dur !== undefined);
    const nav = own.find((e) => e.name === 'RunTask') ;
    const tasks = own.filter((e) => (e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask') && e.dur > (Number(process.env.OVER ?? 35)) * 1000);
    const t0 = ev.find((e) => e.name === 'TracingStartedInBrowser')?.ts ?? own[0].ts;
    for (const t of tasks) {
      const kids = own.filter((e) => e !== t && !/RunTask/.test(e.name) && e.ts >= t.ts && e.ts + e.dur <= t.ts + t.dur && e.dur > 3000).sort((a, b) => b.dur - a.dur).slice(0, 8)
        .map((e) => { const d = e.args?.data ?? {}; const u = d.url ? `@${d.functionName ?? ''}:${String(d.url).replace(/^.*\//, '')}:${d.lineNumber ?? ''}` : d.type ? `(${d.type})` : ''; return `${e.name}${u} ${(e.dur / 1000).toFixed(1)}`; });
      console.log(`   task +${((t.ts - t0) / 1000).toFixed(0)} ${(t.dur / 1000).toFixed(1)} ms: ${kids.join('; ')}`);
    }
  }
  await ctx.close();
}
await browser.close();
