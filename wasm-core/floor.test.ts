import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { refCopyBytes, refStreamFloor, refSumColumns } from './reference/floor';
import { core, series } from './test-kit';

// Issue 5 benchmark 1 and 3 floors (sequential sum, byte copy): the core and the reference agree.
const c = await core();

describe('benchmark floors', () => {
  it('sumColumns sums both columns like the reference (up to the order of additions)', () => {
    fc.assert(
      fc.property(series(500), (s) => {
        const x = c.x;
        const n = s.time.length;
        const t = x.alloc(n * 8);
        const v = x.alloc(n * 4);
        new Float64Array(x.memory.buffer, t, n).set(s.time);
        new Float32Array(x.memory.buffer, v, n).set(s.value);
        const got = x.sumColumns(t, v, n);
        const want = refSumColumns(s.time, s.value);
        x.free(t);
        x.free(v);
        expect(Math.abs(got - want)).toBeLessThanOrEqual(Math.abs(want) * 1e-6 + 1);
      }),
    );
  });

  it('streamFloor reads every value and every step-th time, like the reference', () => {
    fc.assert(
      fc.property(series(500), fc.integer({ min: 1, max: 70 }), (s, step) => {
        const x = c.x;
        const n = s.time.length;
        const t = x.alloc(n * 8);
        const v = x.alloc(n * 4);
        new Float64Array(x.memory.buffer, t, n).set(s.time);
        new Float32Array(x.memory.buffer, v, n).set(s.value);
        const got = x.streamFloor(t, v, n, step);
        x.free(t);
        x.free(v);
        expect(got).toBe(refStreamFloor(s.time, s.value, step));
      }),
    );
  });

  it('copyBytes copies like the reference', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        const x = c.x;
        const src = x.alloc(bytes.length);
        const dst = x.alloc(bytes.length);
        new Uint8Array(x.memory.buffer, src, bytes.length).set(bytes);
        x.copyBytes(dst, src, bytes.length);
        const want = new Uint8Array(bytes.length);
        refCopyBytes(want, bytes);
        expect(new Uint8Array(x.memory.buffer, dst, bytes.length)).toEqual(want);
        x.free(src);
        x.free(dst);
      }),
    );
  });
});
