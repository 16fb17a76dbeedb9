// long bursts of a page load, each with its top self-time functions mapped to sources
import { readFileSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { TraceMap, originalPositionFor } from '@jridgewell/trace-mapping';
import { CHROMIUM_LAUNCH, signIn } from './tests/e2e/browser';
const BASE = process.env.BASE ?? 'http://127.0.0.1:4555';
const PATH = process.env.PAGE ?? '/org/riverbend-water/sensors';
const SEL = process.env.SEL ?? '[role=list][aria-label=Sensors] [data-serial]';
const OVER = Number(process.env.OVER ?? 40);
const byFile = new Map<string, number>(); const entryMs: number[] = [];
const RUNS = Number(process.env.RUNS ?? 2);
const maps = new Map<string, TraceMap | null>();
const where = (url: string, line: number, col: number, fn: string) => {
  const f = url.replace(/^.*\/assets\//, '');
  if (!url.includes('/assets/')) return `${fn || '(anon)'} ${url.replace(/^.*\//, '') || ''}`;
  if (!maps.has(f)) { try { maps.set(f, new TraceMap(readFileSync(`dist/assets/${f}.map`, 'utf8'))); } catch { maps.set(f, null); } }
  const m = maps.get(f);
  if (!m) return `${fn} ${f}:${line}`;
  const p = originalPositionFor(m, { line: line + 1, column: col });
  return `${p.name ?? fn ?? '(anon)'} ${String(p.source ?? f).replace(/^.*node_modules\//, '').replace(/^(\.\.\/)+/, '')}:${p.line}`;
};
const browser = await chromium.launch(CHROMIUM_LAUNCH);
const c0 = await browser.newContext(); const p0 = await c0.newPage();
await signIn(p0, BASE, process.env.EMAIL ?? 'owner@demo.test');
const storage = await c0.storageState(); await c0.close();
for (let i = 0; i < RUNS; i++) {
  const ctx = await browser.newContext({ viewport: { width: 1440, height: 1000 }, reducedMotion: 'reduce', storageState: storage });
  const page = await ctx.newPage();
  await page.goto(BASE + '/favicon.svg');
  const cdp = await ctx.newCDPSession(page);
  await cdp.send('Profiler.enable'); await cdp.send('Profiler.setSamplingInterval', { interval: Number(process.env.INTERVAL ?? 1000) }); await cdp.send('Profiler.start');
  await page.goto(BASE + PATH);
  await page.waitForSelector(SEL, { timeout: 60000 });
  await page.waitForTimeout(1500);
  const { profile } = (await cdp.send('Profiler.stop')) as any;
  const nodes = new Map<number, any>(profile.nodes.map((n: any) => [n.id, n]));
  const parent = new Map<number, number>(); for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const idle = (k: number) => nodes.get(profile.samples[k]).callFrame.functionName === '(idle)';
  let t = profile.startTime; const ts: number[] = []; for (const d of profile.timeDeltas) { t += d; ts.push(t); }
  for (let a = 0; a < ts.length; a++) {
    if (idle(a)) continue;
    let b = a; while (b + 1 < ts.length && !idle(b + 1)) b++;
    const ms = (ts[b] - ts[a]) / 1000;
    const hasEntry = (() => { for (let k = a; k <= b; k++) { let id = profile.samples[k]; while (id !== undefined) { const c = nodes.get(id).callFrame; if (c.url.includes('/assets/index-') && c.lineNumber === 0 && c.columnNumber === 0) return true; id = parent.get(id)!; } } return false; })();
    if (hasEntry && process.env.ENTRY) {
      for (let k = a; k <= b; k++) { const d = profile.timeDeltas[k] / 1000; const cf = nodes.get(profile.samples[k]).callFrame; const w = where(cf.url, cf.lineNumber, cf.columnNumber, cf.functionName); const file = w.replace(/^\S* /, '').replace(/:\d+$/, '').replace(/\/[^/]*$/, '/'); byFile.set(file, (byFile.get(file) ?? 0) + d / RUNS); }
      entryMs.push(ms);
    }
    if (ms > OVER && !process.env.ENTRY) {
      const self = new Map<string, number>(); const incl = new Map<string, number>();
      for (let k = a; k <= b; k++) {
        const d = profile.timeDeltas[k] / 1000; let id = profile.samples[k]; const cf = nodes.get(id).callFrame;
        const s = where(cf.url, cf.lineNumber, cf.columnNumber, cf.functionName); self.set(s, (self.get(s) ?? 0) + d);
        const seen = new Set<string>();
        while (id !== undefined) { const c = nodes.get(id).callFrame; if (c.url.includes('/assets/')) { const w = where(c.url, c.lineNumber, c.columnNumber, c.functionName); if (!seen.has(w)) { seen.add(w); incl.set(w, (incl.get(w) ?? 0) + d); } } id = parent.get(id)!; }
      }
      console.log(`run ${i} burst at ${((ts[a] - profile.startTime) / 1000).toFixed(0)} ms, ${ms.toFixed(0)} ms`);
      console.log('   self: ' + [...self].sort((x, y) => y[1] - x[1]).slice(0, 10).map(([k, v]) => `${k} ${v.toFixed(1)}`).join(' | '));
      console.log('   incl: ' + [...incl].sort((x, y) => y[1] - x[1]).slice(0, 16).map(([k, v]) => `${k} ${v.toFixed(1)}`).join(' | '));
    }
    a = b;
  }
  await ctx.close();
}
console.log('entry bursts', entryMs.map((x) => x.toFixed(0)).join(', '));
for (const [k, v] of [...byFile].sort((x, y) => y[1] - x[1]).slice(0, 40)) console.log(v.toFixed(1).padStart(7), k);
await browser.close();
