// Benchmark 1's kernels (issue 10): how far below M4 the work it cannot avoid lies. Never part of
// core.wasm (index.ts does not export it): bench/m4-kernels.mjs compiles this file on its own and
// times each kernel against the floor, on the same points, side by side. Each kernel does a
// strict subset of M4's work on the same values (bit patterns as i32, as M4's integer path), so
// the ratios are lower bounds for M4 done this way:
//   mmTree      the minimum and maximum of all values, no columns (8 vectors an iteration, a tree)
//   colsMinMax  per pixel column (its end given), minimum and maximum values only
//   colsTrack   the same with M4's block scan and lane tracking (minmaxBits), no first-index search
//   colsIndex   the same with M4's first-index searches after every 8 columns: the first minimum
//               and maximum of every column, i.e. M4 without finding column ends or writing output
export { alloc, free } from './memory';
export { m4 } from './m4';
export { streamFloor } from './floor';
import { bitsMb, bitsMn, bitsMx, bitsXb, firstEqualBits, minmaxBits } from './m4';

export function mmTree(vp: usize, n: i32): i32 {
  let mn = i32x4.splat(i32.MAX_VALUE);
  let mx = i32x4.splat(i32.MIN_VALUE);
  for (let j = 0; j + 32 <= n; j += 32) {
    const p = vp + (<usize>j << 2);
    let v0 = v128.load(p);
    let v1 = v128.load(p, 16);
    let lo = i32x4.min_s(v0, v1);
    let hi = i32x4.max_s(v0, v1);
    v0 = v128.load(p, 32);
    v1 = v128.load(p, 48);
    lo = i32x4.min_s(lo, i32x4.min_s(v0, v1));
    hi = i32x4.max_s(hi, i32x4.max_s(v0, v1));
    v0 = v128.load(p, 64);
    v1 = v128.load(p, 80);
    lo = i32x4.min_s(lo, i32x4.min_s(v0, v1));
    hi = i32x4.max_s(hi, i32x4.max_s(v0, v1));
    v0 = v128.load(p, 96);
    v1 = v128.load(p, 112);
    lo = i32x4.min_s(lo, i32x4.min_s(v0, v1));
    hi = i32x4.max_s(hi, i32x4.max_s(v0, v1));
    mn = i32x4.min_s(mn, lo);
    mx = i32x4.max_s(mx, hi);
  }
  return i32x4.extract_lane(mn, 0) ^ i32x4.extract_lane(mn, 3) ^ i32x4.extract_lane(mx, 1) ^ i32x4.extract_lane(mx, 2);
}

/** Columns [ends[c-1], ends[c]) (ends[-1] = 0), each longer than 4 points: minimum and maximum to out. */
export function colsMinMax(vp: usize, ends: usize, ncols: i32, out: usize): void {
  let a = 0;
  for (let c = 0; c < ncols; c++) {
    const e = load<i32>(ends + (<usize>c << 2));
    let mn = i32x4.splat(load<i32>(vp + (<usize>a << 2)));
    let mx = mn;
    let j = a;
    for (; j + 16 <= e; j += 16) {
      const p = vp + (<usize>j << 2);
      const v0 = v128.load(p);
      const v1 = v128.load(p, 16);
      const v2 = v128.load(p, 32);
      const v3 = v128.load(p, 48);
      mn = i32x4.min_s(mn, i32x4.min_s(i32x4.min_s(v0, v1), i32x4.min_s(v2, v3)));
      mx = i32x4.max_s(mx, i32x4.max_s(i32x4.max_s(v0, v1), i32x4.max_s(v2, v3)));
    }
    for (; j + 4 <= e; j += 4) {
      const v = v128.load(vp + (<usize>j << 2));
      mn = i32x4.min_s(mn, v);
      mx = i32x4.max_s(mx, v);
    }
    if (j < e) {
      const v = v128.load(vp + (<usize>(e - 4) << 2));
      mn = i32x4.min_s(mn, v);
      mx = i32x4.max_s(mx, v);
    }
    mn = i32x4.min_s(mn, i8x16.shuffle(mn, mn, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7));
    mn = i32x4.min_s(mn, i8x16.shuffle(mn, mn, 4, 5, 6, 7, 0, 1, 2, 3, 12, 13, 14, 15, 8, 9, 10, 11));
    mx = i32x4.max_s(mx, i8x16.shuffle(mx, mx, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7));
    mx = i32x4.max_s(mx, i8x16.shuffle(mx, mx, 4, 5, 6, 7, 0, 1, 2, 3, 12, 13, 14, 15, 8, 9, 10, 11));
    store<i32>(out + (<usize>c << 3), i32x4.extract_lane(mn, 0));
    store<i32>(out + (<usize>c << 3), i32x4.extract_lane(mx, 0), 4);
    a = e;
  }
}

/** The same columns (each longer than 64 points, no sign bits) through M4's block scan: extremes and their blocks to out (16 bytes a column). */
export function colsTrack(vp: usize, ends: usize, ncols: i32, out: usize): void {
  let a = 0;
  for (let c = 0; c < ncols; c++) {
    const e = load<i32>(ends + (<usize>c << 2));
    minmaxBits(vp, a, e);
    const r = out + (<usize>c << 4);
    store<i32>(r, bitsMb);
    store<i32>(r, bitsXb, 4);
    store<i32>(r, bitsMn, 8);
    store<i32>(r, bitsMx, 12);
    a = e;
  }
}

/** colsTrack, then M4's first-index searches after every 8 columns: first minimum and maximum index to out (8 bytes a column). */
export function colsIndex(vp: usize, ends: usize, ncols: i32, out: usize, scratch: usize): void {
  let a = 0;
  for (let c0 = 0; c0 < ncols; c0 += 8) {
    const g = min(8, ncols - c0);
    for (let q = 0; q < g; q++) {
      const e = load<i32>(ends + (<usize>(c0 + q) << 2));
      minmaxBits(vp, a, e);
      const r = scratch + (<usize>q << 4);
      store<i32>(r, bitsMb);
      store<i32>(r, bitsXb, 4);
      store<i32>(r, bitsMn, 8);
      store<i32>(r, bitsMx, 12);
      a = e;
    }
    for (let q = 0; q < g; q++) {
      const r = scratch + (<usize>q << 4);
      const o = out + (<usize>(c0 + q) << 3);
      store<i32>(o, firstEqualBits(vp, load<i32>(r), load<i32>(r, 8)));
      store<i32>(o, firstEqualBits(vp, load<i32>(r, 4), load<i32>(r, 12)), 4);
    }
  }
}
