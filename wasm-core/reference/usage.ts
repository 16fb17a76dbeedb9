// Reference for assembly/usage.ts: the same algorithm, step for step, on plain arrays.
import type { ConversionParams } from '../conversion';
import { refConvert } from './convert';

export const GAP_MS = 3 * 3_600_000;
export const MERGE_MS = 30 * 60_000;
export const SIDE_MS = 30 * 60_000;
export const STEP_SIGMAS = 5 * Math.SQRT2;
export const FILL_SIGMAS = 10 * Math.SQRT2;
export const SAMPLES = 4096;
export const DAY_MS = 86_400_000;

/** One fill: start and end of the rise (ms), volume delivered and the levels either side (l). */
export interface Fill {
  start: number;
  end: number;
  volume: number;
  before: number;
  after: number;
}

/** A day's use (l) or flow (m³), the time it is covered by data (ms), its fills and their volume. */
export interface DayUse {
  use: number;
  covered: number;
  fills: number;
  filled: number;
}

export interface VolumeAnalysis {
  fills: Fill[];
  days: DayUse[];
  sigma: number;
  now: number;
  lastTime: number;
  points: number;
}

function compact(time: ArrayLike<number>, raw: ArrayLike<number>, p: ConversionParams): { T: number[]; V: number[] } {
  const T: number[] = [];
  const V: number[] = [];
  let prev = -Infinity;
  for (let i = 0; i < time.length; i++) {
    const t = time[i];
    const v = refConvert(p, Math.fround(raw[i]));
    if (!Number.isFinite(t) || !Number.isFinite(v) || t < prev) continue;
    if (t === prev) {
      V[V.length - 1] = v;
      continue;
    }
    T.push(t);
    V.push(v);
    prev = t;
  }
  return { T, V };
}

function noiseSigma(T: number[], V: number[], floor: number): number {
  const pairs = T.length - 1;
  if (pairs < 1) return floor;
  const stride = Math.max(1, Math.trunc(pairs / SAMPLES));
  const diffs: number[] = [];
  for (let i = 0; i < pairs && diffs.length <= SAMPLES; i += stride) {
    if (T[i + 1] - T[i] > GAP_MS) continue;
    diffs.push(Math.abs(V[i + 1] - V[i]));
  }
  let s = floor;
  if (diffs.length) {
    diffs.sort((a, b) => a - b);
    const med = diffs[diffs.length >> 1] / (0.6745 * Math.SQRT2);
    if (med > s) s = med;
  }
  return s;
}

function sideMean(T: number[], V: number[], i: number, dir: 1 | -1, limit: number): number {
  let sum = 0;
  let k = 0;
  for (let j = i; j >= 0 && j < T.length; j += dir) {
    if (dir < 0 ? T[j] < limit : T[j] > limit) break;
    sum += V[j];
    k++;
  }
  return sum / k;
}

/** Adds one pair to the days it spans (assembly/usage.ts `spread`). */
function spread(t0: number, v0: number, t1: number, v1: number, flow: boolean, useIt: boolean, B: ArrayLike<number>, days: DayUse[], d: number): number {
  const nd = days.length;
  while (d < nd && B[d + 1] <= t0) d++;
  const dt = t1 - t0;
  for (let k = d; k < nd; k++) {
    const b0 = B[k];
    const b1 = B[k + 1];
    if (b0 >= t1) break;
    const s = t0 > b0 ? t0 : b0;
    const e = t1 < b1 ? t1 : b1;
    if (e > s) {
      days[k].covered += e - s;
      if (useIt) {
        if (flow) {
          const qs = v0 + (v1 - v0) * ((s - t0) / dt);
          const qe = v0 + (v1 - v0) * ((e - t0) / dt);
          days[k].use += ((qs + qe) * 0.5 * (e - s)) / 1e6;
        } else {
          days[k].use += (v0 - v1) * ((e - s) / dt);
        }
      }
    }
    if (b1 >= t1) break;
  }
  return d;
}

const emptyDays = (nd: number): DayUse[] => Array.from({ length: Math.max(0, nd) }, () => ({ use: 0, covered: 0, fills: 0, filled: 0 }));

/** Fills and daily use of a tank (assembly/usage.ts `usageVolume`); B holds nd + 1 day bounds. */
export function refUsageVolume(time: ArrayLike<number>, raw: ArrayLike<number>, p: ConversionParams, B: ArrayLike<number>, floor: number): VolumeAnalysis {
  const { T, V } = compact(time, raw, p);
  const m = T.length;
  const days = emptyDays(B.length - 1);
  const sigma = noiseSigma(T, V, floor);
  const step = STEP_SIGMAS * sigma;
  const need = FILL_SIGMAS * sigma;
  const fills: Fill[] = [];
  const spans: [number, number][] = [];
  let i = 0;
  while (i < m - 1) {
    if (T[i + 1] - T[i] > GAP_MS || V[i + 1] - V[i] <= step) {
      i++;
      continue;
    }
    const a = i;
    let b = i + 1;
    for (let j = b; j < m - 1; j++) {
      if (T[j] - T[b] > MERGE_MS) break;
      if (T[j + 1] - T[j] > GAP_MS) break;
      if (V[j + 1] - V[j] > step) b = j + 1;
    }
    const before = sideMean(T, V, a, -1, T[a] - SIDE_MS);
    const after = b + 1 < m && T[b + 1] - T[b] <= SIDE_MS ? sideMean(T, V, b + 1, 1, T[b] + SIDE_MS) : V[b];
    const rise = after - before;
    if (rise > need) {
      fills.push({ start: T[a], end: T[b], volume: rise, before, after });
      spans.push([a, b]);
    }
    i = b;
  }
  let d = 0;
  let f = 0;
  for (let q = 0; q < m - 1; q++) {
    if (T[q + 1] - T[q] > GAP_MS) continue;
    while (f < spans.length && spans[f][1] <= q) f++;
    const inFill = f < spans.length && spans[f][0] <= q;
    d = spread(T[q], V[q], T[q + 1], V[q + 1], false, !inFill, B, days, d);
  }
  let k = 0;
  for (const fill of fills) {
    while (k < days.length && B[k + 1] <= fill.start) k++;
    if (k < days.length && fill.start >= B[k]) {
      days[k].fills += 1;
      days[k].filled += fill.volume;
    }
  }
  return {
    fills,
    days,
    sigma,
    now: m > 0 ? sideMean(T, V, m - 1, -1, T[m - 1] - SIDE_MS) : NaN,
    lastTime: m > 0 ? T[m - 1] : NaN,
    points: m,
  };
}

/** Daily flow totals in m³ with the covered time (assembly/usage.ts `usageFlow`). */
export function refUsageFlow(time: ArrayLike<number>, raw: ArrayLike<number>, p: ConversionParams, B: ArrayLike<number>): { days: DayUse[]; points: number; now: number; lastTime: number } {
  const { T, V } = compact(time, raw, p);
  const days = emptyDays(B.length - 1);
  let d = 0;
  for (let q = 0; q < T.length - 1; q++) {
    if (T[q + 1] - T[q] > GAP_MS) continue;
    d = spread(T[q], V[q], T[q + 1], V[q + 1], true, true, B, days, d);
  }
  const m = T.length;
  return { days, points: m, now: m > 0 ? V[m - 1] : NaN, lastTime: m > 0 ? T[m - 1] : NaN };
}

export interface Forecast {
  /** Days until the target at the rolling rate; NaN with too little history or use away from the target. */
  days: number;
  /** The band: reached this early with use one z-spread faster, this late with it slower. */
  early: number;
  late: number;
  /** Rolling use a day (negative: the tank is filling) and the day-to-day spread (l a day). */
  rate: number;
  spread: number;
  /** Days the rate is drawn from. */
  daysUsed: number;
}

function horizon(rate: number, spreadDay: number, z: number, need: number, sign: number): number {
  const zs = z * spreadDay;
  const r = (-sign * zs + Math.sqrt(zs * zs + 4 * rate * need)) / (2 * rate);
  return r * r;
}

/** assembly/usage.ts `forecastDays` over days [first, last). */
export function refForecast(days: readonly DayUse[], first: number, last: number, window: number, minDays: number, now: number, target: number, z: number): Forecast {
  const used: DayUse[] = [];
  for (let d = last - 1; d >= first && used.length < window; d--) if (days[d].covered >= DAY_MS / 2) used.push(days[d]);
  let use = 0;
  let cov = 0;
  for (const u of used) {
    use += u.use;
    cov += u.covered;
  }
  const out: Forecast = { days: NaN, early: NaN, late: NaN, rate: NaN, spread: NaN, daysUsed: used.length };
  if (used.length < minDays || used.length < 2) return out;
  const rate = (use / cov) * DAY_MS;
  let ss = 0;
  for (const u of used) {
    const r = (u.use / u.covered) * DAY_MS - rate;
    ss += r * r;
  }
  out.rate = rate;
  out.spread = Math.sqrt(ss / (used.length - 1));
  const need = rate > 0 ? now - target : target - now;
  const speed = Math.abs(rate);
  if (!(speed > 0) || !Number.isFinite(need) || !Number.isFinite(now)) return out;
  if ((rate > 0 && target > now) || (rate < 0 && target < now)) return out;
  if (need <= 0) return { ...out, days: 0, early: 0, late: 0 };
  out.early = horizon(speed, out.spread, z, need, 1);
  out.late = horizon(speed, out.spread, z, need, -1);
  out.days = need / speed;
  return out;
}
