/**
 * Deterministic, physically plausible water-level signals for the demo world and its simulator.
 *
 * Every model is a pure function of (model, time): the seed draws a year of history from it and
 * the simulator keeps evaluating the same function later, so the chart continues without a seam
 * across restarts. Randomness comes from a counter-based hash (seed, index), never Math.random.
 * Levels are millimetres above the sensor's datum; rawDistance = offsetMm - level.
 */

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
/** New Zealand standard time; daylight saving is ignored by the usage cycles. */
const NZ_OFFSET = 12 * HOUR;

/** Rain (or recharge) events: at most one per day-long bucket, counted from the anchor. */
export interface EventParams {
  perDay: number;
  meanMm: number;
  peakHours: [number, number];
  recessionDays: number;
  /** Share of an event that drains slowly (baseflow) rather than as the quick peak. */
  slowShare: number;
  /** No event starts in the days just before the anchor (keeps the seeded state calm). */
  quietDays?: number;
}

export interface TankSpec {
  kind: 'tank';
  fullMm: number;
  emptyMm: number;
  /** How much lower than fullMm a refill may stop. */
  fullVarMm: number;
  cycleHours: number;
  /** Fraction of a cycle by which refills may come early or late (below 0.5). */
  jitter: number;
  refillHours: number;
  /** Fraction of (full - empty) used per cycle, drawn uniformly in [min, max]. */
  used: [number, number];
  /** Daily swing of the usage rate (0 flat, 1 stops at night). */
  dailyAmp: number;
  peakHour: number;
  /** Fraction of a cycle elapsed at the anchor (keeps the state at seeding predictable). */
  phase: number;
  /** Daily cycles start at this local hour instead (reservoirs pumped at night). */
  startLocalHour?: number;
}

export interface RiverSpec {
  kind: 'river';
  baseMm: number;
  seasonalMm: number;
  events: EventParams;
}

export interface TideSpec {
  kind: 'tide';
  meanMm: number;
  m2Mm: number;
  s2Mm: number;
  /** A storm surge peaking just before the anchor, so the gauge is in alarm when seeded. */
  surgeMm: number;
  surgeHours: number;
  highWaterBeforeAnchorMin: number;
}

export interface OutfallSpec {
  kind: 'outfall';
  baseMm: number;
  morningMm: number;
  eveningMm: number;
  rain: EventParams;
}

export interface BoreSpec {
  kind: 'bore';
  baseMm: number;
  seasonalMm: number;
  pumpMm: number;
  recharge: EventParams;
}

export type SignalSpec = TankSpec | RiverSpec | TideSpec | OutfallSpec | BoreSpec;

export interface SignalModel {
  spec: SignalSpec;
  seed: number;
  /** Epoch ms the model is anchored to (the moment the world was seeded). */
  anchor: number;
  offsetMm: number;
  /** Allowed raw distance of the sensor type, mm (sensor-setup 5). */
  range: [number, number];
  noiseMm: number;
  errorRate: number;
  /** Codes drawn for random errors; repeat a code to weight it. */
  errorCodes: string[];
}

export type Sample = { rawDistance: number; code?: undefined } | { code: string; rawDistance?: undefined };

const M2 = 12.4206 * HOUR;
const S2 = 12 * HOUR;

/** Water level (mm above the datum) without sensor noise. */
export function levelAt(m: SignalModel, t: number): number {
  const s = m.spec;
  switch (s.kind) {
    case 'tank':
      return tankLevel(s, m.seed, m.anchor, t);
    case 'river':
      return s.baseMm + s.seasonalMm * seasonOf(t) + eventsAt(m.seed, 1, m.anchor, t, s.events);
    case 'tide': {
      const hw = m.anchor - s.highWaterBeforeAnchorMin * MIN;
      const surge = s.surgeMm * Math.exp(-(((t - m.anchor + HOUR) / (s.surgeHours * HOUR)) ** 2));
      const setup = 40 * Math.sin((2 * Math.PI * (t - m.anchor)) / (9.3 * DAY) + (m.seed % 7)); // weather set-up
      return s.meanMm + s.m2Mm * Math.cos((2 * Math.PI * (t - hw)) / M2) + s.s2Mm * Math.cos((2 * Math.PI * (t - hw)) / S2) + surge + setup + storms(m, t);
    }
    case 'outfall': {
      const h = localHour(t);
      const diurnal = s.morningMm * Math.exp(-(((h - 8) / 1.6) ** 2)) + s.eveningMm * Math.exp(-(((h - 19.5) / 2.2) ** 2));
      const night = h < 5 ? -0.35 * s.baseMm * Math.sin((Math.PI * h) / 5) : 0;
      return s.baseMm + diurnal + night + eventsAt(m.seed, 2, m.anchor, t, s.rain);
    }
    case 'bore': {
      const doy = (t / DAY) % 365.2425;
      const irrigation = Math.max(0, Math.cos((2 * Math.PI * (doy - 20)) / 365.2425)) ** 2;
      const h = localHour(t);
      // pumps run 06:00-18:00 in the irrigation season; drawdown approaches pumpMm, then recovers
      const pump = h >= 6 && h < 18 ? 1 - Math.exp(-(h - 6) / 2) : (1 - Math.exp(-6)) * Math.exp(-((h + 6) % 24) / 3);
      const seasonal = -s.seasonalMm * Math.cos((2 * Math.PI * (doy - 45)) / 365.2425);
      return s.baseMm + seasonal - s.pumpMm * irrigation * pump + eventsAt(m.seed, 3, m.anchor, t, s.recharge);
    }
  }
}

/** What the sensor reports at time t: a raw distance (mm, integer) or a measurement error code. */
export function sampleAt(m: SignalModel, t: number): Sample {
  const i = Math.floor(t / MIN);
  if (unit(m.seed, i, 99) < m.errorRate) return { code: m.errorCodes[Math.floor(unit(m.seed, i, 98) * m.errorCodes.length)] };
  const d = Math.round(m.offsetMm - levelAt(m, t) + m.noiseMm * gauss(m.seed, i));
  if (d > m.range[1]) return { code: 'E2' }; // too far
  if (d < m.range[0]) return { code: 'E3' }; // too close
  return { rawDistance: d };
}

function tankLevel(s: TankSpec, seed: number, anchor: number, t: number): number {
  const P = s.cycleHours * HOUR;
  let base = anchor - s.phase * P;
  if (s.startLocalHour !== undefined) base = Math.floor((anchor + NZ_OFFSET) / DAY) * DAY - NZ_OFFSET + (s.startLocalHour - 24) * HOUR;
  const start = (k: number) => base + k * P + (unit(seed, k, 7) - 0.5) * 2 * s.jitter * P;
  let k = Math.floor((t - base) / P);
  if (t < start(k)) k -= 1;
  else if (t >= start(k + 1)) k += 1;
  const full = (j: number) => s.fullMm - unit(seed, j, 8) * s.fullVarMm;
  const used = (j: number) => (s.used[0] + unit(seed, j, 9) * (s.used[1] - s.used[0])) * (s.fullMm - s.emptyMm);
  const s0 = start(k);
  const drawStart = s0 + s.refillHours * HOUR;
  if (t < drawStart) {
    const before = full(k - 1) - used(k - 1);
    const x = (t - s0) / (drawStart - s0);
    return before + (full(k) - before) * x * x * (3 - 2 * x);
  }
  // usage rate 1 + A·sin over the day, integrated in closed form between drawStart and t
  const w = (2 * Math.PI) / DAY;
  const ph = (s.peakHour - 6) * HOUR - NZ_OFFSET; // the sine peaks at peakHour local time
  const F = (x: number) => x - (s.dailyAmp / w) * Math.cos(w * (x - ph));
  const total = F(start(k + 1)) - F(drawStart);
  return full(k) - (used(k) * (F(t) - F(drawStart))) / total;
}

function storms(m: SignalModel, t: number): number {
  const B = 3 * DAY;
  const j0 = Math.floor((t - m.anchor) / B);
  let sum = 0;
  for (let j = j0 - 2; j <= j0 + 2; j++) {
    if (j === -1 || j === 0 || unit(m.seed, j, 20) > 0.25) continue; // the anchor's own surge is modelled apart
    const centre = m.anchor + (j + unit(m.seed, j, 21)) * B;
    const width = (12 + 18 * unit(m.seed, j, 22)) * HOUR;
    sum += (120 + 260 * unit(m.seed, j, 23)) * Math.exp(-(((t - centre) / width) ** 2));
  }
  return sum;
}

/** A uniform number in [0, 1) from (seed, index, salt): a counter-based PRNG. */
export function unit(seed: number, i: number, salt = 0): number {
  let h = Math.imul(seed ^ Math.imul(salt + 1, 0x9e3779b1), 0x85ebca6b) ^ (i | 0);
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d);
  h = Math.imul(h ^ (h >>> 15), 0x846ca68b);
  h ^= Math.imul((i / 4294967296) | 0, 0xc2b2ae35);
  h = Math.imul(h ^ (h >>> 16), 0x27d4eb2f);
  return ((h ^ (h >>> 15)) >>> 0) / 4294967296;
}

/** Noise of unit variance with a bell-ish (triangular) shape: two hashes instead of a Box-Muller. */
function gauss(seed: number, i: number): number {
  return (unit(seed, i, 31) + unit(seed, i, 32) - 1) * Math.SQRT2 * Math.sqrt(3);
}

const localHour = (t: number) => (((t + NZ_OFFSET) % DAY) + DAY) % DAY / HOUR;

/** 1 in mid-winter (July), -1 in mid-summer (January): southern hemisphere seasons. */
const seasonOf = (t: number) => Math.cos((2 * Math.PI * ((t / DAY) % 365.2425 - 196)) / 365.2425);

/** Sum of event hydrographs at t: a quick peak (gamma shape) plus a slow recession tail. */
function eventsAt(seed: number, salt: number, anchor: number, t: number, e: EventParams): number {
  const j0 = Math.floor((t - anchor) / DAY);
  const lookback = Math.ceil((5 * e.peakHours[1]) / 24 + 4 * e.recessionDays) + 1;
  let sum = 0;
  for (let j = j0 - lookback; j <= j0; j++) {
    if (e.quietDays && j >= -e.quietDays && j <= 0) continue;
    if (unit(seed, j, salt * 10 + 1) >= e.perDay * (1 + 0.5 * seasonOf(anchor + j * DAY))) continue; // wetter winters
    const start = anchor + (j + unit(seed, j, salt * 10 + 2)) * DAY;
    const dt = t - start;
    if (dt <= 0) continue;
    const size = e.meanMm * Math.min(4, -Math.log(1 - unit(seed, j, salt * 10 + 3)));
    const tp = (e.peakHours[0] + unit(seed, j, salt * 10 + 4) * (e.peakHours[1] - e.peakHours[0])) * HOUR;
    const x = dt / tp;
    const quick = x * x * Math.exp(2 * (1 - x));
    const slow = (1 - Math.exp(-x)) * Math.exp(-dt / (e.recessionDays * DAY));
    sum += size * ((1 - e.slowShare) * quick + e.slowShare * slow);
  }
  return sum;
}
