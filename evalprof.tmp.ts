import { readFileSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { TraceMap, originalPositionFor } from '@jridgewell/trace-mapping';
import { CHROMIUM_LAUNCH } from './tests/e2e/browser';
const DIST = process.env.DIST ?? '/tmp/dist-old';
const maps = new Map<string, TraceMap | null>();
const where = (url: string, line: number, col: number, fn: string) => {
  const f = url.replace(/^.*\/assets\//, '');
  if (!url.includes('/assets/')) return `${fn || '(anon)'} ${url.replace(/^.*\//, '')}`;
  if (!maps.has(f)) { try { maps.set(f, new TraceMap(readFileSync(`${DIST}/assets/${f}.map`, 'utf8'))); } catch { maps.set(f, null); } }
  const m = maps.get(f); if (!m || line < 0) return `${fn} ${f}`;
  const p = originalPositionFor(m, { line: line + 1, column: col });
  return `${p.name ?? fn ?? '(anon)'} ${String(p.source ?? f).replace(/^.*node_modules\//, '').replace(/^(\.\.\/)+/, '')}:${p.line}`;
};
const browser = await chromium.launch(CHROMIUM_LAUNCH);
const selfBy = new Map<string, Map<string, number>>(); const fileBy = new Map<string, Map<string, number>>(); const inclBy = new Map<string, Map<string, number>>();
const RUNS = Number(process.env.RUNS ?? 4);
for (let i = 0; i < RUNS; i++) {
  const ctx = await browser.newContext(); const page = await ctx.newPage();
  const cdp = await ctx.newCDPSession(page);
  await cdp.send('Profiler.enable'); await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
  const profiles: any[] = [];
  cdp.on('Profiler.consoleProfileFinished', (e: any) => profiles.push(e));
  await page.goto('http://127.0.0.1:4561/evalprobe.html');
  await page.waitForFunction(() => (window as any).evalTimes, null, { timeout: 30000 });
  await page.waitForTimeout(200);
  for (const { title, profile } of profiles) {
    const key = title.replace(/^.*\//, '').replace(/-.*/, '');
    const nodes = new Map<number, any>(profile.nodes.map((n: any) => [n.id, n]));
    const parent = new Map<number, number>(); for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
    const self = selfBy.get(key) ?? new Map(); selfBy.set(key, self); const file = fileBy.get(key) ?? new Map(); fileBy.set(key, file); const incl = inclBy.get(key) ?? new Map(); inclBy.set(key, incl);
    for (let k = 0; k < profile.samples.length; k++) {
      const d = profile.timeDeltas[k] / 1000 / RUNS; let id = profile.samples[k]; const cf = nodes.get(id).callFrame;
      if (cf.functionName === '(idle)') continue;
      const w = where(cf.url, cf.lineNumber, cf.columnNumber, cf.functionName);
      self.set(w, (self.get(w) ?? 0) + d);
      // the innermost of our/library source files on the stack (module-level attribution)
      const seen = new Set<string>();
      let fileKey = '';
      while (id !== undefined) { const c = nodes.get(id).callFrame; if (c.url.includes('/assets/')) { const ww = where(c.url, c.lineNumber, c.columnNumber, c.functionName); if (!fileKey) fileKey = ww.replace(/^\S* /, '').replace(/:\d+$/, ''); if (!seen.has(ww)) { seen.add(ww); incl.set(ww, (incl.get(ww) ?? 0) + d); } } id = parent.get(id)!; }
      file.set(fileKey || w, (file.get(fileKey || w) ?? 0) + d);
    }
  }
  await ctx.close();
}
for (const [k, self] of selfBy) {
  console.log(`== ${k}: total ${[...self.values()].reduce((a, b) => a + b, 0).toFixed(1)} ms`);
  console.log('  by innermost file: ' + [...fileBy.get(k)!].sort((a, b) => b[1] - a[1]).slice(0, 14).map(([x, v]) => `${x} ${v.toFixed(1)}`).join(' | '));
  console.log('  inclusive: ' + [...inclBy.get(k)!].sort((a, b) => b[1] - a[1]).slice(0, 25).map(([x, v]) => `${x} ${v.toFixed(1)}`).join(' | '));
}
await browser.close();
