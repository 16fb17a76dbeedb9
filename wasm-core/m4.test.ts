import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { conversionParams } from './conversion';
import { columnOf, lowerBound, refM4, refView } from './reference/m4';
import { core, expectSame, series } from './test-kit';

// Issue 5 "The core": M4 downsampling of any visible window to the chart's pixel width,
// pixel-exact for line charts; zoom and pan re-downsample from the full-resolution store.
const c = await core();

const windowOf = (time: Float64Array, a: number, b: number) => {
  if (time.length === 0) return [0, 1] as const;
  const lo = time[0] - 60_000;
  const hi = time[time.length - 1] + 60_000;
  const t0 = lo + ((hi - lo) * Math.min(a, b)) / 1000;
  const t1 = lo + ((hi - lo) * Math.max(a, b)) / 1000;
  return [Math.round(t0), Math.round(t1)] as const;
};

/** Pixels of a polyline: integer columns, rounded rows, Bresenham between points, clipped to the grid. */
function raster(xs: number[], ys: number[], W: number, H: number): Set<number> {
  const px = new Set<number>();
  const plot = (x: number, y: number) => {
    if (x >= 0 && x <= W && y >= 0 && y <= H) px.add(y * (W + 1) + x);
  };
  for (let i = 0; i < xs.length; i++) {
    if (i === 0) {
      plot(xs[0], ys[0]);
      continue;
    }
    let x0 = xs[i - 1];
    let y0 = ys[i - 1];
    const x1 = xs[i];
    const y1 = ys[i];
    const dx = Math.abs(x1 - x0);
    const dy = -Math.abs(y1 - y0);
    const sx = x0 < x1 ? 1 : -1;
    const sy = y0 < y1 ? 1 : -1;
    let err = dx + dy;
    for (;;) {
      plot(x0, y0);
      if (x0 === x1 && y0 === y1) break;
      const e2 = 2 * err;
      if (e2 >= dy) {
        err += dy;
        x0 += sx;
      }
      if (e2 <= dx) {
        err += dx;
        y0 += sy;
      }
    }
  }
  return px;
}

describe('m4', () => {
  it('agrees with the TypeScript reference on random series, windows and widths', () => {
    fc.assert(
      fc.property(series(3000), fc.integer({ min: 0, max: 1000 }), fc.integer({ min: 0, max: 1000 }), fc.integer({ min: 1, max: 300 }), (s, a, b, W) => {
        const [t0, t1] = windowOf(s.time, a, b);
        const got = c.m4(s.time, s.value, t0, t1, W);
        const want = refM4(s.time, s.value, t0, t1, W);
        expectSame(got.time, want.time, 'time');
        expectSame(got.value, want.value, 'value');
      }),
      { numRuns: 300 },
    );
  });

  it('agrees with the reference on long and on many columns: even, gappy and jittered times; ties, signs and zeros', () => {
    // Long columns take the block scan (integer fast path, float path when a sign bit shows up)
    // and the predicted column ends (confirmed, or found again after a gap).
    const values = ['ties', 'positive', 'negative', 'mixed', 'zeros'] as const;
    const times = ['even', 'gaps', 'jitter'] as const;
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 40_000 }),
        fc.integer({ min: 0, max: 2 ** 31 }),
        fc.constantFrom(...values),
        fc.constantFrom(...times),
        fc.oneof(fc.integer({ min: 1, max: 60 }), fc.integer({ min: 1, max: 2000 })),
        fc.integer({ min: 0, max: 1000 }),
        fc.integer({ min: 0, max: 1000 }),
        (n, seed, vk, tk, W, a, b) => {
          const time = new Float64Array(n);
          const value = new Float32Array(n);
          let x = seed | 1;
          const rnd = () => ((x = (Math.imul(x, 1103515245) + 12345) | 0) >>> 8) / 2 ** 24;
          let t = 1_700_000_000_000;
          for (let i = 0; i < n; i++) {
            t += tk === 'even' ? 60_000 : tk === 'gaps' ? (rnd() < 0.01 ? 60_000 * Math.floor(1 + rnd() * 2000) : 60_000) : 1 + Math.floor(rnd() * 120_000);
            time[i] = t;
            const r = rnd();
            value[i] =
              vk === 'ties' ? Math.floor(r * 7) : vk === 'positive' ? r * 5000 : vk === 'negative' ? -1 - r * 5000 : vk === 'mixed' ? (r - 0.5) * 100 : r < 0.3 ? -0 : r < 0.6 ? 0 : r < 0.8 ? 1 : -1;
          }
          const [t0, t1] = windowOf(time, a, b);
          const got = c.m4(time, value, t0, t1, W);
          const want = refM4(time, value, t0, t1, W);
          expectSame(got.time, want.time, 'time');
          expectSame(got.value, want.value, 'value');
        },
      ),
      { numRuns: 150 },
    );
  });

  it('answers nothing for an empty series and the point itself for a single one', () => {
    expect(c.m4(new Float64Array(), new Float32Array(), 0, 10, 5).time.length).toBe(0);
    const one = c.m4(Float64Array.of(5), Float32Array.of(2), 0, 10, 5);
    expect(Array.from(one.time)).toEqual([5]);
    expect(Array.from(one.value)).toEqual([2]);
  });

  it('keeps per column the first, last, minimum and maximum point, in time order', () => {
    fc.assert(
      fc.property(series(2000), fc.integer({ min: 1, max: 120 }), (s, W) => {
        const [t0, t1] = windowOf(s.time, 0, 1000);
        const m = c.m4(s.time, s.value, t0, t1, W);
        const cols = new Map<number, number[]>();
        s.time.forEach((t, i) => {
          const k = columnOf(t, t0, t1, W);
          cols.set(k, [...(cols.get(k) ?? []), i]);
        });
        const byCol = new Map<number, number[]>();
        m.time.forEach((t, i) => {
          const k = columnOf(t, t0, t1, W);
          byCol.set(k, [...(byCol.get(k) ?? []), m.value[i]]);
        });
        for (const [k, idx] of cols) {
          const vals = idx.map((i) => s.value[i]);
          const out = byCol.get(k)!;
          expect(out[0]).toBe(vals[0]);
          expect(out[out.length - 1]).toBe(vals[vals.length - 1]);
          // + 0: -0 and +0 are the same value to M4 (ties keep the first point), not to Object.is
          expect(Math.min(...out) + 0).toBe(Math.min(...vals) + 0);
          expect(Math.max(...out) + 0).toBe(Math.max(...vals) + 0);
          expect(out.length).toBeLessThanOrEqual(4);
        }
        for (let i = 1; i < m.time.length; i++) expect(m.time[i]).toBeGreaterThan(m.time[i - 1]);
      }),
      { numRuns: 100 },
    );
  });

  it('draws the same pixels as the raw polyline (rasterised on a W x 60 grid)', () => {
    fc.assert(
      fc.property(series(2500), fc.integer({ min: 0, max: 1000 }), fc.integer({ min: 0, max: 1000 }), fc.integer({ min: 2, max: 200 }), (s, a, b, W) => {
        if (s.time.length === 0) return;
        const [t0, t1] = windowOf(s.time, a, b);
        const p = conversionParams('level', 500_000, null, 'Metres');
        const H = 60;
        const raw = refView(s.time, s.value, t0, t1, W, p); // only for the value range
        let lo = Infinity;
        let hi = -Infinity;
        for (const v of s.value) {
          lo = Math.min(lo, (500_000 - v) / 1000);
          hi = Math.max(hi, (500_000 - v) / 1000);
        }
        const yOf = (v: number) => Math.round(((v - lo) / (hi - lo || 1)) * H);
        // the raw polyline: every point, levels, through the same pixel mapping
        const xsRaw = Array.from(s.time, (t) => columnOf(t, t0, t1, W));
        const ysRaw = Array.from(s.value, (v) => yOf((500_000 - v) / 1000));
        const store = c.newStore();
        c.merge(store, s.time, s.value);
        const view = c.view(store, t0, t1, W, p);
        c.freeStore(store);
        const xsM4 = Array.from(view.time, (t) => columnOf(t * 1000, t0, t1, W));
        const ysM4 = Array.from(view.value, yOf);
        // keep the raw polyline to the part that reaches the window (one point beyond each edge)
        const from = Math.max(0, lowerBound(s.time, t0) - 1);
        const to = Math.min(s.time.length, lowerBound(s.time, t1, true) + 1);
        const want = raster(xsRaw.slice(from, to), ysRaw.slice(from, to), W, H);
        const got = raster(xsM4, ysM4, W, H);
        expect(raw.rawPoints).toBe(view.rawPoints);
        expect([...got].sort()).toEqual([...want].sort());
      }),
      { numRuns: 150 },
    );
  });
});

describe('storeView', () => {
  it('agrees with the reference view (edges, conversion, seconds, min and max) for every data mode', () => {
    const modes = [
      conversionParams('level', 4000, null, 'Metres'),
      conversionParams('level', 4000, null, 'Inches'),
      conversionParams('flow', 3000, { type: 'WEIR_FLOW_SCR', width: 1.2, flowCoefficient: 1.84, n: 1.5 }, 'Metres'),
      conversionParams('flow', 3000, { type: 'WEIR_FLOW_VN', width: 1, flowCoefficient: 1.38, n: 2.5 }, 'Metres'),
      conversionParams('flow', 3000, { type: 'PARSHALL_FLUME', x: 0.381, y: 1.58 }, 'Metres'),
      conversionParams('volume', 3000, { type: 'VOLUME_CYLINDER', diameter: 3 }, 'Metres'),
      conversionParams('volume', 3000, { type: 'VOLUME_CYLINDER_HORIZONTAL', diameter: 2, length: 5 }, 'Metres'),
      conversionParams('volume', 3000, { type: 'VOLUME_RECTANGULAR', width: 2, length: 3 }, 'Metres'),
    ];
    fc.assert(
      fc.property(series(3000), fc.integer({ min: 0, max: 1000 }), fc.integer({ min: 0, max: 1000 }), fc.integer({ min: 1, max: 200 }), fc.constantFrom(...modes), (s, a, b, W, p) => {
        const value = s.value.map((v) => Math.fround(Math.abs(v) % 5000));
        const store = c.newStore();
        // merge in two overlapping halves so the view crosses segments
        const h = s.time.length >> 1;
        c.merge(store, s.time.subarray(h), value.subarray(h));
        c.merge(store, s.time.subarray(0, h + 1), value.subarray(0, h + 1));
        const [t0, t1] = windowOf(s.time, a, b);
        const got = c.view(store, t0, t1, W, p);
        c.freeStore(store);
        const want = refView(s.time, value, t0, t1, W, p);
        expectSame(got.time, want.time, 'time');
        expectSame(got.value, want.value, 'value');
        expect(got.rawPoints).toBe(want.rawPoints);
        expect(got.min).toBe(want.min);
        expect(got.max).toBe(want.max);
      }),
      { numRuns: 200 },
    );
  });

  it('agrees with the reference view when columns continue across segments (several runs of 4,096+ points)', () => {
    const p = conversionParams('level', 4000, null, 'Metres');
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 31 }), fc.integer({ min: 0, max: 1000 }), fc.integer({ min: 0, max: 1000 }), fc.integer({ min: 1, max: 400 }), (seed, a, b, W) => {
        // three chunks that overlap nothing: each stays a segment of its own
        const n = 3 * 5000;
        const time = new Float64Array(n);
        const value = new Float32Array(n);
        let x = seed | 1;
        for (let i = 0; i < n; i++) {
          x = (Math.imul(x, 1103515245) + 12345) | 0;
          time[i] = 1_700_000_000_000 + i * 60_000;
          value[i] = (x >>> 20) % 97; // few distinct values: ties inside and across segments
        }
        const store = c.newStore();
        for (const k of [2, 0, 1]) c.merge(store, time.subarray(k * 5000, (k + 1) * 5000), value.subarray(k * 5000, (k + 1) * 5000));
        expect(c.segments(store)).toBe(3);
        const [t0, t1] = windowOf(time, a, b);
        const got = c.view(store, t0, t1, W, p);
        c.freeStore(store);
        const want = refView(time, value, t0, t1, W, p);
        expectSame(got.time, want.time, 'time');
        expectSame(got.value, want.value, 'value');
      }),
      { numRuns: 60 },
    );
  });

  it('re-downsamples a zoomed window from the store without losing full resolution', async () => {
    const store = c.newStore();
    const time = Float64Array.from({ length: 525_600 }, (_, i) => 1_700_000_000_000 + i * 60_000);
    const value = Float32Array.from(time, (_, i) => 1000 + (i % 1440));
    c.merge(store, time, value);
    const p = conversionParams('level', 3000, null, 'Metres');
    const year = c.view(store, time[0], time[time.length - 1], 1000, p);
    expect(year.rawPoints).toBe(525_600);
    expect(year.time.length).toBeLessThanOrEqual(4 * 1001);
    const t0 = time[100_000];
    const zoom = c.view(store, t0, t0 + 30 * 60_000, 1000, p); // the 30-minute minimum zoom
    expect(zoom.rawPoints).toBe(31);
    expect(zoom.time.length).toBe(33); // every point, plus one beyond each edge
    c.freeStore(store);
  });
});
