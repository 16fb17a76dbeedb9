// Benchmark 1 in plain JavaScript, for instruction counts (bench/README.md):
//   valgrind --tool=callgrind node --no-liftoff --single-threaded bench/m4-rounds.mjs <m4|floor|none> <k> [n] [core.wasm]
// builds bench-kit's series of n points (525,600 by default) in core memory, checks M4's output
// against refM4's algorithm written out here (first, min, max, last per column, time order), runs
// 60 warm-up calls of each side, then k calls of one side. Instructions a call =
// (total with k calls - total with mode none) / k. SHOW=1 prints the minimum and median ms of the k calls.
import { readFileSync } from 'node:fs';
import { instantiate, stageM4 } from './harness-kit.mjs';
const [mode, kArg, nArg = '525600', wasmPath = new URL('../wasm-core/build/core.wasm', import.meta.url).pathname] = process.argv.slice(2);
const K = Number(kArg);
const N = Number(nArg);
const W = 1000;
const x = await instantiate(readFileSync(wasmPath));
const { time, value, ot, ov, t0, t1, m4, floor } = stageM4(x, N, W);
// check: per column (uPlot's rounding) first, first minimum, first maximum, last, in time order, no repeats
{
  const k = m4();
  const gt = new Float64Array(x.memory.buffer, ot, k), gv = new Float64Array(x.memory.buffer, ov, k);
  const s0 = t0 / 1000, span = t1 / 1000 - s0;
  const want = [];
  let i = 0;
  while (i < N) {
    const c = Math.floor(W * ((time[i] / 1000 - s0) / span) + 0.5);
    let e = i, mn = i, mx = i;
    while (e < N && Math.floor(W * ((time[e] / 1000 - s0) / span) + 0.5) === c) { if (value[e] < value[mn]) mn = e; if (value[e] > value[mx]) mx = e; e++; }
    const idx = [i, Math.min(mn, mx), Math.max(mn, mx), e - 1];
    for (let j = 0; j < 4; j++) if (j === 0 || idx[j] !== idx[j - 1]) want.push(idx[j]);
    i = e;
  }
  if (want.length !== k) throw new Error(`M4 gives ${k} points, expected ${want.length}`);
  want.forEach((j, q) => { if (gt[q] !== time[j] || gv[q] !== value[j]) throw new Error('M4 differs at output ' + q); });
}
for (let i = 0; i < 60; i++) { m4(); floor(); }
const times = [];
const fn = mode === 'm4' ? m4 : mode === 'floor' ? floor : null;
if (fn) for (let i = 0; i < K; i++) { const a = performance.now(); fn(); times.push(performance.now() - a); }
if (process.env.SHOW) { times.sort((a, b) => a - b); console.log(mode, 'min', times[0]?.toFixed(4), 'median', times[times.length >> 1]?.toFixed(4)); }
