// Reference for assembly/m4.ts: the same column function, galloping column ends and first-extreme
// rule, in plain TypeScript (scalar where the core uses f32x4).
import type { ConversionParams } from '../conversion';
import { refConvert } from './convert';

export interface M4Result {
  time: Float64Array;
  value: Float64Array;
}

/** The pixel column of time t (ms) for window [t0, t1] at width W: Math.round of uPlot's x. */
export function columnOf(t: number, t0: number, t1: number, W: number): number {
  const s0 = t0 / 1000;
  const s1 = t1 / 1000;
  const span = s1 - s0 > 0 ? s1 - s0 : 1;
  return Math.floor(W * ((t / 1000 - s0) / span) + 0.5);
}

export function lowerBound(time: ArrayLike<number>, t: number, upper = false): number {
  let lo = 0;
  let hi = time.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (time[mid] < t || (upper && time[mid] === t)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** M4 of sorted (time ms, value) inside [t0, t1]: per column first, min, max, last in time order. */
export function refM4(time: Float64Array, value: Float32Array, t0: number, t1: number, width: number): M4Result {
  const W = width;
  const s0 = t0 / 1000;
  const s1 = t1 / 1000;
  const span = s1 - s0 > 0 ? s1 - s0 : 1;
  const column = (t: number) => Math.floor(W * ((t / 1000 - s0) / span) + 0.5);
  const outT: number[] = [];
  const outV: number[] = [];
  let guess = 1;
  let i = lowerBound(time, t0);
  const hi = lowerBound(time, t1, true);
  while (i < hi) {
    const c = column(time[i]);
    // column end: gallop from the previous column's length, then binary search
    let lo = i + 1;
    let up = hi;
    const p = i + guess;
    if (p < hi) {
      if (column(time[p]) > c) {
        up = p;
        for (let step = 1; ; step <<= 1) {
          const q = up - step;
          if (q < lo) break;
          if (column(time[q]) > c) up = q;
          else {
            lo = q + 1;
            break;
          }
        }
      } else {
        lo = p + 1;
        for (let step = 1; ; step <<= 1) {
          const q = p + step;
          if (q >= hi) break;
          if (column(time[q]) > c) {
            up = q;
            break;
          }
          lo = q + 1;
        }
      }
    }
    while (lo < up) {
      const mid = (lo + up) >>> 1;
      if (column(time[mid]) > c) up = mid;
      else lo = mid + 1;
    }
    const e = lo;
    let mi = i;
    let xi = i;
    let mn = value[i];
    let mx = mn;
    for (let j = i + 1; j < e; j++) {
      const v = value[j];
      if (v < mn) {
        mn = v;
        mi = j;
      }
      if (v > mx) {
        mx = v;
        xi = j;
      }
    }
    let last = -1;
    for (const k of [i, Math.min(mi, xi), Math.max(mi, xi), e - 1]) {
      if (k === last) continue;
      outT.push(time[k]);
      outV.push(value[k]);
      last = k;
    }
    guess = e - i;
    i = e;
  }
  return { time: Float64Array.from(outT), value: Float64Array.from(outV) };
}

/** Reference of the store view: M4 of the raw columns, edge points, converted, times in seconds. */
export function refView(time: Float64Array, value: Float32Array, t0: number, t1: number, width: number, p: ConversionParams) {
  const m = refM4(time, value, t0, t1, width);
  const a = lowerBound(time, t0);
  const b = lowerBound(time, t1, true);
  const t: number[] = [];
  const v: number[] = [];
  if (a > 0) {
    t.push(time[a - 1]);
    v.push(value[a - 1]);
  }
  t.push(...m.time);
  v.push(...m.value);
  if (b < time.length) {
    t.push(time[b]);
    v.push(value[b]);
  }
  const conv = v.map((x) => refConvert(p, x));
  const inside = conv.slice(a > 0 ? 1 : 0, (a > 0 ? 1 : 0) + m.time.length);
  let min = NaN;
  let max = NaN;
  inside.forEach((x, k) => {
    if (k === 0) {
      min = x;
      max = x;
    } else {
      if (x < min) min = x;
      if (x > max) max = x;
    }
  });
  return { time: Float64Array.from(t, (x) => x / 1000), value: Float64Array.from(conv), min, max, rawPoints: b - a };
}
