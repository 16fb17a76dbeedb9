// Benchmark 1's kernels: the work M4 cannot avoid, done the fastest ways found. Never part of
// core.wasm (index.ts does not export it): bench/m4-kernels-kit.ts compiles this file on its own
// with the core's release options. Each kernel does a strict subset of M4's work on the same
// values (bit patterns as i32, as M4's integer path; columns longer than 64 points, no sign bits),
// so the ratios are lower bounds for M4 done this way:
//   mmTree      the minimum and maximum of all values, no columns (8 vectors an iteration, a tree)
//   colsMinMax  per pixel column (its end given), minimum and maximum values only
//   colsTrack   the same with M4's block scan and lane tracking (scanBits, inlined as in M4), no first-index search
// The exact per-column kernels (bench/m4-kernels-kit.ts's EXACT_KERNELS) each write every column's
// first minimum and first maximum index to out (8 bytes a column), given the column ends: M4's
// work without finding the column ends, the first and last points, or writing the output.
//   colsIndex   colsTrack, then M4's first-index searches (64 values) after every 8 columns
//   prefixCount the running per-lane extremes stored every 32 values (no tracking in the scan);
//               the 32 values holding each extreme found by counting (per lane) the prefixes
//               short of it, then searched
//   halfSearch  M4's block scan tracking block numbers, each block's first half's extremes
//               stored; the search looks at 32 values (the half that holds the extreme) not 64
//   tailIndex   colsIndex, but blocks start at the column's first value and the values after the
//               last whole block go 16 at a time (the last 16 clamped to end at e), not as a
//               whole 64-value block overlapping the one before
//   pairIndex   blocks of 32 values (8 vectors: no spills, no ordering stores), the last clamped
//               to end at e; the search looks at 32 values
// Slower ways, measured and removed: per-lane first indices blended in one pass, no search (about
// 4x colsIndex); a binary search of the stored prefixes (1.35x); prefixCount with prefixes every 64
// values (1.18x).
export { alloc, free } from './memory';
export { m4 } from './m4';
export { streamFloor } from './floor';
import { bitsMb, bitsMn, bitsMx, bitsXb, firstEqualBits, scanBits } from './m4';

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
    scanBits(vp, a, e);
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
      scanBits(vp, a, e);
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

// prefixCount, halfSearch: scratch holds 8 column slots of `slot` bytes (32 bytes per 32 values of
// the longest column, and two more), then 128 bytes of results.

// @ts-ignore: decorator
@inline function hmin(v: v128): i32 {
  let m = i32x4.min_s(v, i8x16.shuffle(v, v, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7));
  m = i32x4.min_s(m, i8x16.shuffle(m, m, 4, 5, 6, 7, 0, 1, 2, 3, 12, 13, 14, 15, 8, 9, 10, 11));
  return i32x4.extract_lane(m, 0);
}

// @ts-ignore: decorator
@inline function hmax(v: v128): i32 {
  let m = i32x4.max_s(v, i8x16.shuffle(v, v, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7));
  m = i32x4.max_s(m, i8x16.shuffle(m, m, 4, 5, 6, 7, 0, 1, 2, 3, 12, 13, 14, 15, 8, 9, 10, 11));
  return i32x4.extract_lane(m, 0);
}

/** The smallest index in `idx` among the lanes of `ext` equal to m (unsigned: the others become all ones). */
// @ts-ignore: decorator
@inline function laneFirst(ext: v128, idx: v128, m: v128): u32 {
  let c = v128.or(idx, v128.not(i32x4.eq(ext, m)));
  c = i32x4.min_u(c, i8x16.shuffle(c, c, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7));
  c = i32x4.min_u(c, i8x16.shuffle(c, c, 4, 5, 6, 7, 0, 1, 2, 3, 12, 13, 14, 15, 8, 9, 10, 11));
  return i32x4.extract_lane(c, 0);
}

// @ts-ignore: decorator
@inline function eq16(p: usize, all: v128): u32 {
  const a = i16x8.narrow_i32x4_s(i32x4.eq(v128.load(p), all), i32x4.eq(v128.load(p, 16), all));
  const b = i16x8.narrow_i32x4_s(i32x4.eq(v128.load(p, 32), all), i32x4.eq(v128.load(p, 48), all));
  return <u32>i8x16.bitmask(i8x16.narrow_i16x8_s(a, b));
}

/** The first index in the 32 values at j equal to m (there is one). */
// @ts-ignore: decorator
@inline function first32(vp: usize, j: i32, m: i32): i32 {
  const all = i32x4.splat(m);
  const p = vp + (<usize>j << 2);
  return j + <i32>ctz(eq16(p, all) | (eq16(p + 64, all) << 16));
}

let kMn: i32 = 0;
let kMx: i32 = 0;

/** Values [a, e) (at least 32) 32 at a time, the last 32 clamped to end at e: the running per-lane minimum and maximum after each to pre (32 bytes); returns how many. */
// @ts-ignore: decorator
@inline function scanPrefix(vp: usize, a: i32, e: i32, pre: usize): i32 {
  let vmn = i32x4.splat(i32.MAX_VALUE);
  let vmx = i32x4.splat(i32.MIN_VALUE);
  const last = vp + (<usize>(e - 32) << 2);
  let j = vp + (<usize>a << 2);
  let o = pre;
  while (true) {
    const p = min(j, last);
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
    vmn = i32x4.min_s(vmn, lo);
    vmx = i32x4.max_s(vmx, hi);
    v128.store(o, vmn);
    v128.store(o, vmx, 16);
    o += 32;
    if (j >= last) break;
    j += 128;
  }
  kMn = hmin(vmn);
  kMx = hmax(vmx);
  return <i32>((o - pre) >> 5);
}

/** Scans 8 columns at a time into their slots: count, extremes and end to the results after the slots. */
// @ts-ignore: decorator
@inline function scanGroup(vp: usize, ends: usize, c0: i32, g: i32, a: i32, scratch: usize, slot: usize): void {
  const res = scratch + 8 * slot;
  for (let q = 0; q < g; q++) {
    const e = load<i32>(ends + (<usize>(c0 + q) << 2));
    const r = res + (<usize>q << 4);
    store<i32>(r, scanPrefix(vp, a, e, scratch + <usize>q * slot));
    store<i32>(r, kMn, 4);
    store<i32>(r, kMx, 8);
    store<i32>(r, e, 12);
    a = e;
  }
}

export function prefixCount(vp: usize, ends: usize, ncols: i32, out: usize, scratch: usize, slot: usize): void {
  let a = 0;
  const res = scratch + 8 * slot;
  for (let c0 = 0; c0 < ncols; c0 += 8) {
    const g = min(8, ncols - c0);
    scanGroup(vp, ends, c0, g, a, scratch, slot);
    for (let q = 0; q < g; q++) {
      const r = res + (<usize>q << 4);
      const pre = scratch + <usize>q * slot;
      const S = load<i32>(r);
      const mn = load<i32>(r, 4);
      const mx = load<i32>(r, 8);
      const e = load<i32>(r, 12);
      const am = i32x4.splat(mn);
      const ax = i32x4.splat(mx);
      // per lane, minus the number of prefixes above the minimum (lanes 0-3) and below the maximum (4-7)
      let acc = i16x8.splat(0);
      const pe = pre + (<usize>S << 5);
      for (let p = pre; p < pe; p += 32) {
        acc = i16x8.add(acc, i16x8.narrow_i32x4_s(i32x4.gt_s(v128.load(p), am), i32x4.lt_s(v128.load(p, 16), ax)));
      }
      acc = i16x8.max_s(acc, i8x16.shuffle(acc, acc, 2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13));
      acc = i16x8.max_s(acc, i8x16.shuffle(acc, acc, 4, 5, 6, 7, 0, 1, 2, 3, 12, 13, 14, 15, 8, 9, 10, 11));
      const o = out + (<usize>(c0 + q) << 3);
      store<i32>(o, first32(vp, min(a - (<i32>i16x8.extract_lane_s(acc, 0) << 5), e - 32), mn));
      store<i32>(o, first32(vp, min(a - (<i32>i16x8.extract_lane_s(acc, 4) << 5), e - 32), mx), 4);
      a = e;
    }
  }
}

/** scanBits tracking block numbers (0: the column's first point), each block's first half's extremes stored at h + 32 k; results to r. */
// @ts-ignore: decorator
@inline function scanHalves(vp: usize, a: i32, e: i32, h: usize, r: usize): void {
  const first = load<i32>(vp + (<usize>a << 2));
  let vmn = i32x4.splat(first);
  let vmx = vmn;
  v128.store(h, vmn);
  v128.store(h, vmn, 16);
  let bmn = i32x4.splat(0);
  let bmx = bmn;
  let k = 0;
  const last = vp + (<usize>(e - 64) << 2);
  let j = vp + (<usize>(a + 1) << 2);
  let o = h;
  while (true) {
    const p = min(j, last);
    o += 32;
    k++;
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
    v128.store(o, lo);
    v128.store(o, hi, 16);
    v0 = v128.load(p, 128);
    v1 = v128.load(p, 144);
    lo = i32x4.min_s(lo, i32x4.min_s(v0, v1));
    hi = i32x4.max_s(hi, i32x4.max_s(v0, v1));
    v0 = v128.load(p, 160);
    v1 = v128.load(p, 176);
    lo = i32x4.min_s(lo, i32x4.min_s(v0, v1));
    hi = i32x4.max_s(hi, i32x4.max_s(v0, v1));
    v0 = v128.load(p, 192);
    v1 = v128.load(p, 208);
    lo = i32x4.min_s(lo, i32x4.min_s(v0, v1));
    hi = i32x4.max_s(hi, i32x4.max_s(v0, v1));
    v0 = v128.load(p, 224);
    v1 = v128.load(p, 240);
    lo = i32x4.min_s(lo, i32x4.min_s(v0, v1));
    hi = i32x4.max_s(hi, i32x4.max_s(v0, v1));
    const here = i32x4.splat(k);
    bmn = i32x4.max_s(bmn, v128.and(here, i32x4.lt_s(lo, vmn)));
    vmn = i32x4.min_s(vmn, lo);
    bmx = i32x4.max_s(bmx, v128.and(here, i32x4.gt_s(hi, vmx)));
    vmx = i32x4.max_s(vmx, hi);
    if (j >= last) break;
    j += 256;
  }
  const m = i32x4.splat(hmin(vmn));
  const x = i32x4.splat(hmax(vmx));
  store<i32>(r, <i32>laneFirst(vmn, bmn, m));
  store<i32>(r, <i32>laneFirst(vmx, bmx, x), 4);
  store<i32>(r, i32x4.extract_lane(m, 0), 8);
  store<i32>(r, i32x4.extract_lane(x, 0), 12);
}

/** The first index of m in block k of column [a, e) (k = 0: the point a), in the half of it that holds m. */
// @ts-ignore: decorator
@inline function firstInBlock(vp: usize, h: usize, a: i32, e: i32, k: i32, m: i32): i32 {
  const start = k == 0 ? a : min(a + 1 + ((k - 1) << 6), e - 64);
  const inFirst = v128.any_true(i32x4.eq(v128.load(h + (<usize>k << 5)), i32x4.splat(m)));
  return first32(vp, inFirst ? start : start + 32, m);
}

export function halfSearch(vp: usize, ends: usize, ncols: i32, out: usize, scratch: usize, slot: usize): void {
  let a = 0;
  const res = scratch + 8 * slot;
  for (let c0 = 0; c0 < ncols; c0 += 8) {
    const g = min(8, ncols - c0);
    let s = a;
    for (let q = 0; q < g; q++) {
      const e = load<i32>(ends + (<usize>(c0 + q) << 2));
      scanHalves(vp, s, e, scratch + <usize>q * slot, res + (<usize>q << 4));
      s = e;
    }
    for (let q = 0; q < g; q++) {
      const r = res + (<usize>q << 4);
      const e = load<i32>(ends + (<usize>(c0 + q) << 2));
      const h = scratch + <usize>q * slot;
      const o = out + (<usize>(c0 + q) << 3);
      store<i32>(o, firstInBlock(vp, h, a, e, load<i32>(r), load<i32>(r, 8)));
      store<i32>(o, firstInBlock(vp, h + 16, a, e, load<i32>(r, 4), load<i32>(r, 12)), 4);
      a = e;
    }
  }
}

// tailIndex, pairIndex

// Scratch for the ordering stores in scanTail (never read), as FENCE in m4.ts.
const KFENCE: usize = memory.data(32, 16);
let tMn: i32 = 0;
let tMx: i32 = 0;
let tMb: i32 = 0;
let tXb: i32 = 0;

// @ts-ignore: decorator
@inline function scanTail(vp: usize, a: i32, e: i32): void {
  const first = load<i32>(vp + (<usize>a << 2));
  let vmn = i32x4.splat(first);
  let vmx = vmn;
  let bmn = i32x4.splat(a);
  let bmx = bmn;
  let j = a;
  for (; e - j >= 64; j += 64) {
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
    v128.store(KFENCE, hi);
    v128.store(KFENCE, lo, 16);
    v0 = v128.load(p, 128);
    v1 = v128.load(p, 144);
    lo = i32x4.min_s(lo, i32x4.min_s(v0, v1));
    hi = i32x4.max_s(hi, i32x4.max_s(v0, v1));
    v0 = v128.load(p, 160);
    v1 = v128.load(p, 176);
    lo = i32x4.min_s(lo, i32x4.min_s(v0, v1));
    hi = i32x4.max_s(hi, i32x4.max_s(v0, v1));
    v0 = v128.load(p, 192);
    v1 = v128.load(p, 208);
    lo = i32x4.min_s(lo, i32x4.min_s(v0, v1));
    hi = i32x4.max_s(hi, i32x4.max_s(v0, v1));
    v0 = v128.load(p, 224);
    v1 = v128.load(p, 240);
    lo = i32x4.min_s(lo, i32x4.min_s(v0, v1));
    hi = i32x4.max_s(hi, i32x4.max_s(v0, v1));
    const here = i32x4.splat(j);
    bmn = i32x4.max_s(bmn, v128.and(here, i32x4.lt_s(lo, vmn)));
    vmn = i32x4.min_s(vmn, lo);
    bmx = i32x4.max_s(bmx, v128.and(here, i32x4.gt_s(hi, vmx)));
    vmx = i32x4.max_s(vmx, hi);
  }
  if (j < e) {
    // a lane improved here has its first extreme in [jj, jj + 16): the 64-value search from jj finds it
    const last = e - 16;
    while (true) {
      const jj = min(j, last);
      const p = vp + (<usize>jj << 2);
      const v0 = v128.load(p);
      const v1 = v128.load(p, 16);
      const v2 = v128.load(p, 32);
      const v3 = v128.load(p, 48);
      const lo = i32x4.min_s(i32x4.min_s(v0, v1), i32x4.min_s(v2, v3));
      const hi = i32x4.max_s(i32x4.max_s(v0, v1), i32x4.max_s(v2, v3));
      const here = i32x4.splat(jj);
      bmn = i32x4.max_s(bmn, v128.and(here, i32x4.lt_s(lo, vmn)));
      vmn = i32x4.min_s(vmn, lo);
      bmx = i32x4.max_s(bmx, v128.and(here, i32x4.gt_s(hi, vmx)));
      vmx = i32x4.max_s(vmx, hi);
      if (j >= last) break;
      j += 16;
    }
  }
  const m = i32x4.splat(hmin(vmn));
  const x = i32x4.splat(hmax(vmx));
  tMn = i32x4.extract_lane(m, 0);
  tMx = i32x4.extract_lane(x, 0);
  tMb = <i32>laneFirst(vmn, bmn, m);
  tXb = <i32>laneFirst(vmx, bmx, x);
}

export function tailIndex(vp: usize, ends: usize, ncols: i32, out: usize, scratch: usize): void {
  let a = 0;
  for (let c0 = 0; c0 < ncols; c0 += 8) {
    const g = min(8, ncols - c0);
    for (let q = 0; q < g; q++) {
      const e = load<i32>(ends + (<usize>(c0 + q) << 2));
      scanTail(vp, a, e);
      const r = scratch + (<usize>q << 4);
      store<i32>(r, tMb);
      store<i32>(r, tXb, 4);
      store<i32>(r, tMn, 8);
      store<i32>(r, tMx, 12);
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

// @ts-ignore: decorator
@inline function scanPairs(vp: usize, a: i32, e: i32): void {
  const first = load<i32>(vp + (<usize>a << 2));
  let vmn = i32x4.splat(first);
  let vmx = vmn;
  let bmn = i32x4.splat(a);
  let bmx = bmn;
  const last = e - 32;
  let j = a;
  while (true) {
    const jj = min(j, last);
    const p = vp + (<usize>jj << 2);
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
    const here = i32x4.splat(jj);
    bmn = i32x4.max_s(bmn, v128.and(here, i32x4.lt_s(lo, vmn)));
    vmn = i32x4.min_s(vmn, lo);
    bmx = i32x4.max_s(bmx, v128.and(here, i32x4.gt_s(hi, vmx)));
    vmx = i32x4.max_s(vmx, hi);
    if (j >= last) break;
    j += 32;
  }
  const m = i32x4.splat(hmin(vmn));
  const x = i32x4.splat(hmax(vmx));
  tMn = i32x4.extract_lane(m, 0);
  tMx = i32x4.extract_lane(x, 0);
  tMb = <i32>laneFirst(vmn, bmn, m);
  tXb = <i32>laneFirst(vmx, bmx, x);
}

export function pairIndex(vp: usize, ends: usize, ncols: i32, out: usize, scratch: usize): void {
  let a = 0;
  for (let c0 = 0; c0 < ncols; c0 += 8) {
    const g = min(8, ncols - c0);
    for (let q = 0; q < g; q++) {
      const e = load<i32>(ends + (<usize>(c0 + q) << 2));
      scanPairs(vp, a, e);
      const r = scratch + (<usize>q << 4);
      store<i32>(r, tMb);
      store<i32>(r, tXb, 4);
      store<i32>(r, tMn, 8);
      store<i32>(r, tMx, 12);
      a = e;
    }
    for (let q = 0; q < g; q++) {
      const r = scratch + (<usize>q << 4);
      const o = out + (<usize>(c0 + q) << 3);
      store<i32>(o, first32(vp, load<i32>(r), load<i32>(r, 8)));
      store<i32>(o, first32(vp, load<i32>(r, 4), load<i32>(r, 12)), 4);
    }
  }
}

