import fc from 'fast-check';
import Fuse from 'fuse.js';
import { describe, expect, it } from 'vitest';
import { createFleetSearch } from './fleet-search';
import { SEARCH_THRESHOLD } from './sensor-search';

// The reference: plain Fuse with the spec's options (monitoring-client 5: fuzzy over name and serial, threshold 0.2).
const fuseAnswer = (items: { name: string; serial: string }[], q: string) =>
  q.trim() ? new Fuse(items, { keys: ['name', 'serial'], threshold: SEARCH_THRESHOLD, ignoreLocation: true }).search(q.trim()).map((r) => r.refIndex) : null;

const TOWNS = ['Kaitāia', 'Whangārei', 'Thames', 'Palmerston North', 'Ōamaru', 'Wānaka', 'Gore'];
const KINDS = ['Reservoir', 'Bore', 'Stock Tank', 'River Gauge', 'Stormwater Pit', 'Diesel Tank', 'Weir'];
const serialOf = (i: number) => `F${i.toString(16).toUpperCase().padStart(7, '0')}`;

// Seed-like names (town, kind, number) and odd ones: short, blank, spaced, upper case, repeated letters.
const sensor = fc.oneof(
  { weight: 4, arbitrary: fc.record({ t: fc.constantFrom(...TOWNS), k: fc.constantFrom(...KINDS), i: fc.integer({ min: 1, max: 120_000 }) }).map(({ t, k, i }) => ({ name: `${t} ${k} ${i}`, serial: serialOf(i) })) },
  { weight: 2, arbitrary: fc.record({ name: fc.string({ unit: fc.constantFrom('a', 'b', 'A', 'n', ' ', 'ā', '1', 'Σ', 'İ', '\u0000'), maxLength: 14 }), serial: fc.string({ unit: fc.constantFrom('A', 'B', '1', 'F', '0'), maxLength: 8 }) }) },
  { weight: 1, arbitrary: fc.record({ name: fc.string({ maxLength: 40 }), serial: fc.string({ maxLength: 8 }) }) },
);

// Queries: pieces of the fleet's own names and serials with a few edits, and free text of every length (past Fuse's 32-character chunks).
const edit = (s: string, ops: [number, number, string][]) => {
  let out = s;
  for (const [kind, at, c] of ops) {
    const p = out.length ? at % (out.length + 1) : 0;
    if (kind === 0) out = out.slice(0, p) + c + out.slice(p);
    else if (kind === 1) out = out.slice(0, p) + out.slice(p + 1);
    else out = out.slice(0, p) + c + out.slice(p + 1);
  }
  return out;
};
const opsArb = fc.array(fc.tuple(fc.integer({ min: 0, max: 2 }), fc.nat(60), fc.constantFrom('a', 'e', 'x', ' ', '1', 'F')), { maxLength: 3 });

describe('fleet search answers exactly as plain Fuse (monitoring-client 5: fuzzy over name and serial, threshold 0.2)', () => {
  it('on random fleets, for pieces of their names and serials with edits: the same sensors in the same order', () => {
    fc.assert(
      fc.property(fc.array(sensor, { minLength: 1, maxLength: 60 }), fc.nat(), fc.nat(40), fc.nat(40), fc.boolean(), opsArb, (items, pick, from, len, useSerial, ops) => {
        const s = items[pick % items.length]!;
        const text = (useSerial ? s.serial : s.name) + ' ' + s.name;
        const q = edit(text.slice(from % (text.length + 1), (from % (text.length + 1)) + len), ops);
        expect(createFleetSearch(items)(q)).toEqual(fuseAnswer(items, q));
      }),
      { numRuns: 1500 },
    );
  });

  it('on random fleets, for free text of any length: the same sensors in the same order', () => {
    fc.assert(
      fc.property(fc.array(sensor, { minLength: 1, maxLength: 40 }), fc.oneof(fc.string({ maxLength: 80 }), fc.string({ unit: fc.constantFrom('a', 'n', 'b', ' ', 'r', 'e'), maxLength: 70 })), (items, q) => {
        expect(createFleetSearch(items)(q)).toEqual(fuseAnswer(items, q));
      }),
      { numRuns: 1500 },
    );
  });

  it('finds with a typo, by serial, and by an exact name; a trimmed empty query shows all (null)', () => {
    const items = [
      { name: 'Thames Reservoir 12', serial: 'F000000C' },
      { name: 'Gore Bore 7', serial: 'F0000007' },
      { name: 'Bore', serial: 'AB12CD34' },
    ];
    const search = createFleetSearch(items);
    expect(search('Resevoir')).toEqual([0]);
    expect(search('ab12')).toEqual([2]);
    // the whole name scores 0 and comes first
    expect(search('bore')).toEqual([2, 1]);
    expect(search('  ')).toBeNull();
    expect(search('zzqy')).toEqual([]);
  });
});
