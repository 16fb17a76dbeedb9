// Benchmark 1, the work M4 cannot avoid (bench/README.md): the kernels of
// wasm-core/assembly/bench-kernels.ts, compiled and checked by m4-kernels-kit.ts (the same build
// and checks as the benchmark's row), timed against the floor (streamFloor) and M4 on bench-kit's
// series of n points (525,600 by default), W = 1000 pixel columns, interleaved, R rounds (300):
// minimum and median of each, and ratios to the floor's. Besides the exact kernels
// (EXACT_KERNELS: every column's first minimum and maximum index), three that do less:
//   mmTree      the minimum and maximum of all values, no columns
//   colsMinMax  each column's minimum and maximum, no indices (checked against a plain loop)
//   colsTrack   colsIndex's block scan without its first-index searches
// Usage:
//   node bench/m4-kernels.mjs [n] [rounds]
//   MODE=<kernel> K=<calls> valgrind --tool=callgrind node --no-liftoff --single-threaded bench/m4-kernels.mjs
//     (60 warm-up calls of every kernel, then K calls of one: instructions a call from two counts)
import { stageM4 } from './harness-kit.mjs';
import { columnEnds, EXACT_KERNELS, loadKernels, stageKernels } from './m4-kernels-kit.ts';

const N = Number(process.argv[2] ?? 525_600);
const R = Number(process.argv[3] ?? 300);
const W = 1000;
const x = await loadKernels();
// M4 and the floor on the series in the kernels' memory; the kernels on their own copy of the values
const { time, value, vp: mvp, m4, floor } = stageM4(x, N, W);
const endList = columnEnds(time, W);
const { calls, vp, ends, ncols: nc, out } = stageKernels(x, value, endList);
const fns = {
  floor,
  mmTree: () => x.mmTree(mvp, N),
  colsMinMax: () => x.colsMinMax(vp, ends, nc, out),
  colsTrack: () => x.colsTrack(vp, ends, nc, out),
  ...calls,
  m4,
};

// colsMinMax's extremes (bit patterns) against a plain loop; the exact kernels were checked when staged
{
  const bits = new Int32Array(value.buffer);
  fns.colsMinMax();
  const got = new Int32Array(x.memory.buffer, out, nc * 2);
  let a = 0;
  endList.forEach((e, c) => {
    let mi = a, xi = a;
    for (let j = a; j < e; j++) { if (value[j] < value[mi]) mi = j; if (value[j] > value[xi]) xi = j; }
    if (got[2 * c] !== bits[mi] || got[2 * c + 1] !== bits[xi]) throw new Error('colsMinMax differs at column ' + c);
    a = e;
  });
}

for (let i = 0; i < 60; i++) for (const f of Object.values(fns)) f();
if (process.env.MODE) {
  const f = fns[process.env.MODE];
  const K = Number(process.env.K ?? 200);
  for (let i = 0; i < K; i++) f();
} else {
  const ts = Object.fromEntries(Object.keys(fns).map((k) => [k, []]));
  for (let i = 0; i < R; i++) for (const [k, f] of Object.entries(fns)) { const a = performance.now(); f(); ts[k].push(performance.now() - a); }
  for (const t of Object.values(ts)) t.sort((a, b) => a - b);
  const at = (t, q) => t[Math.min(t.length - 1, Math.floor(q * t.length))] * 1000;
  const f0 = at(ts.floor, 0), f5 = at(ts.floor, 0.5);
  console.log(`${N.toLocaleString('en-GB')} points, ${nc} columns, ${R} interleaved rounds; exact kernels: ${EXACT_KERNELS.join(', ')}`);
  for (const [k, t] of Object.entries(ts))
    console.log(`${k.padEnd(12)} min ${at(t, 0).toFixed(1).padStart(7)} µs (${(at(t, 0) / f0).toFixed(2)}x)   median ${at(t, 0.5).toFixed(1).padStart(7)} µs (${(at(t, 0.5) / f5).toFixed(2)}x)`);
}
