// Lines up the traces of one ingest run (BENCH_INGEST_TRACE, bench/ingest-trace.ts): for each
// uplink of the generator's measured window, where its ack latency went (sent late by the
// generator, on its way to the server's batcher, waiting for and in its batch, from the commit
// back to the generator), and for each spike (uplinks over the threshold, grouped), what each
// process was doing meanwhile.
//   node --import tsx bench/ingest-trace-report.ts <generator.json> <server.json> [threshold ms]
import { readFileSync } from 'node:fs';

type Gen = { gc: [number, number, number][]; lag: [number, number][]; uplinks: [string, number, number, number][]; t0: number; warmupSeconds: number; seconds: number };
type Srv = { gc: [number, number, number][]; lag: [number, number][]; batches: [number, number, number][]; uplinks: [string, number, number][]; others?: [number, number, string][] };
const [genFile, srvFile, thr] = process.argv.slice(2);
const gen = JSON.parse(readFileSync(genFile, 'utf8')) as Gen;
const srv = JSON.parse(readFileSync(srvFile, 'utf8')) as Srv;
const threshold = Number(thr ?? 80);
const from = gen.t0 + gen.warmupSeconds * 1000;
const to = from + gen.seconds * 1000;
const bySrv = new Map(srv.uplinks.map((u) => [u[0], u]));
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
};
const f = (x: number) => x.toFixed(1);
type Row = { due: number; total: number; late: number; toSrv: number; inBatcher: number; back: number; submit: number; commit: number; ack: number };
const rows: Row[] = [];
for (const [key, due, sent, ack] of gen.uplinks) {
  if (due < from || due >= to || !ack) continue;
  const s = bySrv.get(key);
  if (!s) continue; // a sensor's time is unique, so this is a refused or errors-only uplink without a time
  rows.push({ due, total: ack - due, late: sent - due, toSrv: s[1] - sent, inBatcher: s[2] - s[1], back: ack - s[2], submit: s[1], commit: s[2], ack });
}
const parts = ['total', 'late', 'toSrv', 'inBatcher', 'back'] as const;
console.log(`${rows.length} uplinks in the window; parts: late = sent - due (generator), toSrv = batcher submit - sent, inBatcher = commit - submit, back = ack at the generator - commit`);
for (const p of [50, 90, 99, 99.9]) console.log(`p${p}: ${parts.map((k) => `${k} ${f(pct(rows.map((r) => r[k]), p))}`).join(', ')}`);
const slow = rows.filter((r) => r.total >= threshold).sort((a, b) => a.due - b.due);
console.log(`${slow.length} uplinks at or over ${threshold} ms`);
const within = <T extends [number, number, ...unknown[]]>(xs: T[], a: number, b: number) => xs.filter((x) => x[0] + x[1] >= a && x[0] <= b);
const windowOf = (start: number, end: number) => {
  const sGc = within(srv.gc, start, end);
  const gGc = within(gen.gc, start, end);
  const sLag = srv.lag.filter((l) => l[0] >= start && l[0] - l[1] <= end);
  const gLag = gen.lag.filter((l) => l[0] >= start && l[0] - l[1] <= end);
  const bt = srv.batches.filter((b) => b[1] >= start && b[0] <= end);
  return `server GC ${sGc.map((g) => `${f(g[1])}(k${g[2]})@${f(g[0] - start)}`).join(' ') || '-'}; server late loop ${sLag.map((l) => `${f(l[1])}@${f(l[0] - start)}`).join(' ') || '-'}; generator GC ${gGc.map((g) => `${f(g[1])}@${f(g[0] - start)}`).join(' ') || '-'}; generator late loop ${gLag.map((l) => `${f(l[1])}@${f(l[0] - start)}`).join(' ') || '-'}; batches ${bt.map((b) => `${b[2]}:${f(b[1] - b[0])}ms@${f(b[0] - start)}`).join(' ')}`;
};
// spikes: slow uplinks whose due times are within 300 ms of each other
let group: Row[] = [];
const flushGroup = () => {
  if (!group.length) return;
  const worst = group.reduce((a, b) => (b.total > a.total ? b : a));
  console.log(`\nspike at +${f(worst.due - gen.t0)} ms: ${group.length} uplinks over ${threshold} ms, worst ${f(worst.total)} ms = late ${f(worst.late)} + toSrv ${f(worst.toSrv)} + inBatcher ${f(worst.inBatcher)} + back ${f(worst.back)}`);
  const m = (k: (typeof parts)[number]) => f(pct(group.map((r) => r[k]), 50));
  console.log(`  median of the group: total ${m('total')}, late ${m('late')}, toSrv ${m('toSrv')}, inBatcher ${m('inBatcher')}, back ${m('back')}`);
  console.log(`  from its due time (offsets in ms): ${windowOf(worst.due, worst.ack)}`);
  group = [];
};
for (const r of slow) {
  if (group.length && r.due - group[group.length - 1].due > 300) flushGroup();
  group.push(r);
}
flushGroup();
const inWin = <T extends [number, number, ...unknown[]]>(xs: T[]) => xs.filter((x) => x[0] >= from && x[0] < to);
const sum = (xs: [number, number, ...unknown[]][]) => xs.reduce((a, x) => a + x[1], 0);
console.log(`\nin the window: server GC ${inWin(srv.gc).length} pauses ${f(sum(inWin(srv.gc)))} ms (largest ${f(Math.max(0, ...inWin(srv.gc).map((g) => g[1])))}), late loop turns ${inWin(srv.lag).length} (largest ${f(Math.max(0, ...inWin(srv.lag).map((g) => g[1])))}); generator GC ${inWin(gen.gc).length} pauses ${f(sum(inWin(gen.gc)))} ms (largest ${f(Math.max(0, ...inWin(gen.gc).map((g) => g[1])))}), late loop turns ${inWin(gen.lag).length} (largest ${f(Math.max(0, ...inWin(gen.lag).map((g) => g[1])))})`);
const bw = srv.batches.filter((b) => b[0] >= from && b[0] < to);
console.log(`batches ${bw.length}, mean ${f(bw.reduce((a, b) => a + b[2], 0) / bw.length)} uplinks, duration p50 ${f(pct(bw.map((b) => b[1] - b[0]), 50))} p99 ${f(pct(bw.map((b) => b[1] - b[0]), 99))} max ${f(Math.max(...bw.map((b) => b[1] - b[0])))} ms`);
// BENCH_TRACE_SLOTS=1: every 100 ms of due time, what happened in it
if (process.env.BENCH_TRACE_SLOTS === '1') {
  console.log('\nslot(ms) due worst p50 | inBatcher p50 toSrv p50 | batches started: n uplinks longest | server GC ms, late ms | generator GC ms, late ms | other statements started');
  for (let a = from; a < to; a += 100) {
    const b = a + 100;
    const rs = rows.filter((r) => r.due >= a && r.due < b);
    const bt = srv.batches.filter((x) => x[0] >= a && x[0] < b);
    const g = (xs: [number, number, ...unknown[]][]) => f(xs.filter((x) => x[0] >= a && x[0] < b).reduce((s, x) => s + x[1], 0));
    console.log(`${f(a - gen.t0)} ${rs.length} ${f(Math.max(...rs.map((r) => r.total)))} ${f(pct(rs.map((r) => r.total), 50))} | ${f(pct(rs.map((r) => r.inBatcher), 50))} ${f(pct(rs.map((r) => r.toSrv), 50))} | ${bt.length} ${bt.reduce((s, x) => s + x[2], 0)} ${f(Math.max(0, ...bt.map((x) => x[1] - x[0])))} | ${g(srv.gc)} ${g(srv.lag)} | ${g(gen.gc)} ${g(gen.lag)} | ${(srv.others ?? []).filter((x) => x[0] >= a && x[0] < b).length}`);
  }
}
