import { describe, expect, it } from 'vitest';
import { levelAt, sampleAt, unit, type SignalModel, type SignalSpec } from './signals';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const ANCHOR = Date.UTC(2026, 2, 3, 4, 5, 6);
const rain = { perDay: 0.15, meanMm: 300, peakHours: [4, 12] as [number, number], recessionDays: 2, slowShare: 0.3 };

const SPECS: SignalSpec[] = [
  { kind: 'tank', fullMm: 2500, emptyMm: 200, fullVarMm: 100, cycleHours: 96, jitter: 0.3, refillHours: 1, used: [0.5, 0.85], dailyAmp: 0.9, peakHour: 14, phase: 0.25 },
  { kind: 'tank', fullMm: 5600, emptyMm: 3000, fullVarMm: 250, cycleHours: 24, jitter: 0.02, refillHours: 8, used: [0.15, 0.35], dailyAmp: 0.7, peakHour: 8, phase: 0, startLocalHour: 22 },
  { kind: 'river', baseMm: 200, seasonalMm: 80, events: rain },
  { kind: 'tide', meanMm: 3000, m2Mm: 800, s2Mm: 150, surgeMm: 380, surgeHours: 20, highWaterBeforeAnchorMin: 10 },
  { kind: 'outfall', baseMm: 85, morningMm: 70, eveningMm: 50, rain },
  { kind: 'bore', baseMm: 5600, seasonalMm: 900, pumpMm: 700, recharge: { ...rain, recessionDays: 20 } },
];
const model = (spec: SignalSpec): SignalModel => ({ spec, seed: 42, anchor: ANCHOR, offsetMm: 9000, range: [10, 20000], noiseMm: 2, errorRate: 0.01, errorCodes: ['E1', 'E4'] });

describe('demo signal models (DESIGN.md live data: physically plausible signals that continue across restarts)', () => {
  it('draws uniform numbers from a counter: the same (seed, index) always gives the same number', () => {
    const xs = Array.from({ length: 10_000 }, (_, i) => unit(7, i));
    expect(xs).toEqual(Array.from({ length: 10_000 }, (_, i) => unit(7, i)));
    expect(Math.min(...xs)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...xs)).toBeLessThan(1);
    expect(xs.reduce((a, b) => a + b) / xs.length).toBeCloseTo(0.5, 1);
  });

  // the largest plausible change in 5 minutes: a 1-hour tanker refill, a nightly reservoir pump,
  // a flood rise, the tide's fastest flow, a storm into a sewer outfall, a bore pump starting
  const BOUNDS = [260, 60, 60, 45, 40, 40];
  it.each(SPECS.map((s, i) => [`${s.kind} ${i}`, s, BOUNDS[i]] as const))('%s: moves smoothly for a year, with no seam at the anchor', (_, spec, bound) => {
    const m = model(spec);
    let prev = levelAt(m, ANCHOR - 365 * DAY);
    let lo = prev;
    let hi = prev;
    let steepest = 0;
    for (let t = ANCHOR - 365 * DAY + 5 * MIN; t <= ANCHOR + 30 * DAY; t += 5 * MIN) {
      const level = levelAt(m, t);
      steepest = Math.max(steepest, Math.abs(level - prev));
      prev = level;
      lo = Math.min(lo, level);
      hi = Math.max(hi, level);
    }
    expect(steepest).toBeLessThan(bound);
    expect(Math.abs(levelAt(m, ANCHOR + MIN) - levelAt(m, ANCHOR - MIN))).toBeLessThan(bound / 2);
    expect(hi - lo).toBeGreaterThan(100); // it is not flat
  });

  it('puts the tide gauge at a surged spring high water when seeded', () => {
    const m = model(SPECS[3]);
    const hw = levelAt(m, ANCHOR - 10 * MIN);
    expect(hw).toBeGreaterThan(3000 + 800 + 150 + 300);
    expect(levelAt(m, ANCHOR - 10 * MIN + 6.21 * HOUR)).toBeLessThan(3000 - 500); // low water half a cycle later
  });

  it('samples raw distances as offset minus level, or an error code instead of the value', () => {
    const m = model(SPECS[2]);
    let errors = 0;
    for (let t = ANCHOR - DAY; t < ANCHOR; t += MIN) {
      const s = sampleAt(m, t);
      expect(sampleAt(m, t)).toEqual(s);
      if (s.code !== undefined) {
        errors++;
        expect(['E1', 'E4']).toContain(s.code);
      } else expect(Math.abs(9000 - levelAt(m, t) - s.rawDistance)).toBeLessThan(12);
    }
    expect(errors).toBeGreaterThan(3);
    expect(errors).toBeLessThan(40);
  });

  it('reports E2 (too far) and E3 (too close) outside the sensor type’s range', () => {
    const far = { ...model(SPECS[2]), offsetMm: 30_000, errorRate: 0 };
    const close = { ...model(SPECS[2]), offsetMm: 0, errorRate: 0 };
    expect(sampleAt(far, ANCHOR)).toEqual({ code: 'E2' });
    expect(sampleAt(close, ANCHOR)).toEqual({ code: 'E3' });
  });
});
