import fc from 'fast-check';
import { loadCore, type Core } from './core';

let shared: Promise<Core> | null = null;
/** One instance of the built core per test file (build it first: npm run build:wasm). */
export const core = () => (shared ??= loadCore());

export interface Chunk {
  time: number[];
  value: number[];
}

const f32 = fc.float({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 });

/** Small chunks over a narrow time domain: duplicates, unsorted points and empties are common. */
export const smallChunk = fc
  .array(fc.tuple(fc.integer({ min: 0, max: 400 }), f32), { maxLength: 60, size: 'max' })
  .chain((rows) =>
    fc.constantFrom('asis', 'sorted', 'reversed').map((order) => {
      const r = order === 'asis' ? rows : [...rows].sort((a, b) => (order === 'sorted' ? a[0] - b[0] : b[0] - a[0]));
      return { time: r.map(([t]) => t * 60_000), value: r.map(([, v]) => Math.fround(v)) };
    }),
  );

/** Large chunks: runs of 1-minute points that overlap their neighbours, large enough to stay segments. */
export const largeChunk = fc
  .record({
    start: fc.integer({ min: 0, max: 40_000 }),
    length: fc.integer({ min: 0, max: 12_000 }),
    stride: fc.constantFrom(1, 1, 1, 2, 3),
    seed: fc.integer(),
    reversed: fc.boolean(),
  })
  .map(({ start, length, stride, seed, reversed }) => {
    const time: number[] = [];
    const value: number[] = [];
    let x = seed | 0;
    for (let i = 0; i < length; i++) {
      x = (Math.imul(x, 1103515245) + 12345) | 0;
      time.push((start + i * stride) * 60_000);
      value.push(Math.fround((x >>> 8) / 1000));
    }
    if (reversed) {
      time.reverse();
      value.reverse();
    }
    return { time, value };
  });

/** A sorted series with random gaps and values (for M4 and CSV). */
export const series = (maxLength: number) =>
  fc.array(fc.tuple(fc.integer({ min: 1, max: 5 * 60_000 }), f32), { maxLength, size: 'max' }).map((rows) => {
    const time = new Float64Array(rows.length);
    const value = new Float32Array(rows.length);
    let t = 1_700_000_000_000;
    rows.forEach(([dt, v], i) => {
      t += dt;
      time[i] = t;
      value[i] = v;
    });
    return { time, value };
  });

/** Exact equality of two numeric columns, reporting the first difference (fast on large arrays). */
export function expectSame(got: ArrayLike<number>, want: ArrayLike<number>, what = 'column'): void {
  if (got.length !== want.length) throw new Error(`${what}: length ${got.length}, expected ${want.length}`);
  for (let i = 0; i < got.length; i++) {
    if (!Object.is(got[i], want[i]) && !(got[i] === want[i])) throw new Error(`${what}[${i}]: ${got[i]}, expected ${want[i]}`);
  }
}

/** A seeded uniform generator in [0, 1) (mulberry32). */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A standard normal draw from a uniform generator (Box-Muller). */
export const gauss = (u: () => number) => Math.sqrt(-2 * Math.log(1 - u())) * Math.cos(2 * Math.PI * u());

export interface TankTruth {
  time: Float64Array;
  raw: Float32Array;
  /** Deliveries: start time, volume (l). */
  fills: { start: number; volume: number }[];
  /** True volume (l) at the last point, and the use a day on each weekday (Sunday 0). */
  volume: number;
  weekday: number[];
}

/**
 * A vertical cylindrical tank (diameter 2.5 m, offset 3000 mm: level = 3000 - distance) read
 * every `stepMin` minutes with Gaussian noise of `noiseMm`: use between 06:00 and 22:00 UTC at
 * `weekday[day]` litres a day (with +-30% wander from hour to hour), a delivery of `fill` litres at
 * 400 l/min whenever the volume falls below `refillBelow` (never with `refillBelow` 0), offline
 * stretches where `offline(t)` says so, and a slow rain inflow of `rain` litres a day in
 * afternoons (a drift, not a fill).
 */
export function syntheticTank(o: {
  seed: number;
  start: number;
  days: number;
  stepMin?: number;
  noiseMm?: number;
  start_volume: number;
  weekday: number[];
  fill?: number;
  refillBelow?: number;
  rain?: number;
  offline?: (t: number) => boolean;
}): TankTruth {
  const u = rng(o.seed);
  const step = (o.stepMin ?? 1) * 60_000;
  const n = Math.floor((o.days * 86_400_000) / step);
  const area = Math.PI * 1.25 * 1.25; // m²: 1 mm of level is area litres
  const time = new Float64Array(n);
  const raw = new Float32Array(n);
  const fills: { start: number; volume: number }[] = [];
  let v = o.start_volume;
  let filling = 0;
  let wander = 1;
  let k = 0;
  for (let i = 0; i < n; i++) {
    const t = o.start + i * step;
    const hour = (t / 3_600_000) % 24;
    if (i % 60 === 0) wander = 0.7 + 0.6 * u();
    const day = new Date(t).getUTCDay();
    if (hour >= 6 && hour < 22) v -= ((o.weekday[day] / (16 * 60)) * wander * step) / 60_000;
    if (o.rain && hour >= 12 && hour < 18) v += ((o.rain / (6 * 60)) * step) / 60_000;
    if (v < 0) v = 0;
    if (filling > 0) {
      const add = Math.min(filling, (400 * step) / 60_000);
      v += add;
      filling -= add;
    } else if (o.refillBelow && v < o.refillBelow && hour >= 8 && hour < 16) {
      fills.push({ start: t, volume: o.fill! });
      filling = o.fill!;
    }
    if (o.offline?.(t)) continue;
    const levelMm = v / area + gauss(u) * (o.noiseMm ?? 2);
    time[k] = t;
    raw[k] = Math.fround(3000 - levelMm);
    k++;
  }
  return { time: time.slice(0, k), raw: raw.slice(0, k), fills, volume: v, weekday: o.weekday };
}
