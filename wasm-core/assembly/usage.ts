// Usage analysis beyond the spec (issue 38): fills and daily use of a tank from its volume
// series, daily flow totals of a weir or flume, and the days-until forecast. Algorithm and
// constants: wasm-core/README.md "Usage"; reference/usage.ts is the same algorithm in TypeScript.
import { convertValue } from './convert';

/** Points further apart than this are a gap: neither use, flow nor a fill is known across it. */
const GAP_MS: f64 = 3 * 3_600_000;
/** Rising steps closer than this to a candidate fill's end join it. */
const MERGE_MS: f64 = 30 * 60_000;
/** The level before and after a fill is the mean of the points this far either side of it. */
const SIDE_MS: f64 = 30 * 60_000;
/** A rising step exceeds STEP_SIGMAS noise deviations; a fill rises by FILL_SIGMAS. */
const STEP_SIGMAS: f64 = 5 * Math.SQRT2;
const FILL_SIGMAS: f64 = 10 * Math.SQRT2;
/** The noise is estimated from at most this many successive differences (median of |difference|). */
const SAMPLES: i32 = 4096;
const DAY_MS: f64 = 86_400_000;

let lastSigma: f64 = 0;
let lastNow: f64 = NaN;
let lastTime: f64 = NaN;
let lastFills: i32 = 0;
let lastPoints: i32 = 0;

/** Noise deviation of the last usageVolume (litres). */
export function usageSigma(): f64 {
  return lastSigma;
}
/** Volume now: the mean over the last SIDE_MS of the last usageVolume (NaN with no points). */
export function usageNow(): f64 {
  return lastNow;
}
/** Time of the last valid point of the last analysis (NaN with none). */
export function usageLastTime(): f64 {
  return lastTime;
}
/** Fills found by the last usageVolume (may exceed the room given; only the room is written). */
export function usageFills(): i32 {
  return lastFills;
}
/** Valid points (finite time and value, ascending) the last analysis used. */
export function usagePoints(): i32 {
  return lastPoints;
}

/**
 * Converts and compacts sorted columns (time f64 ms, raw f32) into (T, V) f64 columns: points
 * with a non-finite time or value are left out, equal times keep the later point, a time below
 * the one before it is left out (sorted input is the caller's promise; this only keeps it safe).
 */
function compact(tp: usize, rp: usize, n: i32, T: usize, V: usize): i32 {
  let m = 0;
  let prev: f64 = -Infinity;
  for (let i = 0; i < n; i++) {
    const t = load<f64>(tp + (<usize>i << 3));
    const v = convertValue(<f64>load<f32>(rp + (<usize>i << 2)));
    if (!isFinite(t) || !isFinite(v) || t < prev) continue;
    if (t == prev) {
      store<f64>(V + (<usize>(m - 1) << 3), v);
      continue;
    }
    store<f64>(T + (<usize>m << 3), t);
    store<f64>(V + (<usize>m << 3), v);
    prev = t;
    m++;
  }
  return m;
}

function heapSort(a: usize, n: i32): void {
  for (let start = (n >> 1) - 1; start >= 0; start--) siftDown(a, start, n);
  for (let end = n - 1; end > 0; end--) {
    const x = load<f64>(a);
    store<f64>(a, load<f64>(a + (<usize>end << 3)));
    store<f64>(a + (<usize>end << 3), x);
    siftDown(a, 0, end);
  }
}

function siftDown(a: usize, i: i32, n: i32): void {
  while (true) {
    let c = 2 * i + 1;
    if (c >= n) return;
    if (c + 1 < n && load<f64>(a + (<usize>(c + 1) << 3)) > load<f64>(a + (<usize>c << 3))) c++;
    const x = load<f64>(a + (<usize>i << 3));
    const y = load<f64>(a + (<usize>c << 3));
    if (x >= y) return;
    store<f64>(a + (<usize>i << 3), y);
    store<f64>(a + (<usize>c << 3), x);
    i = c;
  }
}

/**
 * Noise deviation from successive differences: sigma = median(|dV|) / (0.6745 * sqrt 2) over
 * every stride-th pair that is not a gap, at least `floor`.
 */
function noiseSigma(T: usize, V: usize, m: i32, floor: f64): f64 {
  const pairs = m - 1;
  if (pairs < 1) return floor;
  let stride = pairs / SAMPLES;
  if (stride < 1) stride = 1;
  const buf = heap.alloc(<usize>(SAMPLES + 1) << 3);
  let k = 0;
  for (let i = 0; i < pairs && k <= SAMPLES; i += stride) {
    const dt = load<f64>(T + (<usize>(i + 1) << 3)) - load<f64>(T + (<usize>i << 3));
    if (dt > GAP_MS) continue;
    store<f64>(buf + (<usize>k << 3), Math.abs(load<f64>(V + (<usize>(i + 1) << 3)) - load<f64>(V + (<usize>i << 3))));
    k++;
  }
  let s = floor;
  if (k > 0) {
    heapSort(buf, k);
    const med = load<f64>(buf + (<usize>(k >> 1) << 3)) / (0.6745 * Math.SQRT2);
    if (med > s) s = med;
  }
  heap.free(buf);
  return s;
}

/** Mean of V over points j with T[j] in [from, to], searching from index i outward (dir -1 or +1). */
function sideMean(T: usize, V: usize, m: i32, i: i32, dir: i32, limit: f64): f64 {
  let sum: f64 = 0;
  let k = 0;
  for (let j = i; j >= 0 && j < m; j += dir) {
    const t = load<f64>(T + (<usize>j << 3));
    if (dir < 0 ? t < limit : t > limit) break;
    sum += load<f64>(V + (<usize>j << 3));
    k++;
  }
  return sum / <f64>k;
}

// @ts-ignore: decorator
@inline function at(p: usize, i: i32): f64 {
  return load<f64>(p + (<usize>i << 3));
}

/**
 * Adds a pair's use (v0 - v1, or its integral for flow) and covered time to the days it spans,
 * split in proportion to time (flow: the trapezoid of the linear interpolation over each part).
 * Returns the day index to start the next pair from.
 */
function spread(t0: f64, v0: f64, t1: f64, v1: f64, flow: bool, useIt: bool, B: usize, nd: i32, d: i32, out: usize, stride: i32): i32 {
  while (d < nd && at(B, d + 1) <= t0) d++;
  let k = d;
  const dt = t1 - t0;
  while (k < nd) {
    const b0 = at(B, k);
    const b1 = at(B, k + 1);
    if (b0 >= t1) break;
    const s = t0 > b0 ? t0 : b0;
    const e = t1 < b1 ? t1 : b1;
    if (e > s) {
      const o = out + (<usize>(k * stride) << 3);
      store<f64>(o, load<f64>(o, 8) + (e - s), 8);
      if (useIt) {
        let part: f64;
        if (flow) {
          const qs = v0 + (v1 - v0) * ((s - t0) / dt);
          const qe = v0 + (v1 - v0) * ((e - t0) / dt);
          part = ((qs + qe) * 0.5 * (e - s)) / 1e6;
        } else {
          part = (v0 - v1) * ((e - s) / dt);
        }
        store<f64>(o, load<f64>(o) + part);
      }
    }
    if (b1 >= t1) break;
    k++;
  }
  return d;
}

/**
 * Fills and daily use of a tank. Input: sorted columns (time ms, raw distance f32) of n points,
 * converted with the conversion set by setConversion (a volume, litres). Day bounds B[0..nd]
 * (UTC ms of local midnights, ascending). Writes up to `room` fills as 5 f64 each (start time,
 * end time, volume, level before, level after) at fillsOut and 4 f64 per day (use l, covered ms,
 * fills, filled l) at daysOut (zeroed here). `floor` is the least noise deviation (litres).
 * Returns the number of fills written.
 */
export function usageVolume(tp: usize, rp: usize, n: i32, B: usize, nd: i32, floor: f64, fillsOut: usize, room: i32, daysOut: usize): i32 {
  const T = heap.alloc((<usize>max<i32>(n, 1)) << 3);
  const V = heap.alloc((<usize>max<i32>(n, 1)) << 3);
  const m = compact(tp, rp, n, T, V);
  lastPoints = m;
  memory.fill(daysOut, 0, (<usize>max<i32>(nd, 0)) * 32);
  const sigma = noiseSigma(T, V, m, floor);
  lastSigma = sigma;
  lastTime = m > 0 ? at(T, m - 1) : NaN;
  lastNow = m > 0 ? sideMean(T, V, m, m - 1, -1, at(T, m - 1) - SIDE_MS) : NaN;
  const step = STEP_SIGMAS * sigma;
  const need = FILL_SIGMAS * sigma;

  // pass 1: candidates (runs of rising steps) and the fills among them; a fill keeps its
  // indices (a, b) in the output until pass 2 has used them
  let fills = 0;
  let i = 0;
  const spans = heap.alloc((<usize>max<i32>(m, 1)) << 3);
  while (i < m - 1) {
    const dt = at(T, i + 1) - at(T, i);
    if (dt > GAP_MS || at(V, i + 1) - at(V, i) <= step) {
      i++;
      continue;
    }
    const a = i;
    let b = i + 1;
    let j = b;
    // extend while another rising step starts within MERGE_MS of b
    while (j < m - 1) {
      const tj = at(T, j);
      if (tj - at(T, b) > MERGE_MS) break;
      if (at(T, j + 1) - tj > GAP_MS) break;
      if (at(V, j + 1) - at(V, j) > step) b = j + 1;
      j++;
    }
    const before = sideMean(T, V, m, a, -1, at(T, a) - SIDE_MS);
    const after = b + 1 < m && at(T, b + 1) - at(T, b) <= SIDE_MS ? sideMean(T, V, m, b + 1, 1, at(T, b) + SIDE_MS) : at(V, b);
    const rise = after - before;
    if (rise > need) {
      if (fills < room) {
        const o = fillsOut + (<usize>(fills * 5) << 3);
        store<f64>(o, at(T, a));
        store<f64>(o, at(T, b), 8);
        store<f64>(o, rise, 16);
        store<f64>(o, before, 24);
        store<f64>(o, after, 32);
      }
      store<i32>(spans + (<usize>fills << 3), a);
      store<i32>(spans + (<usize>fills << 3), b, 4);
      fills++;
    }
    i = b;
  }
  lastFills = fills;

  // pass 2: daily use over every pair that is not a gap, pairs inside a fill covered but not used
  let d = 0;
  let f = 0;
  for (let p = 0; p < m - 1; p++) {
    const t0 = at(T, p);
    const t1 = at(T, p + 1);
    if (t1 - t0 > GAP_MS) continue;
    while (f < fills && load<i32>(spans + (<usize>f << 3), 4) <= p) f++;
    const inFill = f < fills && load<i32>(spans + (<usize>f << 3)) <= p;
    d = spread(t0, at(V, p), t1, at(V, p + 1), false, !inFill, B, nd, d, daysOut, 4);
  }
  // fills counted on the day of their start
  let k = 0;
  for (let q = 0; q < fills && q < room; q++) {
    const o = fillsOut + (<usize>(q * 5) << 3);
    const t = load<f64>(o);
    while (k < nd && at(B, k + 1) <= t) k++;
    if (k < nd && t >= at(B, k)) {
      const day = daysOut + (<usize>(k * 4) << 3);
      store<f64>(day, load<f64>(day, 16) + 1, 16);
      store<f64>(day, load<f64>(day, 24) + load<f64>(o, 16), 24);
    }
  }
  heap.free(spans);
  heap.free(T);
  heap.free(V);
  return fills < room ? fills : room;
}

/**
 * Daily flow totals of a weir or flume: sorted columns (time ms, raw f32) converted by the set
 * conversion (l/s), integrated by trapezoids over every pair that is not a gap; 2 f64 per day
 * (m³, covered ms) at daysOut. Returns the valid points used.
 */
export function usageFlow(tp: usize, rp: usize, n: i32, B: usize, nd: i32, daysOut: usize): i32 {
  const T = heap.alloc((<usize>max<i32>(n, 1)) << 3);
  const V = heap.alloc((<usize>max<i32>(n, 1)) << 3);
  const m = compact(tp, rp, n, T, V);
  lastPoints = m;
  lastTime = m > 0 ? at(T, m - 1) : NaN;
  lastNow = m > 0 ? at(V, m - 1) : NaN;
  memory.fill(daysOut, 0, (<usize>max<i32>(nd, 0)) * 16);
  let d = 0;
  for (let p = 0; p < m - 1; p++) {
    const t0 = at(T, p);
    const t1 = at(T, p + 1);
    if (t1 - t0 > GAP_MS) continue;
    d = spread(t0, at(V, p), t1, at(V, p + 1), true, true, B, nd, d, daysOut, 2);
  }
  heap.free(T);
  heap.free(V);
  return m;
}

let fRate: f64 = NaN;
let fSpread: f64 = NaN;
let fDays: i32 = 0;
let fEarly: f64 = NaN;
let fLate: f64 = NaN;

export function forecastRate(): f64 {
  return fRate;
}
export function forecastSpread(): f64 {
  return fSpread;
}
export function forecastDaysUsed(): i32 {
  return fDays;
}
export function forecastEarly(): f64 {
  return fEarly;
}
export function forecastLate(): f64 {
  return fLate;
}

/** Days H at which rate * H + sign * z * spread * sqrt(H) reaches need (rate, need > 0). */
function horizon(rate: f64, spreadDay: f64, z: f64, need: f64, sign: f64): f64 {
  const zs = z * spreadDay;
  const r = (-sign * zs + Math.sqrt(zs * zs + 4 * rate * need)) / (2 * rate);
  return r * r;
}

/**
 * Days until the volume `now` reaches `target` at the rolling daily use: days [first, last) of
 * the daily table (4 f64 a day: use, covered ms, ...), of which at most `window` (91) are used,
 * the newest first, each covered for at least half a day; none under `minDays` (3). The rate is
 * the covered-time weighted mean use a day, the spread the standard deviation of the days'
 * rates; the band is where the use of H days, rate * H +- z * spread * sqrt H, reaches the need.
 * Returns NaN when there is too little history or the use moves away from the target.
 */
export function forecastDays(days: usize, first: i32, last: i32, window: i32, minDays: i32, now: f64, target: f64, z: f64): f64 {
  let use: f64 = 0;
  let cov: f64 = 0;
  let k = 0;
  for (let d = last - 1; d >= first && k < window; d--) {
    const o = days + (<usize>(d * 4) << 3);
    const c = load<f64>(o, 8);
    if (c < DAY_MS / 2) continue;
    use += load<f64>(o);
    cov += c;
    k++;
  }
  fDays = k;
  fRate = NaN;
  fSpread = NaN;
  fEarly = NaN;
  fLate = NaN;
  if (k < minDays || k < 2) return NaN;
  const rate = (use / cov) * DAY_MS;
  let ss: f64 = 0;
  let j = 0;
  for (let d = last - 1; d >= first && j < k; d--) {
    const o = days + (<usize>(d * 4) << 3);
    const c = load<f64>(o, 8);
    if (c < DAY_MS / 2) continue;
    const r = (load<f64>(o) / c) * DAY_MS - rate;
    ss += r * r;
    j++;
  }
  const spreadDay = Math.sqrt(ss / <f64>(k - 1));
  fRate = rate;
  fSpread = spreadDay;
  // a falling tank moves toward a lower target, a filling one toward a higher one
  const need = rate > 0 ? now - target : target - now;
  const speed = Math.abs(rate);
  if (!(speed > 0) || !isFinite(need) || !isFinite(now)) return NaN;
  if ((rate > 0 && target > now) || (rate < 0 && target < now)) return NaN;
  if (need <= 0) {
    fEarly = 0;
    fLate = 0;
    return 0;
  }
  fEarly = horizon(speed, spreadDay, z, need, 1);
  fLate = horizon(speed, spreadDay, z, need, -1);
  return need / speed;
}
