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
