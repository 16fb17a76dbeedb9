// Benchmark 1's per-column kernels (wasm-core/assembly/bench-kernels.ts), compiled on their own with
// the core's release options (never part of core.wasm), staged and checked, for m4.bench.ts's
// target row and for bench/m4-kernels.mjs, which times every kernel in more detail (plain Node
// imports this file: its types are erasable).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;

interface KernelExports {
  memory: WebAssembly.Memory;
  _start(): void;
  alloc(bytes: number): number;
  free(ptr: number): void;
  // the floor, M4 and the kernels short of the first indices, for bench/m4-kernels.mjs
  streamFloor(tp: number, vp: number, n: number, step: number): bigint;
  m4(tp: number, vp: number, n: number, t0: number, t1: number, width: number, ot: number, ov: number): number;
  mmTree(vp: number, n: number): number;
  colsMinMax(vp: number, ends: number, ncols: number, out: number): void;
  colsTrack(vp: number, ends: number, ncols: number, out: number): void;
  colsIndex(vp: number, ends: number, ncols: number, out: number, scratch: number): void;
  prefixCount(vp: number, ends: number, ncols: number, out: number, scratch: number, slot: number): void;
  halfSearch(vp: number, ends: number, ncols: number, out: number, scratch: number, slot: number): void;
  tailIndex(vp: number, ends: number, ncols: number, out: number, scratch: number): void;
  pairIndex(vp: number, ends: number, ncols: number, out: number, scratch: number): void;
}

/** The exact per-column kernels: each writes every column's first minimum and first maximum index. */
export const EXACT_KERNELS = ['colsIndex', 'prefixCount', 'halfSearch', 'tailIndex', 'pairIndex'] as const;
export type ExactKernel = (typeof EXACT_KERNELS)[number];

/** Compiles bench-kernels.ts with the options of wasm-core/asconfig.json's release target. */
export async function loadKernels(): Promise<KernelExports> {
  const dir = mkdtempSync(join(tmpdir(), 'm4-kernels-'));
  try {
    const out = join(dir, 'kernels.wasm');
    const asc = spawnSync(
      join(root, 'node_modules/.bin/asc'),
      [join(root, 'wasm-core/assembly/bench-kernels.ts'), '-o', out, '-O3', '--shrinkLevel', '0', '--converge', '--noAssert', '--runtime', 'minimal', '--initialMemory', '16', '--bindings', 'raw', '--exportStart', '_start', '--enable', 'simd'],
      { encoding: 'utf8' },
    );
    if (asc.status !== 0) throw new Error(`asc failed: ${asc.stderr}`);
    const { instance } = await WebAssembly.instantiate(readFileSync(out), { env: { abort() { throw new Error('abort'); }, pow: Math.pow, acos: Math.acos } });
    const x = instance.exports as unknown as KernelExports;
    x._start();
    return x;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Where each pixel column ends (exclusive indices), as M4 finds them (uPlot's rounding of x to pixels). */
export function columnEnds(time: Float64Array, width: number): Int32Array {
  const n = time.length;
  const s0 = time[0] / 1000;
  const span = time[n - 1] / 1000 - s0;
  const col = (t: number) => Math.floor(width * ((t / 1000 - s0) / span) + 0.5);
  const ends: number[] = [];
  for (let i = 1; i < n; i++) if (col(time[i]) !== col(time[i - 1])) ends.push(i);
  ends.push(n);
  return Int32Array.from(ends);
}

/** The exact kernels as calls, and where the values, the column ends and the output were staged. */
export interface Staged {
  calls: Record<ExactKernel, () => void>;
  vp: number;
  ends: number;
  ncols: number;
  out: number;
}

/**
 * The values and column ends staged in the kernels' memory, with every exact kernel as a call; each
 * kernel's first indices are checked against a plain loop before it is returned.
 */
export function stageKernels(x: KernelExports, value: Float32Array, ends: Int32Array): Staged {
  const n = value.length;
  const nc = ends.length;
  const vp = x.alloc(n * 4);
  new Float32Array(x.memory.buffer, vp, n).set(value);
  const ep = x.alloc(nc * 4);
  new Int32Array(x.memory.buffer, ep, nc).set(ends);
  const out = x.alloc(nc * 16);
  const scratch = x.alloc(8 * 16);
  // the search kernels' scratch: 8 column slots of 32 bytes per 32 values of the longest column, then results
  let longest = ends[0];
  for (let c = 1; c < nc; c++) longest = Math.max(longest, ends[c] - ends[c - 1]);
  const slot = (Math.ceil(longest / 32) + 2) * 32;
  const scratch2 = x.alloc(8 * slot + 8 * 16);
  const calls: Record<ExactKernel, () => void> = {
    colsIndex: () => x.colsIndex(vp, ep, nc, out, scratch),
    prefixCount: () => x.prefixCount(vp, ep, nc, out, scratch2, slot),
    halfSearch: () => x.halfSearch(vp, ep, nc, out, scratch2, slot),
    tailIndex: () => x.tailIndex(vp, ep, nc, out, scratch),
    pairIndex: () => x.pairIndex(vp, ep, nc, out, scratch),
  };
  let a = 0;
  const want: number[] = [];
  for (const e of ends) {
    let mi = a;
    let xi = a;
    for (let j = a; j < e; j++) {
      if (value[j] < value[mi]) mi = j;
      if (value[j] > value[xi]) xi = j;
    }
    want.push(mi, xi);
    a = e;
  }
  for (const k of EXACT_KERNELS) {
    calls[k]();
    const got = new Int32Array(x.memory.buffer, out, nc * 2);
    const bad = want.findIndex((w, i) => got[i] !== w);
    if (bad >= 0) throw new Error(`${k} gives a wrong first index in column ${bad >> 1}`);
  }
  return { calls, vp, ends: ep, ncols: nc, out };
}
