// Benchmark 3's interleaved case in plain JavaScript, for instruction counts (bench/README.md):
//   valgrind --tool=callgrind node --no-liftoff --single-threaded bench/merge-rounds.mjs <merge|copy|none> <k> [core.wasm]
// runs 5 warm-up rounds of each side, then k timed rounds of one side (merge: the 50 staged chunks
// into a fresh store; copy: memory.copy of their bytes; none: staging only). Instructions a round =
// (total with k rounds - total with mode none) / k. SHOW=1 prints the minimum and median ms of the
// k rounds (the merge only, staging untimed), ALL=1 every round. The merged store is checked first.
import { readFileSync } from 'node:fs';
import { instantiate, makeSeries } from './harness-kit.mjs';
const [mode, kArg, wasmPath = new URL('../wasm-core/build/core.wasm', import.meta.url).pathname] = process.argv.slice(2);
const K = Number(kArg);
const x = await instantiate(readFileSync(wasmPath));
const N = 525_600, DAY = 1440;
const { time, value } = makeSeries(N);
const chunks = [];
for (const [parity, offset] of [[0, 0], [1, 7.5 * DAY]]) {
  for (let a = -offset; a < N; a += 15 * DAY) {
    const idx = [];
    for (let i = Math.max(0, a); i < Math.min(N, a + 15 * DAY); i++) if (i % 2 === parity) idx.push(i);
    if (idx.length) chunks.push({ time: Float64Array.from(idx, (i) => time[i]), value: Float32Array.from(idx, (i) => value[i]) });
  }
}
let s = 7;
for (let i = chunks.length - 1; i > 0; i--) { s = (Math.imul(s, 1103515245) + 12345) | 0; const j = (s >>> 8) % (i + 1); [chunks[i], chunks[j]] = [chunks[j], chunks[i]]; }
const bytes = chunks.reduce((n, c) => n + c.time.length * 12, 0);
const dst = x.alloc(bytes);
const stage = () => chunks.map((c) => { const n = c.time.length; const t = x.alloc(n * 8); const v = x.alloc(n * 4); new Float64Array(x.memory.buffer, t, n).set(c.time); new Float32Array(x.memory.buffer, v, n).set(c.value); return [t, v, n]; });
let tm = 0;
const round = (m) => {
  const staged = stage();
  const t0 = performance.now();
  if (m === 'merge') {
    const st = x.storeNew();
    for (const [t, v, n] of staged) x.storeMerge(st, t, v, n);
    if (x.storeLength(st) !== N) throw new Error('bad merge length');
    tm = performance.now() - t0;
    x.storeFree(st);
  } else {
    if (m === 'copy') { let o = dst; for (const [t, v, n] of staged) { x.copyBytes(o, t, n * 8); x.copyBytes(o + n * 8, v, n * 4); o += n * 12; } }
    tm = performance.now() - t0;
    for (const [t, v] of staged) { x.free(t); x.free(v); }
  }
};
// check the merged contents once
{ const staged = stage(); const st = x.storeNew(); for (const [t, v, n] of staged) x.storeMerge(st, t, v, n);
  const ot = x.alloc(N * 8), ov = x.alloc(N * 4); x.storeRead(st, 0, N, ot, ov);
  const gt = new Float64Array(x.memory.buffer, ot, N), gv = new Float32Array(x.memory.buffer, ov, N);
  for (let i = 0; i < N; i++) if (gt[i] !== time[i] || gv[i] !== value[i]) throw new Error('merged contents differ at ' + i);
  x.free(ot); x.free(ov); x.storeFree(st); }
for (let i = 0; i < 5; i++) { round('merge'); round('copy'); }
const times = [];
for (let i = 0; i < K; i++) { round(mode); times.push(tm); }
if (process.env.ALL) console.log(times.map((t) => t.toFixed(2)).join(" "));
if (process.env.SHOW) { times.sort((a, b) => a - b); console.log(mode, 'min', times[0]?.toFixed(3), 'median', times[times.length >> 1]?.toFixed(3)); }
