import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KIND, type ConversionParams } from './conversion';
import { refForecast, refUsageFlow, refUsageVolume, DAY_MS } from './reference/usage';
import { core, rng, gauss, syntheticTank } from './test-kit';
import { analyseUsage, dayBounds, FORECAST_MIN_DAYS, FORECAST_WINDOW_DAYS, FORECAST_Z } from './usage';

// Issue 38: fills, daily use, flow totals and the forecast in the core, the same as the reference,
// and accurate on synthetic series whose truth is known.
const c = await core();
const T0 = Date.UTC(2026, 0, 5); // a Monday

const cylinder = (offsetMm: number, diameter: number): ConversionParams => ({ kind: KIND.VOLUME_CYLINDER, offsetMm, inches: false, a: diameter, b: 0, c: 0 });
const utcDays = (from: number, n: number) => Array.from({ length: n + 1 }, (_, i) => from + i * DAY_MS);

/** Tank-like series: drift, noise, steps up (fills) and down, gaps, duplicates, NaNs, now and then a point out of order. */
const tankSeries = fc
  .record({
    seed: fc.integer(),
    n: fc.integer({ min: 0, max: 3000 }),
    noise: fc.constantFrom(0, 0.5, 2, 20),
    stepMin: fc.constantFrom(1, 5, 15, 60),
    jumps: fc.array(fc.tuple(fc.integer({ min: 0, max: 2999 }), fc.integer({ min: -1500, max: 1500 })), { maxLength: 6 }),
    gaps: fc.array(fc.tuple(fc.integer({ min: 0, max: 2999 }), fc.integer({ min: 1, max: 600 })), { maxLength: 4 }),
    dupes: fc.integer({ min: 0, max: 20 }),
    nans: fc.integer({ min: 0, max: 5 }),
    swaps: fc.integer({ min: 0, max: 3 }),
  })
  .map((o) => {
    const u = rng(o.seed);
    const time: number[] = [];
    const raw: number[] = [];
    let level = 1500;
    let t = T0 + Math.floor(u() * 86_400_000);
    for (let i = 0; i < o.n; i++) {
      const gap = o.gaps.find(([at]) => at === i);
      t += (gap ? gap[1] : 1) * o.stepMin * 60_000;
      level -= 0.05 * o.stepMin;
      for (const [at, dy] of o.jumps) if (at === i) level += dy;
      time.push(t);
      raw.push(Math.fround(3000 - level + gauss(u) * o.noise));
    }
    for (let k = 0; k < o.dupes && time.length; k++) {
      const i = Math.floor(u() * time.length);
      time.splice(i + 1, 0, time[i]);
      raw.splice(i + 1, 0, Math.fround(raw[i] + 1));
    }
    for (let k = 0; k < o.nans && time.length; k++) raw[Math.floor(u() * raw.length)] = NaN;
    for (let k = 0; k < o.swaps && time.length > 2; k++) {
      const i = Math.floor(u() * (time.length - 1));
      [time[i], time[i + 1]] = [time[i + 1], time[i]];
    }
    return { time: Float64Array.from(time), raw: Float32Array.from(raw) };
  });

describe('usage: the core and the reference agree', () => {
  it('fills, daily use, noise and the volume now are the same as the reference', () => {
    fc.assert(
      fc.property(tankSeries, fc.double({ min: 0.5, max: 4, noNaN: true }), fc.constantFrom(0, 1, 5), (s, diameter, floor) => {
        const p = cylinder(3000, diameter);
        const B = utcDays(T0, 200);
        const got = c.usageVolume({ time: s.time, raw: s.raw }, p, B, floor);
        const want = refUsageVolume(s.time, s.raw, p, B, floor);
        expect(got).toEqual(want);
      }),
      { numRuns: 150 },
    );
  });

  it('reads a store in place the same as columns', () => {
    const s = c.newStore();
    const { time, raw } = syntheticTank({ seed: 3, start: T0, days: 20, start_volume: 9000, weekday: [700, 1500, 1500, 1500, 1500, 1500, 700], fill: 8000, refillBelow: 3000 });
    c.merge(s, time, raw);
    const p = cylinder(3000, 2.5);
    const B = utcDays(T0, 21);
    expect(c.usageVolume({ store: s, from: 0, count: c.length(s) }, p, B, 4.9)).toEqual(refUsageVolume(time, raw, p, B, 4.9));
    c.freeStore(s);
  });

  it('daily flow totals are the same as the reference', () => {
    fc.assert(
      fc.property(tankSeries, fc.constantFrom(KIND.WEIR_FLOW_SCR, KIND.WEIR_FLOW_VN, KIND.PARSHALL_FLUME), (s, kind) => {
        const p: ConversionParams = { kind, offsetMm: 3000, inches: false, a: 1.2, b: 1.8, c: 1.5 };
        const B = utcDays(T0, 200);
        const got = c.usageFlow({ time: s.time, raw: s.raw }, p, B);
        const want = refUsageFlow(s.time, s.raw, p, B);
        expect(got).toEqual(want);
      }),
      { numRuns: 100 },
    );
  });

  it('the forecast is the same as the reference', () => {
    const day = fc.record({ use: fc.double({ min: -5000, max: 5000, noNaN: true }), covered: fc.double({ min: 0, max: DAY_MS, noNaN: true }), fills: fc.constant(0), filled: fc.constant(0) });
    fc.assert(
      fc.property(fc.array(day, { maxLength: 120 }), fc.double({ min: -1000, max: 20000, noNaN: true }), fc.double({ min: -1000, max: 20000, noNaN: true }), fc.integer({ min: 1, max: 100 }), (days, now, target, window) => {
        const last = days.length;
        expect(c.forecast(days, 0, last, window, 3, now, target, 1.645)).toEqual(refForecast(days, 0, last, window, 3, now, target, 1.645));
      }),
      { numRuns: 200 },
    );
  });
});

describe('usage: the analysis is robust', () => {
  const p = cylinder(3000, 2.5);
  const B = utcDays(T0, 10);

  it('a fill is found once whatever the order, duplication and chunking of the points', () => {
    const { time, raw, fills } = syntheticTank({ seed: 7, start: T0, days: 9, start_volume: 5000, weekday: [1000, 1000, 1000, 1000, 1000, 1000, 1000], fill: 9000, refillBelow: 2000 });
    expect(fills.length).toBe(1);
    const direct = c.usageVolume({ time, raw }, p, B, 4.9);
    // the same points in reversed and overlapping chunks, merged by the store
    const s = c.newStore();
    const n = time.length;
    for (let k = 0; k < 12; k++) {
      const from = Math.floor((n * (11 - k)) / 12);
      const to = Math.min(n, Math.floor((n * (12 - k)) / 12) + 500);
      c.merge(s, Array.from(time.subarray(from, to)).reverse(), Array.from(raw.subarray(from, to)).reverse());
    }
    const merged = c.usageVolume({ store: s, from: 0, count: c.length(s) }, p, B, 4.9);
    c.freeStore(s);
    expect(merged).toEqual(direct);
    expect(direct.fills.length).toBe(1);
  });

  it('a single wild reading (a spike) is not a fill and does not change the day', () => {
    const time: number[] = [];
    const raw: number[] = [];
    for (let i = 0; i < 1440 * 2; i++) {
      time.push(T0 + i * 60_000);
      raw.push(Math.fround(1000 + i * 0.1));
    }
    const clean = c.usageVolume({ time, raw }, p, B, 4.9);
    raw[1000] = 200; // 800 mm higher for one reading
    const spiked = c.usageVolume({ time, raw }, p, B, 4.9);
    expect(spiked.fills).toEqual([]);
    expect(spiked.days[0].use).toBeCloseTo(clean.days[0].use, 6);
  });

  it('offline days are not covered and do not enter the forecast; a slow rise is not a fill', () => {
    const time: number[] = [];
    const raw: number[] = [];
    for (let i = 0; i < 1440 * 8; i++) {
      const t = T0 + i * 60_000;
      if (t >= T0 + 3 * DAY_MS && t < T0 + 5 * DAY_MS) continue; // two days offline
      time.push(t);
      // a slow rise of 100 mm over days 5 to 8 (drift), a fall before
      raw.push(Math.fround(t < T0 + 5 * DAY_MS ? 1000 + i * 0.05 : 1000 + 1440 * 5 * 0.05 - (i - 1440 * 5) * 0.02));
    }
    const r = c.usageVolume({ time, raw }, p, B, 4.9);
    expect(r.fills).toEqual([]);
    expect(r.days[3].covered).toBe(0);
    expect(r.days[4].covered).toBe(0);
    expect(r.days[2].covered).toBe(DAY_MS - 60_000); // the pair across the outage is not covered
  });
});

describe('usage: accuracy against a known truth', () => {
  const weekday = [600, 1400, 1500, 1450, 1550, 1300, 700];
  const p = cylinder(3000, 2.5);
  const floor = Math.PI * 1.25 * 1.25; // litres in 1 mm

  it('finds every fill, its volume within 2% and its time within 15 minutes, through noise, gaps and out-of-order chunks', () => {
    for (const seed of [1, 2, 3]) {
      const u = rng(seed * 97);
      const outages = Array.from({ length: 30 }, () => [T0 + u() * 360 * DAY_MS, (0.2 + u() * 2.5) * 3_600_000]);
      const offline = (t: number) => outages.some(([a, len]) => t >= a && t < a + len);
      const truth = syntheticTank({ seed, start: T0, days: 360, noiseMm: 3, start_volume: 12000, weekday, fill: 9000 + seed * 1000, refillBelow: 2500, rain: 60, offline });
      // out-of-order, overlapping chunks through the store
      const s = c.newStore();
      const n = truth.time.length;
      const order = Array.from({ length: 40 }, (_, i) => i).sort(() => u() - 0.5);
      for (const k of order) {
        const from = Math.floor((n * k) / 40);
        const to = Math.min(n, Math.floor((n * (k + 1)) / 40) + 100);
        c.merge(s, truth.time.subarray(from, to), truth.raw.subarray(from, to));
      }
      const r = c.usageVolume({ store: s, from: 0, count: c.length(s) }, p, utcDays(T0, 361), floor);
      c.freeStore(s);
      // fills whose start fell in an outage cannot be timed; the series places none there
      const timed = truth.fills.filter((f) => !offline(f.start) && !offline(f.start + 60_000));
      expect(timed.length).toBeGreaterThan(10);
      for (const f of timed) {
        const found = r.fills.filter((g) => Math.abs(g.start - f.start) <= 15 * 60_000);
        expect(found, `fill at ${new Date(f.start).toISOString()}`).toHaveLength(1);
        expect(Math.abs(found[0].volume - f.volume) / f.volume).toBeLessThan(0.02);
      }
      // and nothing else: every fill found is a delivery (one in an outage is found at the outage)
      for (const g of r.fills) expect(truth.fills.some((f) => Math.abs(g.start - f.start) <= 3 * 3_600_000)).toBe(true);
    }
  });

  it('finds no fill in five years of noisy consumption with rain drift and outages', () => {
    const u = rng(11);
    // 200 outages of up to 2 days, as a minute-by-minute flag
    const off = new Uint8Array(1826 * 1440);
    for (let k = 0; k < 200; k++) {
      const a = Math.floor(u() * off.length);
      off.fill(1, a, a + Math.floor(u() * 2 * 1440));
    }
    const truth = syntheticTank({
      seed: 5,
      start: T0,
      days: 1826,
      noiseMm: 4,
      start_volume: 6e6, // never runs dry in five years
      weekday,
      rain: 200,
      offline: (t) => off[(t - T0) / 60_000] === 1,
    });
    expect(truth.time.length).toBeGreaterThan(2_300_000);
    const r = c.usageVolume({ time: truth.time, raw: truth.raw }, p, utcDays(T0, 1826), floor);
    expect(r.fills).toEqual([]);
  });

  it('days until empty is within 10% of the truth once 3 weeks of history exist', () => {
    for (const [seed, days] of [
      [21, 22],
      [22, 30],
      [23, 60],
      [24, 100],
    ]) {
      const truth = syntheticTank({ seed, start: T0, days, noiseMm: 3, start_volume: 9000 + 1500 * days, weekday, fill: 8000, refillBelow: 1500 });
      const endTime = T0 + days * DAY_MS - 60_000;
      const usage = analyseUsage(
        c,
        { offsetMeasurement: 3000, conversionConfigs: [{ type: 'VOLUME_CYLINDER', diameter: 2.5 }], alarms: {} },
        { time: truth.time, raw: truth.raw },
        { timeZone: 'UTC', startTime: T0, endTime },
      );
      expect(usage?.kind).toBe('volume');
      if (usage?.kind !== 'volume') return;
      const empty = usage.forecasts.find((f) => f.target === 'empty')!;
      // the truth: the same use pattern carried on from the last point until nothing is left
      let v = truth.volume;
      let t = endTime;
      while (v > 0) {
        t += 60_000;
        const hour = (t / 3_600_000) % 24;
        if (hour >= 6 && hour < 22) v -= weekday[new Date(t).getUTCDay()] / 960;
      }
      const trueDays = (t - truth.time[truth.time.length - 1]) / DAY_MS;
      expect(Math.abs(empty.days! - trueDays) / trueDays, `seed ${seed}: ${empty.days} vs ${trueDays}`).toBeLessThan(0.1);
      expect(empty.early!).toBeLessThan(empty.days!);
      expect(empty.late!).toBeGreaterThan(empty.days!);
    }
  });

  it('no forecast with under 3 days of history; the window is at most 13 weeks', () => {
    const truth = syntheticTank({ seed: 31, start: T0, days: 2.9, start_volume: 9000, weekday });
    const sensor = { offsetMeasurement: 3000, conversionConfigs: [{ type: 'VOLUME_CYLINDER' as const, diameter: 2.5 }], alarms: {} };
    const u = analyseUsage(c, sensor, truth, { timeZone: 'UTC', startTime: T0, endTime: T0 + 2.9 * DAY_MS });
    expect(u?.kind === 'volume' && u.forecasts[0].days).toBeNull();
    expect(FORECAST_MIN_DAYS).toBe(3);
    const long = syntheticTank({ seed: 32, start: T0, days: 120, start_volume: 9e5, weekday });
    const v = analyseUsage(c, sensor, long, { timeZone: 'UTC', startTime: T0, endTime: T0 + 120 * DAY_MS - 60_000 });
    expect(v?.kind === 'volume' && v.forecasts[0].daysUsed).toBe(FORECAST_WINDOW_DAYS);
    expect(FORECAST_Z).toBeCloseTo(1.645);
  });
});

describe('usage: flow totals', () => {
  it('integrates a constant flow to its volume per day and splits days at local midnight', () => {
    const time: number[] = [];
    const raw: number[] = [];
    for (let i = 0; i <= 2 * 1440; i++) {
      time.push(Date.UTC(2026, 3, 4, 0, 0) + i * 60_000);
      raw.push(2500);
    }
    const { bounds } = dayBounds('Pacific/Auckland', time[0], time.at(-1)!);
    const r = c.usageFlow({ time, raw }, { kind: KIND.PARSHALL_FLUME, offsetMm: 3000, inches: false, a: 0.5, b: 1.5, c: 0 }, bounds);
    const q = Math.floor(0.5 * 0.5 * Math.sqrt(0.5) * 1000); // l/s, floored per spec
    const total = r.days.reduce((s, d) => s + d.use, 0);
    expect(total).toBeCloseTo((q * 2 * 86_400) / 1000, 6);
    // 5 April 2026 is the day New Zealand leaves daylight saving: 25 hours long
    const idx = bounds.findIndex((b, i) => bounds[i + 1] - b === 25 * 3_600_000);
    expect(idx).toBeGreaterThanOrEqual(0);
    expect(r.days[idx].use).toBeCloseTo((q * 25 * 3600) / 1000, 6);
  });
});
