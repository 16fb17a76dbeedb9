// M4 downsampling: per pixel column the first, last, minimum and maximum point, in time order.
// Columns are the pixels uPlot draws to: column(t) = floor(W * ((t/1000 - s0) / (s1 - s0)) + 0.5)
// with s0, s1 the window in epoch seconds, i.e. Math.round of uPlot's own x position, so the
// polyline through these points rasterises exactly like the raw one. The column function is
// monotone in t and the times are sorted, so column ends are found by galloping on the time
// column; only the values inside a column are scanned, four at a time (f32x4).
import { convertValue } from './convert';
import { lowerBound } from './search';
import { rec, recLen, recT, recV, segCount, segFirstEndingAtOrAfter, segLowerBound } from './store';

let W: f64 = 0;
let s0: f64 = 0;
let span: f64 = 1;

// The open column. Its points are held by the ADDRESS of their time (fA, mnA, mxA, lA) and the
// run (segment) they come from; its times are read when it is written out. Whole columns are
// staged as indices and written out after each batch of columns (emit): there the times of many
// columns' minima and maxima (cache misses on the time column) are read by independent loads in
// a short loop, and the output is written in one stretch rather than between column scans.
// Within a run address order is time order; runs are in time order.
let run: i32 = 0;
let col: i32 = -1;
let fA: usize = 0;
let fV: f64 = 0;
let mnA: usize = 0;
let mnR: i32 = 0;
let mnV: f64 = 0;
let mxA: usize = 0;
let mxR: i32 = 0;
let mxV: f64 = 0;
let lA: usize = 0;
let lV: f64 = 0;
let guess: i32 = 1;
// Time-column reads of the last m4/storeView (the benchmark prints M4's bytes a point from it).
let timeReads: i32 = 0;

export function m4TimeReads(): i32 {
  return timeReads;
}

// @ts-ignore: decorator
@inline function timeAt(tp: usize, i: i32): f64 {
  timeReads++;
  return load<f64>(tp + (<usize>i << 3));
}

// Output (time ms f64, value f64) and its length.
let outT: usize = 0;
let outV: usize = 0;
let outN: i32 = 0;

// Result of minmax().
let minI: i32 = 0;
let maxI: i32 = 0;

// @ts-ignore: decorator
@inline function exactColumn(t: f64): i32 {
  return <i32>Math.floor(W * ((t / 1000.0 - s0) / span) + 0.5);
}

// The column without divisions: x = (t - t0) * K + 0.5 differs from the exact formula's x by
// rounding only, at most EPS (bounded from the magnitudes in begin()). Unless x lies within EPS
// of a whole number the floors agree; near a boundary the exact formula decides.
let T0: f64 = 0;
let K: f64 = 0;
let invK: f64 = 0;
let EPS: f64 = 1;

// @ts-ignore: decorator
@inline function column(t: f64): i32 {
  const x = (t - T0) * K + 0.5;
  const f = Math.floor(x);
  const r = x - f;
  return r > EPS && r < 1.0 - EPS ? <i32>f : exactColumn(t);
}

function begin(t0: f64, t1: f64, width: i32, ot: usize, ov: usize): void {
  W = <f64>width;
  s0 = t0 / 1000.0;
  const s1 = t1 / 1000.0;
  span = s1 - s0 > 0 ? s1 - s0 : 1.0;
  T0 = t0;
  K = W / (span * 1000.0);
  invK = (span * 1000.0) / W;
  // rounding of t/1000 and s0 (an ulp of the largest time in seconds each) scaled by W/span, plus
  // a few relative roundings of x itself on both sides; 64x that for margin.
  const big = Math.max(Math.abs(t0), Math.abs(t1)) / 1000.0 + 1.0;
  EPS = 64.0 * ((W / span) * big * 2.220446049250313e-16 + (W + 2.0) * 4.440892098500626e-16);
  if (!(EPS < 0.001)) EPS = 1.0; // tiny windows: always the exact formula
  col = -1;
  guess = 1;
  timeReads = 0;
  outT = ot;
  outV = ov;
  outN = 0;
}

// @ts-ignore: decorator
@inline function put(a: usize, v: f64): void {
  store<f64>(outT + (<usize>outN << 3), load<f64>(a));
  store<f64>(outV + (<usize>outN << 3), v);
  outN++;
}

function flush(): void {
  if (col < 0) return;
  put(fA, fV);
  let last = fA;
  // distinct points have distinct addresses, in any run
  const minFirst = mnR < mxR || (mnR == mxR && mnA <= mxA);
  const aA = minFirst ? mnA : mxA;
  const aV = minFirst ? mnV : mxV;
  const bA = minFirst ? mxA : mnA;
  const bV = minFirst ? mxV : mnV;
  if (aA != last) {
    put(aA, aV);
    last = aA;
  }
  if (bA != last) {
    put(bA, bV);
    last = bA;
  }
  if (lA != last) put(lA, lV);
  col = -1;
}

/** First index in (i, hi] whose column is > c (hi if none), galloping from the last column's length. */
function columnEnd(tp: usize, i: i32, hi: i32, c: i32, guess: i32): i32 {
  let lo = i + 1;
  let up = hi;
  const p = i + guess;
  if (p < hi) {
    if (column(timeAt(tp, p)) > c) {
      up = p;
      let step = 1;
      while (true) {
        const q = up - step;
        if (q < lo) break;
        if (column(timeAt(tp, q)) > c) {
          up = q;
          step <<= 1;
        } else {
          lo = q + 1;
          break;
        }
      }
    } else {
      lo = p + 1;
      let step = 1;
      while (true) {
        const q = p + step;
        if (q >= hi) break;
        if (column(timeAt(tp, q)) > c) {
          up = q;
          break;
        }
        lo = q + 1;
        step <<= 1;
      }
    }
  }
  while (lo < up) {
    const mid = (lo + up) >>> 1;
    if (column(timeAt(tp, mid)) > c) up = mid;
    else lo = mid + 1;
  }
  return lo;
}

const BLK: i32 = 64; // values per block: 16 vectors of f32x4

// Per-lane extremes and, per lane, the start of the last block that strictly improved it (0 =
// none: block starts are > a >= 0). Block starts only grow, so i32x4.max_s keeps the latest.
let vmin: v128 = f32x4.splat(0);
let vmax: v128 = f32x4.splat(0);
let bmin: v128 = i32x4.splat(0);
let bmax: v128 = i32x4.splat(0);

// @ts-ignore: decorator
@inline function block(vp: usize, j: i32): void {
  const p = vp + (<usize>j << 2);
  const v0 = v128.load(p);
  const v1 = v128.load(p, 16);
  const v2 = v128.load(p, 32);
  const v3 = v128.load(p, 48);
  const v4 = v128.load(p, 64);
  const v5 = v128.load(p, 80);
  const v6 = v128.load(p, 96);
  const v7 = v128.load(p, 112);
  const lo0 = f32x4.pmin(f32x4.pmin(f32x4.pmin(v0, v1), f32x4.pmin(v2, v3)), f32x4.pmin(f32x4.pmin(v4, v5), f32x4.pmin(v6, v7)));
  const hi0 = f32x4.pmax(f32x4.pmax(f32x4.pmax(v0, v1), f32x4.pmax(v2, v3)), f32x4.pmax(f32x4.pmax(v4, v5), f32x4.pmax(v6, v7)));
  const w0 = v128.load(p, 128);
  const w1 = v128.load(p, 144);
  const w2 = v128.load(p, 160);
  const w3 = v128.load(p, 176);
  const w4 = v128.load(p, 192);
  const w5 = v128.load(p, 208);
  const w6 = v128.load(p, 224);
  const w7 = v128.load(p, 240);
  const lo1 = f32x4.pmin(f32x4.pmin(f32x4.pmin(w0, w1), f32x4.pmin(w2, w3)), f32x4.pmin(f32x4.pmin(w4, w5), f32x4.pmin(w6, w7)));
  const hi1 = f32x4.pmax(f32x4.pmax(f32x4.pmax(w0, w1), f32x4.pmax(w2, w3)), f32x4.pmax(f32x4.pmax(w4, w5), f32x4.pmax(w6, w7)));
  const lo = f32x4.pmin(lo0, lo1);
  const hi = f32x4.pmax(hi0, hi1);
  const here = i32x4.splat(j);
  bmin = i32x4.max_s(bmin, v128.and(here, f32x4.lt(lo, vmin)));
  vmin = f32x4.pmin(vmin, lo);
  bmax = i32x4.max_s(bmax, v128.and(here, f32x4.gt(hi, vmax)));
  vmax = f32x4.pmax(vmax, hi);
}

/** Of the lanes holding the extreme `all` (splatted), the earliest block start. */
// @ts-ignore: decorator
@inline function earliest(ext: v128, all: v128, blocks: v128): i32 {
  let c = v128.bitselect(blocks, i32x4.splat(i32.MAX_VALUE), f32x4.eq(ext, all));
  c = i32x4.min_s(c, i8x16.shuffle(c, c, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7));
  c = i32x4.min_s(c, i8x16.shuffle(c, c, 4, 5, 6, 7, 0, 1, 2, 3, 12, 13, 14, 15, 8, 9, 10, 11));
  return i32x4.extract_lane(c, 0);
}

/**
 * Index of the first minimum and first maximum of values [a, e) (a < e): sets minI, maxI.
 * Long columns go block by block: each block's per-lane min and max come from a tree of
 * pmin/pmax (one instruction each), and each lane remembers the last block where it strictly
 * improved. A column that does not end on a block boundary ends with one block overlapping the
 * one before: values seen twice cannot strictly improve on themselves, so the first index of a
 * new extreme still lies in the block recorded. The first index is then found in that one block.
 */
function minmax(vp: usize, a: i32, e: i32): void {
  const first = load<f32>(vp + (<usize>a << 2));
  if (e - a <= BLK) {
    let mn = first;
    let mx = first;
    let mi = a;
    let xi = a;
    for (let j = a + 1; j < e; j++) {
      const v = load<f32>(vp + (<usize>j << 2));
      if (v < mn) {
        mn = v;
        mi = j;
      }
      if (v > mx) {
        mx = v;
        xi = j;
      }
    }
    minI = mi;
    maxI = xi;
    return;
  }
  vmin = f32x4.splat(first);
  vmax = vmin;
  bmin = i32x4.splat(0);
  bmax = bmin;
  let j = a + 1;
  for (; e - j >= BLK; j += BLK) block(vp, j);
  if (j < e) block(vp, e - BLK);
  // the extreme over the lanes, then the earliest block holding it
  let m = f32x4.pmin(vmin, i8x16.shuffle(vmin, vmin, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7));
  m = f32x4.pmin(m, i8x16.shuffle(m, m, 4, 5, 6, 7, 0, 1, 2, 3, 12, 13, 14, 15, 8, 9, 10, 11));
  const mn = f32x4.extract_lane(m, 0);
  minI = mn < first ? firstEqual(vp, earliest(vmin, m, bmin), mn) : a;
  let x = f32x4.pmax(vmax, i8x16.shuffle(vmax, vmax, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7));
  x = f32x4.pmax(x, i8x16.shuffle(x, x, 4, 5, 6, 7, 0, 1, 2, 3, 12, 13, 14, 15, 8, 9, 10, 11));
  const mx = f32x4.extract_lane(x, 0);
  maxI = mx > first ? firstEqual(vp, earliest(vmax, x, bmax), mx) : a;
}

/**
 * First index in the block of BLK values starting at j whose value equals m (it is there by
 * construction). Branch-free: the 32 comparisons are narrowed to one 32-bit mask.
 */
function firstEqual(vp: usize, j: i32, m: f32): i32 {
  const all = f32x4.splat(m);
  let mask: u64 = 0;
  for (let k = 0; k < BLK; k += 16) {
    const p = vp + (<usize>(j + k) << 2);
    const a = i16x8.narrow_i32x4_s(f32x4.eq(v128.load(p), all), f32x4.eq(v128.load(p, 16), all));
    const b = i16x8.narrow_i32x4_s(f32x4.eq(v128.load(p, 32), all), f32x4.eq(v128.load(p, 48), all));
    mask |= (<u64>i8x16.bitmask(i8x16.narrow_i16x8_s(a, b))) << (<u64>k);
  }
  return j + <i32>ctz(mask);
}

/**
 * Integer fast path of minmax() for a long column (e - a > BLK): the values' bit patterns as i32.
 * For floats without the sign bit and not NaN, integer order is float order and integer equality
 * is float equality, and i32x4.min_s/max_s are cheaper than f32x4.pmin/pmax. Whether the column
 * qualifies falls out of the result itself: a sign bit makes the integer minimum negative, a NaN
 * makes the maximum exceed +infinity's pattern. Then it answers false and the float path decides.
 * Otherwise it leaves the extremes' bit patterns in bitsMn/bitsMx and the starts of the blocks
 * holding their first occurrences in bitsMb/bitsXb, for firstEqualBits() to search later (the
 * caller scans G columns first and searches after, so the searches' chains of dependent steps
 * overlap each other). Same block scheme as the float path, with the running extremes in
 * locals; a lane that never strictly improves keeps block a, the column's first point, which
 * holds that lane's extreme (the first value) at a itself: no special case for an extreme at a.
 */
// Scratch for the ordering stores in scanBits (never read).
const FENCE: usize = memory.data(32, 16);

export let bitsMn: i32 = 0;
export let bitsMx: i32 = 0;
export let bitsMb: i32 = 0;
export let bitsXb: i32 = 0;

// @ts-ignore: decorator
@inline export function scanBits(vp: usize, a: i32, e: i32): bool {
  const first = load<i32>(vp + (<usize>a << 2));
  let vmn = i32x4.splat(first);
  let vmx = vmn;
  let bmn = i32x4.splat(a);
  let bmx = bmn;
  const lastStart = e - BLK; // > a: the last block ends exactly at e
  // Blocks at a + 1, a + 65, ... before lastStart, then the block at lastStart (it overlaps the
  // one before unless the column ends on a block boundary): one copy of the block in the loop,
  // the last start clamped.
  let j = a + 1;
  while (true) {
    // two vectors at a time. The engine's scheduler would otherwise compute the whole block's
    // minimum tree first and its maximum tree after it, keeping all 16 vectors live (16
    // registers: spills). Storing the first half's extremes to a scratch slot orders the
    // computation: both halves' extremes are done before the second half is loaded.
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
    v128.store(FENCE, hi);
    v128.store(FENCE, lo, 16);
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
    if (j >= lastStart) break;
    j = min(j + BLK, lastStart);
  }
  let m = i32x4.min_s(vmn, i8x16.shuffle(vmn, vmn, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7));
  m = i32x4.min_s(m, i8x16.shuffle(m, m, 4, 5, 6, 7, 0, 1, 2, 3, 12, 13, 14, 15, 8, 9, 10, 11));
  let x = i32x4.max_s(vmx, i8x16.shuffle(vmx, vmx, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7));
  x = i32x4.max_s(x, i8x16.shuffle(x, x, 4, 5, 6, 7, 0, 1, 2, 3, 12, 13, 14, 15, 8, 9, 10, 11));
  const mn = i32x4.extract_lane(m, 0);
  const mx = i32x4.extract_lane(x, 0);
  if (mn < 0 || mx > 0x7f800000) return false;
  bitsMn = mn;
  bitsMx = mx;
  bitsMb = earliestBits(bmn, i32x4.gt_s(vmn, m));
  bitsXb = earliestBits(bmx, i32x4.lt_s(vmx, x));
  return true;
}

/**
 * The earliest block start of the lanes holding the extreme: `others` marks the lanes that do
 * not (all ones), which the unsigned minimum then passes over (block starts are >= 0).
 */
// @ts-ignore: decorator
@inline function earliestBits(blocks: v128, others: v128): i32 {
  let c = v128.or(blocks, others);
  c = i32x4.min_u(c, i8x16.shuffle(c, c, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7));
  c = i32x4.min_u(c, i8x16.shuffle(c, c, 4, 5, 6, 7, 0, 1, 2, 3, 12, 13, 14, 15, 8, 9, 10, 11));
  return i32x4.extract_lane(c, 0);
}

/** firstEqual() on the values' bit patterns, unrolled: four 16-bit masks make the 64-bit one. */
// @ts-ignore: decorator
@inline function eq16(p: usize, all: v128): u64 {
  const a = i16x8.narrow_i32x4_s(i32x4.eq(v128.load(p), all), i32x4.eq(v128.load(p, 16), all));
  const b = i16x8.narrow_i32x4_s(i32x4.eq(v128.load(p, 32), all), i32x4.eq(v128.load(p, 48), all));
  return <u64>(<u32>i8x16.bitmask(i8x16.narrow_i16x8_s(a, b)));
}

// @ts-ignore: decorator
@inline export function firstEqualBits(vp: usize, j: i32, m: i32): i32 {
  const all = i32x4.splat(m);
  const p = vp + (<usize>j << 2);
  const mask = eq16(p, all) | (eq16(p + 64, all) << 16) | (eq16(p + 128, all) << 32) | (eq16(p + 192, all) << 48);
  return j + <i32>ctz(mask);
}

/**
 * scanRange() feeds points [i, hi) of one sorted run into the columns: findEnds() finds the ends
 * of up to NB columns (a tight loop of independent loads: their cache misses overlap), then
 * those columns go G at a time: their values are scanned (scanBits, inlined: as a call, the
 * engine saved and restored the caller's registers around every column), and then their
 * first-index searches are made (apart from the scan, so that the searches' dependent steps
 * overlap each other rather than stall the scan; 8 columns of 525 values are 17 KB, still in L1
 * for the searches: G = 32 was slower). A column that starts and ends inside this run with no
 * column open from the run before (every column but a run's first and last) is staged and
 * written out after the batch; the others go through the open column (globals), which a later
 * run may continue.
 */
const G: i32 = 8;
const NB: i32 = 128;
const ENDS: usize = memory.data(NB * 4, 16);
const COLS: usize = memory.data(NB * 4, 16);
// Per column of the G: first minimum and maximum (indices, or the blocks to search), the extremes' bit patterns.
const RES: usize = memory.data(G * 16, 16);
const SEARCH: usize = memory.data(G, 16);
// Whole columns' four indices (first, earlier extreme, later extreme, last), written out by emit().
const STAGE: usize = memory.data(NB * 16, 16);

/** The s staged columns to the output at n (repeats dropped, times and values read here); returns the new count. */
function emit(tp: usize, vp: usize, s: i32, n: i32): i32 {
  const oT = outT;
  const oV = outV;
  for (let k = 0; k < s; k++) {
    const p = STAGE + (<usize>k << 4);
    const f = load<i32>(p);
    const a = load<i32>(p, 4);
    const b = load<i32>(p, 8);
    const l = load<i32>(p, 12);
    store<f64>(oT + (<usize>n << 3), load<f64>(tp + (<usize>f << 3)));
    store<f64>(oV + (<usize>n << 3), <f64>load<f32>(vp + (<usize>f << 2)));
    n++;
    store<f64>(oT + (<usize>n << 3), load<f64>(tp + (<usize>a << 3)));
    store<f64>(oV + (<usize>n << 3), <f64>load<f32>(vp + (<usize>a << 2)));
    n += <i32>(a != f);
    store<f64>(oT + (<usize>n << 3), load<f64>(tp + (<usize>b << 3)));
    store<f64>(oV + (<usize>n << 3), <f64>load<f32>(vp + (<usize>b << 2)));
    n += <i32>(b != a);
    store<f64>(oT + (<usize>n << 3), load<f64>(tp + (<usize>l << 3)));
    store<f64>(oV + (<usize>n << 3), <f64>load<f32>(vp + (<usize>l << 2)));
    n += <i32>(l != b);
  }
  return n;
}

// End finding across findEnds() calls within one run: the next column c, its first index j, the
// anchor (iA, tA) of the prediction and the last column's length (the gallop's first step).
let eC: i32 = 0;
let eJ: i32 = 0;
let eIA: i32 = 0;
let eTA: f64 = 0;
let eGs: i32 = 1;
// The bits of findEnds()'s touched times (never read).
let touched: i64 = 0;

/**
 * The ends of the next columns (up to NB) of the run ending at hi, from column eC at eJ, to
 * ENDS/COLS; returns how many. Column c ends at the first index whose time reaches the start of
 * column c + 1: predicted as iA + ceil(q), q the distance in points from the anchor to that start
 * if the points are evenly spaced (q moves on by a constant a column: it depends on nothing just
 * read, so successive confirmations do not wait on each other), and confirmed by the two times
 * either side. A miss (a gap, uneven spacing, an empty column) gallops and binary-searches the
 * exact end and anchors the prediction there. Its own function: its constants stay in registers.
 */
function findEnds(tp: usize, hi: i32, cLast: i32, invDt: f64): i32 {
  let c = eC;
  let j = eJ;
  let iA = eIA;
  let tA = eTA;
  let gs = eGs;
  const t0 = T0;
  const k0 = K;
  const ik = invK;
  const eps = EPS;
  const dq = ik * invDt;
  let q = (t0 + (<f64>c + 0.5) * ik - tA) * invDt;
  {
    // The predicted ends' times touched first, in a loop of nothing but independent loads: their
    // cache misses overlap many at a time (the confirming loop below, longer, keeps few in
    // flight). The loaded bits only go to a global, so the loads stay; timeReads counts the
    // confirming reads, not these.
    let tq = q;
    let x: i64 = 0;
    const lim = <f64>(hi - iA);
    for (let g = 0; g < NB; g++) {
      const k = Math.ceil(tq);
      if (!(k < lim)) break;
      x ^= load<i64>(tp + (<usize>max(iA + <i32>k, iA + 1) << 3));
      tq += dq;
    }
    touched = x;
  }
  let reads = 0;
  let g = 0;
  while (true) {
    let e = hi;
    let nc: i32 = 0;
    if (c < cLast) {
      const k = Math.ceil(q);
      let p = k >= <f64>(hi - iA) ? hi : iA + <i32>k;
      if (p <= iA) p = iA + 1;
      let ok = false;
      if (p < hi) {
        // x as column() computes it, away from whole numbers by more than EPS, puts the point
        // before p in column <= c and the point at p in c + 1
        const xa = (load<f64>(tp + (<usize>p << 3)) - t0) * k0 + 0.5;
        const xb = (load<f64>(tp + (<usize>(p - 1) << 3)) - t0) * k0 + 0.5;
        reads += 2;
        const c1 = <f64>(c + 1);
        ok = (xb < c1 - eps) & (xa > c1 + eps) & (xa < c1 + (1.0 - eps));
      }
      if (ok) {
        e = p;
        nc = c + 1;
        q += dq;
      } else {
        e = columnEnd(tp, j, hi, c, gs);
        if (e < hi) {
          tA = load<f64>(tp + (<usize>e << 3));
          reads++;
          nc = column(tA);
          iA = e;
          q = (t0 + (<f64>nc + 0.5) * ik - tA) * invDt;
        }
      }
    }
    store<i32>(ENDS + (<usize>g << 2), e);
    store<i32>(COLS + (<usize>g << 2), c);
    gs = e - j;
    g++;
    j = e;
    c = nc;
    if ((g == NB) | (j >= hi)) break;
  }
  eC = c;
  eJ = j;
  eIA = iA;
  eTA = tA;
  eGs = gs;
  timeReads += reads;
  return g;
}

function scanRange(tp: usize, vp: usize, i: i32, hi: i32): void {
  if (i >= hi) return;
  let n = outN;
  const tA = load<f64>(tp + (<usize>i << 3));
  const tLast = load<f64>(tp + (<usize>(hi - 1) << 3));
  timeReads += 2;
  eC = column(tA);
  eJ = i;
  eIA = i;
  eTA = tA;
  eGs = guess;
  const cLast = column(tLast);
  const invDt = hi - 1 > i && tLast > tA ? <f64>(hi - 1 - i) / (tLast - tA) : 0.0;
  while (i < hi) {
    const gAll = findEnds(tp, hi, cLast, invDt);
    let staged = 0;
    for (let q0 = 0; q0 < gAll; q0 += G) {
      const ends = ENDS + (<usize>q0 << 2);
      const g = min(G, gAll - q0);
      // The G columns' values: extremes, and where a first-index search is still to be made.
      // Kept apart from the searches and the output so that each loop holds few values (no
      // spills) and the searches, independent of each other, overlap.
      let a = i;
      for (let q = 0; q < g; q++) {
        const e = load<i32>(ends + (<usize>q << 2));
        const r = RES + (<usize>q << 4);
        if (e - a > BLK && scanBits(vp, a, e)) {
          store<i32>(r, bitsMb);
          store<i32>(r, bitsXb, 4);
          store<i32>(r, bitsMn, 8);
          store<i32>(r, bitsMx, 12);
          store<u8>(SEARCH + <usize>q, 1);
        } else {
          minmax(vp, a, e);
          store<i32>(r, minI);
          store<i32>(r, maxI, 4);
          store<u8>(SEARCH + <usize>q, 0);
        }
        a = e;
      }
      for (let q = 0; q < g; q++) {
        const e = load<i32>(ends + (<usize>q << 2));
        const r = RES + (<usize>q << 4);
        let mi = load<i32>(r);
        let xi = load<i32>(r, 4);
        if (load<u8>(SEARCH + <usize>q)) {
          mi = firstEqualBits(vp, mi, load<i32>(r, 8));
          xi = firstEqualBits(vp, xi, load<i32>(r, 12));
        }
        if ((e < hi) & (col < 0)) {
          // A whole column: first, then min and max in time order, then last; emit() drops
          // repeats and writes it out after the batch (or before an open column is written)
          const st = STAGE + (<usize>staged << 4);
          store<i32>(st, i);
          store<i32>(st, min(mi, xi), 4);
          store<i32>(st, max(mi, xi), 8);
          store<i32>(st, e - 1, 12);
          staged++;
        } else {
          n = emit(tp, vp, staged, n);
          staged = 0;
          outN = n;
          openColumn(tp, vp, load<i32>(COLS + (<usize>(q0 + q) << 2)), i, e, mi, xi, e < hi);
          n = outN;
        }
        i = e;
      }
    }
    n = emit(tp, vp, staged, n);
  }
  outN = n;
  guess = eGs;
}

/**
 * Column c's points [i, e) of the current run, with their first minimum mi and first maximum xi,
 * into the open column: the column continues the open one or replaces it (which is written out).
 * With `done` the run goes on past the column, so it is complete and written out too.
 */
function openColumn(tp: usize, vp: usize, c: i32, i: i32, e: i32, mi: i32, xi: i32, done: bool): void {
  const vmin = <f64>load<f32>(vp + (<usize>mi << 2));
  const vmax = <f64>load<f32>(vp + (<usize>xi << 2));
  if (c != col) {
    flush();
    col = c;
    fA = tp + (<usize>i << 3);
    fV = <f64>load<f32>(vp + (<usize>i << 2));
    mnA = tp + (<usize>mi << 3);
    mnR = run;
    mnV = vmin;
    mxA = tp + (<usize>xi << 3);
    mxR = run;
    mxV = vmax;
  } else {
    // The column continues from an earlier segment: strict comparisons keep the first extreme.
    if (vmin < mnV) {
      mnV = vmin;
      mnA = tp + (<usize>mi << 3);
      mnR = run;
    }
    if (vmax > mxV) {
      mxV = vmax;
      mxA = tp + (<usize>xi << 3);
      mxR = run;
    }
  }
  lA = tp + (<usize>(e - 1) << 3);
  lV = <f64>load<f32>(vp + (<usize>(e - 1) << 2));
  if (done) flush();
}

/**
 * M4 of the points of sorted columns (time ms f64, value f32) inside [t0, t1] to `width`
 * pixels. Writes (time ms, value) as f64 to ot/ov (room for 4 * (width + 1) points); returns the count.
 */
export function m4(tp: usize, vp: usize, n: i32, t0: f64, t1: f64, width: i32, ot: usize, ov: usize): i32 {
  begin(t0, t1, width, ot, ov);
  run = 0;
  scanRange(tp, vp, lowerBound(tp, n, t0, false), lowerBound(tp, n, t1, true));
  flush();
  timeReads += outN;
  return outN;
}

let viewRaw: i32 = 0;
let viewLo: f64 = NaN;
let viewHi: f64 = NaN;

export function viewRawPoints(): i32 {
  return viewRaw;
}
export function viewMin(): f64 {
  return viewLo;
}
export function viewMax(): f64 {
  return viewHi;
}

/**
 * The chart's view of a store: M4 of the raw distances inside [t0, t1], then converted (the
 * conversion set by setConversion), times in epoch seconds. With `edges`, the nearest point
 * outside each end is included, so the line runs to the plot's edges. Room needed:
 * 4 * (width + 1) + 2 points. viewMin/viewMax/viewRawPoints describe the inside points.
 */
export function storeView(s: usize, t0: f64, t1: f64, width: i32, ot: usize, ov: usize, edges: i32): i32 {
  begin(t0, t1, width, ot, ov);
  viewRaw = 0;
  const nseg = segCount(s);
  let first = segFirstEndingAtOrAfter(s, t0);
  let left = false;
  if (edges != 0) {
    // The last point before t0: in segment `first` before t0, or the end of the one before it.
    let r: usize = 0;
    let k = -1;
    if (first < nseg) {
      r = rec(s, first);
      k = segLowerBound(r, t0, false) - 1;
    }
    if (k < 0 && first > 0) {
      r = rec(s, first - 1);
      k = recLen(r) - 1;
    }
    if (k >= 0) {
      put(recT(r) + (<usize>k << 3), <f64>load<f32>(recV(r) + (<usize>k << 2)));
      left = true;
    }
  }
  let seg = first;
  let rightSeg = -1;
  let rightIdx = 0;
  for (; seg < nseg; seg++) {
    const r = rec(s, seg);
    const a = seg == first ? segLowerBound(r, t0, false) : 0;
    const b = segLowerBound(r, t1, true);
    viewRaw += b - a;
    run = seg;
    scanRange(recT(r), recV(r), a, b);
    if (b < recLen(r)) {
      rightSeg = seg;
      rightIdx = b;
      break;
    }
  }
  flush();
  const insideEnd = outN;
  if (edges != 0 && rightSeg >= 0) {
    const r = rec(s, rightSeg);
    put(recT(r) + (<usize>rightIdx << 3), <f64>load<f32>(recV(r) + (<usize>rightIdx << 2)));
  }
  viewLo = NaN;
  viewHi = NaN;
  const insideStart = left ? 1 : 0;
  for (let i = 0; i < outN; i++) {
    const tp = outT + (<usize>i << 3);
    const vp = outV + (<usize>i << 3);
    store<f64>(tp, load<f64>(tp) / 1000.0);
    const v = convertValue(load<f64>(vp));
    store<f64>(vp, v);
    if (i == insideStart && i < insideEnd) {
      viewLo = v;
      viewHi = v;
    } else if (i > insideStart && i < insideEnd) {
      if (v < viewLo) viewLo = v;
      if (v > viewHi) viewHi = v;
    }
  }
  return outN;
}
