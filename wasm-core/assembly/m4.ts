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

// The open column.
let col: i32 = -1;
let fT: f64 = 0;
let fV: f64 = 0;
let mnT: f64 = 0;
let mnV: f64 = 0;
let mxT: f64 = 0;
let mxV: f64 = 0;
let lT: f64 = 0;
let lV: f64 = 0;
let guess: i32 = 1;

// Output (time ms f64, value f64) and its length.
let outT: usize = 0;
let outV: usize = 0;
let outN: i32 = 0;

// Result of minmax().
let minI: i32 = 0;
let maxI: i32 = 0;

// @ts-ignore: decorator
@inline function column(t: f64): i32 {
  return <i32>Math.floor(W * ((t / 1000.0 - s0) / span) + 0.5);
}

function begin(t0: f64, t1: f64, width: i32, ot: usize, ov: usize): void {
  W = <f64>width;
  s0 = t0 / 1000.0;
  const s1 = t1 / 1000.0;
  span = s1 - s0 > 0 ? s1 - s0 : 1.0;
  col = -1;
  guess = 1;
  outT = ot;
  outV = ov;
  outN = 0;
}

// @ts-ignore: decorator
@inline function put(t: f64, v: f64): void {
  store<f64>(outT + (<usize>outN << 3), t);
  store<f64>(outV + (<usize>outN << 3), v);
  outN++;
}

function flush(): void {
  if (col < 0) return;
  put(fT, fV);
  let last = fT;
  const minFirst = mnT <= mxT;
  const aT = minFirst ? mnT : mxT;
  const aV = minFirst ? mnV : mxV;
  const bT = minFirst ? mxT : mnT;
  const bV = minFirst ? mxV : mnV;
  if (aT != last) {
    put(aT, aV);
    last = aT;
  }
  if (bT != last) {
    put(bT, bV);
    last = bT;
  }
  if (lT != last) put(lT, lV);
  col = -1;
}

/** First index in (i, hi] whose column is > c (hi if none), galloping from the last column's length. */
function columnEnd(tp: usize, i: i32, hi: i32, c: i32): i32 {
  let lo = i + 1;
  let up = hi;
  const p = i + guess;
  if (p < hi) {
    if (column(load<f64>(tp + (<usize>p << 3))) > c) {
      up = p;
      let step = 1;
      while (true) {
        const q = up - step;
        if (q < lo) break;
        if (column(load<f64>(tp + (<usize>q << 3))) > c) {
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
        if (column(load<f64>(tp + (<usize>q << 3))) > c) {
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
    if (column(load<f64>(tp + (<usize>mid << 3))) > c) up = mid;
    else lo = mid + 1;
  }
  return lo;
}

const BLK: i32 = 32; // values per block: 8 vectors of f32x4

/**
 * Index of the first minimum and first maximum of values [a, e) (a < e): sets minI, maxI.
 * Long columns go block by block: each block's per-lane min and max come from a tree of
 * pmin/pmax (one instruction each), and each lane remembers the first block where it reached
 * its extreme. The first index of the extreme is then found by scanning that one block.
 */
function minmax(vp: usize, a: i32, e: i32): void {
  const first = load<f32>(vp + (<usize>a << 2));
  let mn = first;
  let mx = first;
  let mi = a;
  let xi = a;
  let j = a + 1;
  if (e - j >= 2 * BLK) {
    let vmin = f32x4.splat(first);
    let vmax = vmin;
    let bmin = i32x4.splat(-1);
    let bmax = bmin;
    for (; e - j >= BLK; j += BLK) {
      const p = vp + (<usize>j << 2);
      const v0 = v128.load(p);
      const v1 = v128.load(p, 16);
      const v2 = v128.load(p, 32);
      const v3 = v128.load(p, 48);
      const v4 = v128.load(p, 64);
      const v5 = v128.load(p, 80);
      const v6 = v128.load(p, 96);
      const v7 = v128.load(p, 112);
      const lo = f32x4.pmin(f32x4.pmin(f32x4.pmin(v0, v1), f32x4.pmin(v2, v3)), f32x4.pmin(f32x4.pmin(v4, v5), f32x4.pmin(v6, v7)));
      const hi = f32x4.pmax(f32x4.pmax(f32x4.pmax(v0, v1), f32x4.pmax(v2, v3)), f32x4.pmax(f32x4.pmax(v4, v5), f32x4.pmax(v6, v7)));
      const lt = f32x4.lt(lo, vmin);
      const gt = f32x4.gt(hi, vmax);
      const here = i32x4.splat(j);
      vmin = v128.bitselect(lo, vmin, lt);
      bmin = v128.bitselect(here, bmin, lt);
      vmax = v128.bitselect(hi, vmax, gt);
      bmax = v128.bitselect(here, bmax, gt);
    }
    // The smallest lane value, and of the lanes holding it the earliest block.
    let m = f32x4.extract_lane(vmin, 0);
    let b = i32x4.extract_lane(bmin, 0);
    let v = f32x4.extract_lane(vmin, 1);
    let k = i32x4.extract_lane(bmin, 1);
    if (v < m || (v == m && k < b)) { m = v; b = k; }
    v = f32x4.extract_lane(vmin, 2);
    k = i32x4.extract_lane(bmin, 2);
    if (v < m || (v == m && k < b)) { m = v; b = k; }
    v = f32x4.extract_lane(vmin, 3);
    k = i32x4.extract_lane(bmin, 3);
    if (v < m || (v == m && k < b)) { m = v; b = k; }
    if (m < first) {
      mn = m;
      mi = firstEqual(vp, b, m);
    }
    m = f32x4.extract_lane(vmax, 0);
    b = i32x4.extract_lane(bmax, 0);
    v = f32x4.extract_lane(vmax, 1);
    k = i32x4.extract_lane(bmax, 1);
    if (v > m || (v == m && k < b)) { m = v; b = k; }
    v = f32x4.extract_lane(vmax, 2);
    k = i32x4.extract_lane(bmax, 2);
    if (v > m || (v == m && k < b)) { m = v; b = k; }
    v = f32x4.extract_lane(vmax, 3);
    k = i32x4.extract_lane(bmax, 3);
    if (v > m || (v == m && k < b)) { m = v; b = k; }
    if (m > first) {
      mx = m;
      xi = firstEqual(vp, b, m);
    }
  }
  for (; j < e; j++) {
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
}

/** First index in the block starting at j whose value equals m (it is there by construction). */
function firstEqual(vp: usize, j: i32, m: f32): i32 {
  while (load<f32>(vp + (<usize>j << 2)) != m) j++;
  return j;
}

/** Feeds points [i, hi) of one sorted run into the columns. */
function scanRange(tp: usize, vp: usize, i: i32, hi: i32): void {
  while (i < hi) {
    const t = load<f64>(tp + (<usize>i << 3));
    const c = column(t);
    const e = columnEnd(tp, i, hi, c);
    minmax(vp, i, e);
    const vmin = <f64>load<f32>(vp + (<usize>minI << 2));
    const vmax = <f64>load<f32>(vp + (<usize>maxI << 2));
    if (c != col) {
      flush();
      col = c;
      fT = t;
      fV = <f64>load<f32>(vp + (<usize>i << 2));
      mnT = load<f64>(tp + (<usize>minI << 3));
      mnV = vmin;
      mxT = load<f64>(tp + (<usize>maxI << 3));
      mxV = vmax;
    } else {
      // The column continues from an earlier segment: strict comparisons keep the first extreme.
      if (vmin < mnV) {
        mnV = vmin;
        mnT = load<f64>(tp + (<usize>minI << 3));
      }
      if (vmax > mxV) {
        mxV = vmax;
        mxT = load<f64>(tp + (<usize>maxI << 3));
      }
    }
    lT = load<f64>(tp + (<usize>(e - 1) << 3));
    lV = <f64>load<f32>(vp + (<usize>(e - 1) << 2));
    guess = e - i;
    i = e;
  }
}

/**
 * M4 of the points of sorted columns (time ms f64, value f32) inside [t0, t1] to `width`
 * pixels. Writes (time ms, value) as f64 to ot/ov (room for 4 * (width + 1) points); returns the count.
 */
export function m4(tp: usize, vp: usize, n: i32, t0: f64, t1: f64, width: i32, ot: usize, ov: usize): i32 {
  begin(t0, t1, width, ot, ov);
  scanRange(tp, vp, lowerBound(tp, n, t0, false), lowerBound(tp, n, t1, true));
  flush();
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
      put(load<f64>(recT(r) + (<usize>k << 3)), <f64>load<f32>(recV(r) + (<usize>k << 2)));
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
    put(load<f64>(recT(r) + (<usize>rightIdx << 3)), <f64>load<f32>(recV(r) + (<usize>rightIdx << 2)));
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
