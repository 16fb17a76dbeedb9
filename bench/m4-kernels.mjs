// Benchmark 1, the work M4 cannot avoid (bench/README.md, notes): compiles
// wasm-core/assembly/bench-kernels.ts on its own (never part of core.wasm) and times each kernel
// against the floor (streamFloor) and M4 on bench-kit's series of n points (525,600 by default),
// W = 1000 pixel columns, interleaved, R rounds (300): minimum and median of each, and ratios to
// the floor's. The kernels' results are checked first (column extremes and first indices against
// a plain loop). The index kernels (colsIndex and the other ways to find the first indices) are
// listed in bench-kernels.ts. Usage:
//   node bench/m4-kernels.mjs [n] [rounds]
//   MODE=<kernel> K=<calls> valgrind --tool=callgrind node --no-liftoff --single-threaded bench/m4-kernels.mjs
//     (60 warm-up calls of every kernel, then K calls of one: instructions a call from two counts)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { instantiate, stageM4 } from './harness-kit.mjs';

const root = new URL('..', import.meta.url).pathname;
const N = Number(process.argv[2] ?? 525_600);
const R = Number(process.argv[3] ?? 300);
const W = 1000;
const dir = mkdtempSync(join(tmpdir(), 'm4-kernels-'));
const wasmPath = join(dir, 'kernels.wasm');
const asc = spawnSync(
  join(root, 'node_modules/.bin/asc'),
  [join(root, 'wasm-core/assembly/bench-kernels.ts'), '-o', wasmPath, '-O3', '--shrinkLevel', '0', '--converge', '--noAssert', '--runtime', 'minimal', '--initialMemory', '16', '--bindings', 'raw', '--exportStart', '_start', '--enable', 'simd'],
  { encoding: 'utf8' },
);
if (asc.status !== 0) throw new Error('asc failed: ' + asc.stderr);
const bytes = readFileSync(wasmPath);
rmSync(dir, { recursive: true });
const x = await instantiate(bytes);
const { time, value, vp, t0, t1, m4, floor } = stageM4(x, N, W);
// the column ends M4 finds (uPlot's rounding), given to the kernels for free
const s0 = t0 / 1000, span = t1 / 1000 - s0;
const col = (t) => Math.floor(W * ((t / 1000 - s0) / span) + 0.5);
const endList = [];
for (let i = 1; i < N; i++) if (col(time[i]) !== col(time[i - 1])) endList.push(i);
endList.push(N);
const nc = endList.length;
const ends = x.alloc(nc * 4);
new Int32Array(x.memory.buffer, ends, nc).set(endList);
const out = x.alloc(nc * 16), scratch = x.alloc(8 * 16);
// the other index kernels' scratch: 8 column slots of 32 bytes per 32 values of the longest column, and results
let longest = endList[0];
for (let c = 1; c < nc; c++) longest = Math.max(longest, endList[c] - endList[c - 1]);
const slot = (Math.ceil(longest / 32) + 2) * 32;
const scratch2 = x.alloc(8 * slot + 8 * 16);

const fns = {
  floor,
  mmTree: () => x.mmTree(vp, N),
  colsMinMax: () => x.colsMinMax(vp, ends, nc, out),
  colsTrack: () => x.colsTrack(vp, ends, nc, out),
  colsIndex: () => x.colsIndex(vp, ends, nc, out, scratch),
  laneIndex: () => x.laneIndex(vp, ends, nc, out),
  prefixSearch: () => x.prefixSearch(vp, ends, nc, out, scratch2, slot),
  prefixCount: () => x.prefixCount(vp, ends, nc, out, scratch2, slot),
  halfSearch: () => x.halfSearch(vp, ends, nc, out, scratch2, slot),
  m4,
};

// checks: colsMinMax's extremes and colsIndex's first indices against a plain loop
{
  const bits = new Int32Array(value.buffer);
  const want = [];
  let a = 0;
  for (const e of endList) {
    let mi = a, xi = a;
    for (let j = a; j < e; j++) { if (value[j] < value[mi]) mi = j; if (value[j] > value[xi]) xi = j; }
    want.push([mi, xi]);
    a = e;
  }
  fns.colsMinMax();
  let got = new Int32Array(x.memory.buffer, out, nc * 2);
  want.forEach(([mi, xi], c) => { if (got[2 * c] !== bits[mi] || got[2 * c + 1] !== bits[xi]) throw new Error('colsMinMax differs at column ' + c); });
  for (const k of ['colsIndex', 'laneIndex', 'prefixSearch', 'prefixCount', 'halfSearch']) {
    fns[k]();
    got = new Int32Array(x.memory.buffer, out, nc * 2);
    want.forEach(([mi, xi], c) => { if (got[2 * c] !== mi || got[2 * c + 1] !== xi) throw new Error(k + ' differs at column ' + c); });
  }
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
  console.log(`${N.toLocaleString('en-GB')} points, ${nc} columns, ${R} interleaved rounds`);
  for (const [k, t] of Object.entries(ts))
    console.log(`${k.padEnd(12)} min ${at(t, 0).toFixed(1).padStart(7)} µs (${(at(t, 0) / f0).toFixed(2)}x)   median ${at(t, 0.5).toFixed(1).padStart(7)} µs (${(at(t, 0.5) / f5).toFixed(2)}x)`);
}
