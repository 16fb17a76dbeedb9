import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { refSortChunk } from './reference/sort-chunk';
import { RefStore } from './reference/store';
import { core, expectSame, largeChunk, smallChunk, type Chunk } from './test-kit';

// Issue 5 "The core": merge and de-duplicate out-of-order, overlapping chunks into one sorted
// column store per sensor; the core and the TypeScript reference agree on random inputs.
const c = await core();

function mergeAll(chunks: Chunk[]) {
  const s = c.newStore();
  const ref = new RefStore();
  for (const ch of chunks) {
    const n = c.merge(s, ch.time, ch.value);
    expect(n).toBe(ref.merge(ch.time, ch.value));
  }
  const got = c.read(s);
  const want = ref.columns();
  const segments = c.segments(s);
  c.freeStore(s);
  return { got, want, segments };
}

describe('sortChunk', () => {
  it('agrees with the reference natural merge sort, keeping the later of equal times', () => {
    fc.assert(
      fc.property(smallChunk, (ch) => {
        const got = c.sortChunk(ch.time, ch.value);
        const want = refSortChunk(ch.time, ch.value);
        expect(got.time).toEqual(want.time);
        expect(got.value).toEqual(want.value);
      }),
      { numRuns: 300 },
    );
  });

  it('keeps the last value of a duplicated time', () => {
    const got = c.sortChunk([5, 1, 5, 3], [1, 2, 3, 4]);
    expect(Array.from(got.time)).toEqual([1, 3, 5]);
    expect(Array.from(got.value)).toEqual([2, 4, 3]);
  });
});

describe('storeMerge', () => {
  it('holds what the reference holds for small random chunks (empty, single, duplicate, unsorted)', () => {
    fc.assert(
      fc.property(fc.array(smallChunk, { maxLength: 10 }), (chunks) => {
        const { got, want } = mergeAll(chunks);
        expect(got.time).toEqual(want.time);
        expect(got.value).toEqual(want.value);
      }),
      { numRuns: 300 },
    );
  });

  it('holds what the reference holds for large overlapping chunks in any order', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(largeChunk, largeChunk, smallChunk), { minLength: 1, maxLength: 8 }), (chunks) => {
        const { got, want } = mergeAll(chunks);
        expectSame(got.time, want.time, 'time');
        expectSame(got.value, want.value, 'value');
      }),
      { numRuns: 100 },
    );
  }, 60_000);

  it('holds what the reference holds when overlaps interleave point by point, with ties and runs planted', () => {
    // Chunks that alternate with what is held (the zip's blocks), broken here and there by a
    // repeated time (the chunk wins) or two points in a row from one side; some chunks are not
    // ascending (two points swapped, at the ends or anywhere, or a time given twice), which the
    // merge finds only part way through.
    const interleaved = fc
      .record({
        start: fc.integer({ min: 0, max: 3_000 }),
        length: fc.integer({ min: 0, max: 6_000 }),
        parity: fc.constantFrom(0, 1),
        breaks: fc.array(fc.tuple(fc.integer({ min: 0, max: 6_000 }), fc.constantFrom('tie', 'skip', 'extra')), { maxLength: 6 }),
        seed: fc.integer(),
        disorder: fc.constantFrom('none', 'none', 'ends', 'swap', 'twice'),
        at: fc.nat(),
      })
      .map(({ start, length, parity, breaks, seed, disorder, at }) => {
        const times = new Set<number>();
        for (let i = 0; i < length; i++) times.add(2 * (start + i) + parity);
        for (const [at, kind] of breaks) {
          const t = 2 * (start + (at % Math.max(length, 1))) + parity;
          if (kind === 'tie') times.add(t + 1); // a time the other parity holds
          else if (kind === 'skip') times.delete(t);
          else times.add(t + 0.5);
        }
        const time = [...times].sort((a, b) => a - b);
        const i = at % Math.max(time.length - 1, 1);
        if (disorder === 'ends' && time.length > 2) [time[0], time[time.length - 1]] = [time[time.length - 1], time[0]];
        if (disorder === 'swap' && time.length > 2) [time[i], time[i + 1]] = [time[i + 1], time[i]];
        if (disorder === 'twice' && time.length > 2) time.splice(i, 0, time[i]);
        let x = seed | 0;
        const value = time.map(() => {
          x = (Math.imul(x, 1103515245) + 12345) | 0;
          return Math.fround((x >>> 8) / 1000);
        });
        return { time: time.map((t) => t * 60_000), value };
      });
    fc.assert(
      fc.property(fc.array(interleaved, { minLength: 1, maxLength: 6 }), (chunks) => {
        const { got, want } = mergeAll(chunks);
        expectSame(got.time, want.time, 'time');
        expectSame(got.value, want.value, 'value');
      }),
      { numRuns: 150 },
    );
  }, 60_000);

  it('lets a later chunk replace the values of times it repeats', () => {
    const { got } = mergeAll([
      { time: [1, 2, 3], value: [1, 1, 1] },
      { time: [2, 3, 4], value: [2, 2, 2] },
    ]);
    expect(Array.from(got.value)).toEqual([1, 2, 2, 2]);
  });

  it('keeps 25 fifteen-day chunks of a year as few segments and answers range bounds', () => {
    const s = c.newStore();
    const day = 1440;
    const order = [12, 3, 24, 0, 7, 18, 1, 9, 22, 5, 15, 2, 20, 11, 6, 23, 14, 4, 17, 8, 21, 10, 16, 13, 19];
    for (const k of order) {
      const time: number[] = [];
      for (let i = k * 15 * day - 60; i < Math.min((k + 1) * 15 * day + 60, 365 * day); i++) if (i >= 0) time.push(i * 60_000);
      c.merge(s, time, time.map((t) => t / 60_000));
    }
    expect(c.length(s)).toBe(525_600);
    expect(c.segments(s)).toBeLessThanOrEqual(25);
    expect(c.lowerBound(s, 60_000 * 100)).toBe(100);
    expect(c.upperBound(s, 60_000 * 100)).toBe(101);
    const r = c.read(s, 20_000, 3);
    expect(Array.from(r.value)).toEqual([20_000, 20_001, 20_002]);
    c.freeStore(s);
  });

  it('appends live points one at a time without growing the segment count', () => {
    const s = c.newStore();
    const base = Array.from({ length: 20_000 }, (_, i) => i * 60_000);
    c.merge(s, base, base.map(() => 1));
    for (let i = 20_000; i < 20_500; i++) c.merge(s, [i * 60_000], [2]);
    c.merge(s, [19_999 * 60_000], [3]); // a repeated live point replaces the stored one
    expect(c.length(s)).toBe(20_500);
    expect(c.segments(s)).toBe(1);
    expect(c.read(s, 19_999, 1).value[0]).toBe(3);
    c.freeStore(s);
  });
});
