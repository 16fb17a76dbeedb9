import { DateTime, IANAZone } from 'luxon';
import type { ConversionConfig } from '../src/contract/sensor.schema';
import { conversionParams, isFlow, isVolume, type ConversionParams } from './conversion';
import type { Core } from './core';
import { volumeAtLevel as volumeAt } from './tank-level';
import { DAY_MS, type DayUse, type Fill } from './reference/usage';

export type { DayUse, Fill, Forecast } from './reference/usage';

/** Rolling daily use: 13 weeks at most, shorter with less history, none under 3 days (issue 38). */
export const FORECAST_WINDOW_DAYS = 91;
export const FORECAST_MIN_DAYS = 3;
/** The band covers 90% of the day-to-day spread (z of the normal distribution). */
export const FORECAST_Z = 1.645;

/** The local days (and the range start, when it falls inside one) as UTC bounds, nd + 1 of them. */
export function dayBounds(timeZone: string, fromMs: number, toMs: number, splitAt?: number): { bounds: number[]; dates: string[] } {
  if (!IANAZone.isValidZone(timeZone)) throw new Error(`Unknown time zone: ${timeZone}`);
  let d = DateTime.fromMillis(fromMs, { zone: timeZone }).startOf('day');
  const bounds: number[] = [];
  const dates: string[] = [];
  while (d.toMillis() <= toMs) {
    const next = d.plus({ days: 1 });
    const s = d.toMillis();
    bounds.push(s);
    dates.push(d.toISODate()!);
    if (splitAt !== undefined && splitAt > s && splitAt < next.toMillis()) {
      bounds.push(splitAt);
      dates.push(d.toISODate()!);
    }
    d = next;
  }
  bounds.push(d.toMillis());
  return { bounds, dates };
}

export interface AlarmLike {
  type: string;
  threshold: number;
  enabled: boolean;
}

export interface UsageSensor {
  offsetMeasurement: number | null | undefined;
  conversionConfigs: ConversionConfig[];
  alarms: Record<string, AlarmLike>;
  /** displayInfo.maxLevel (mm of level): the tank's full level when set. */
  maxLevel?: number | null;
}

export interface UsageDay extends DayUse {
  date: string;
  start: number;
  end: number;
}

export interface UsageForecast {
  /** What is forecast: the tank's empty level, its low alarm, a chosen level, full or its high alarm. */
  target: 'empty' | 'low' | 'level' | 'full' | 'high';
  /** The target in litres and in mm of displayed level. */
  volume: number;
  levelMm: number;
  /** Days until the target at the rolling rate, and the band's early and late ends; null when not forecast. */
  days: number | null;
  early: number | null;
  late: number | null;
  /** When (epoch ms) at the rate, early and late; null when not forecast. */
  at: number | null;
  earliest: number | null;
  latest: number | null;
  /** Rolling use a day (l; negative when filling), its day-to-day spread, and the days it is drawn from. */
  rate: number | null;
  spread: number | null;
  daysUsed: number;
}

/** A number for JSON: NaN and infinities are null. */
const fin = (x: number): number | null => (Number.isFinite(x) ? x : null);

export interface TankUsage {
  kind: 'volume';
  /** Load the measurements from here (the range, the forecast's 13 weeks and this month). */
  days: UsageDay[];
  fills: Fill[];
  summary: { averageDaily: number | null; maxDaily: number | null; deliveries: number; delivered: number; lastFill: Fill | null; now: number | null; lastTime: number | null; sigma: number | null };
  forecasts: UsageForecast[];
}

export interface FlowUsage {
  kind: 'flow';
  days: UsageDay[];
  months: { month: string; total: number; covered: number }[];
  summary: { today: number; thisMonth: number; range: number; now: number | null; lastTime: number | null };
}

export type Usage = TankUsage | FlowUsage;

/** What the analysis needs loaded: from here to endTime (the range, 13 weeks of history and the month so far). */
export function usageLoadStart(timeZone: string, startTime: number, endTime: number): number {
  const month = DateTime.fromMillis(endTime, { zone: timeZone }).startOf('month').toMillis();
  return Math.min(startTime, endTime - (FORECAST_WINDOW_DAYS + 1) * DAY_MS, month);
}

/** The least noise deviation: the volume of 1 mm of level (a sensor reads millimetres), at 1 m or half the horizontal tank. */
function noiseFloor(p: ConversionParams, c: ConversionConfig): number {
  const at = c.type === 'VOLUME_CYLINDER_HORIZONTAL' ? Math.min(1000, (c.diameter * 1000) / 2) : 1000;
  return Math.abs(volumeAt(p, at + 1) - volumeAt(p, at)) || 1e-6;
}

function enabled(alarms: Record<string, AlarmLike>, type: string): number[] {
  return Object.values(alarms ?? {})
    .filter((a) => a.enabled && a.type === type && Number.isFinite(Number(a.threshold)))
    .map((a) => Number(a.threshold));
}

/**
 * Usage of one sensor over [startTime, endTime] from its sorted measurement columns (loaded from
 * usageLoadStart): a tank's fills, daily use and forecasts, or a weir's or flume's flow totals.
 * Returns null for a sensor with neither a volume nor a flow conversion. `levelMm`, when given,
 * adds a forecast to that level (mm of displayed level).
 */
export function analyseUsage(
  core: Core,
  sensor: UsageSensor,
  columns: { time: ArrayLike<number>; raw: ArrayLike<number> } | { store: number; from: number; count: number },
  o: { timeZone: string; startTime: number; endTime: number; levelMm?: number },
): Usage | null {
  const conversion = sensor.conversionConfigs[0] ?? null;
  if (!conversion || (!isVolume(conversion) && !isFlow(conversion))) return null;
  const loadStart = usageLoadStart(o.timeZone, o.startTime, o.endTime);
  const { bounds, dates } = dayBounds(o.timeZone, loadStart, o.endTime, o.startTime);
  const table = (days: DayUse[]): UsageDay[] => days.map((d, i) => ({ ...d, date: dates[i], start: bounds[i], end: bounds[i + 1] }));
  const inRange = (d: UsageDay) => d.start >= o.startTime && d.start <= o.endTime;
  const offset = sensor.offsetMeasurement ?? 0;

  if (isFlow(conversion)) {
    const p = conversionParams('flow', offset, conversion, 'Metres');
    const r = core.usageFlow(columns, p, bounds);
    const days = table(r.days);
    const months = new Map<string, { month: string; total: number; covered: number }>();
    for (const d of days) {
      const key = d.date.slice(0, 7);
      const m = months.get(key) ?? { month: key, total: 0, covered: 0 };
      m.total += d.use;
      m.covered += d.covered;
      months.set(key, m);
    }
    const endDay = DateTime.fromMillis(o.endTime, { zone: o.timeZone });
    const today = endDay.toISODate()!;
    const sum = (xs: UsageDay[]) => xs.reduce((s, d) => s + d.use, 0);
    return {
      kind: 'flow',
      days: days.filter(inRange),
      months: [...months.values()].filter((m) => m.month >= DateTime.fromMillis(o.startTime, { zone: o.timeZone }).toFormat('yyyy-MM')),
      summary: {
        today: sum(days.filter((d) => d.date === today)),
        thisMonth: months.get(today.slice(0, 7))?.total ?? 0,
        range: sum(days.filter(inRange)),
        now: Number.isFinite(r.now) ? r.now : null,
        lastTime: Number.isFinite(r.lastTime) ? r.lastTime : null,
      },
    };
  }

  const p = conversionParams('volume', offset, conversion, 'Metres');
  const r = core.usageVolume(columns, p, bounds, noiseFloor(p, conversion));
  const days = table(r.days);
  const shown = days.filter(inRange);
  const full = shown.filter((d) => d.covered >= DAY_MS / 2);
  const rates = full.map((d) => (d.use / d.covered) * DAY_MS);
  const fills = r.fills.filter((f) => f.start >= o.startTime && f.start <= o.endTime);
  const now = Number.isFinite(r.now) ? r.now : null;
  const lastTime = Number.isFinite(r.lastTime) ? r.lastTime : null;

  const forecasts: UsageForecast[] = [];
  if (now !== null && lastTime !== null) {
    // the rolling window ends before the (partial) day of the last point
    let last = days.findIndex((d) => d.end > lastTime);
    if (last < 0) last = days.length;
    const targets: { target: UsageForecast['target']; levelMm: number }[] = [{ target: 'empty', levelMm: 0 }];
    const low = enabled(sensor.alarms, 'THRESHOLD_DECREASING');
    if (low.length) targets.push({ target: 'low', levelMm: Math.max(...low) });
    if (o.levelMm !== undefined) targets.push({ target: 'level', levelMm: o.levelMm });
    const high = enabled(sensor.alarms, 'THRESHOLD_INCREASING');
    if (high.length) targets.push({ target: 'high', levelMm: Math.min(...high) });
    const fullLevel = sensor.maxLevel ?? (conversion.type === 'VOLUME_CYLINDER_HORIZONTAL' ? conversion.diameter * 1000 : null);
    if (fullLevel !== null && fullLevel !== undefined) targets.push({ target: 'full', levelMm: fullLevel });
    for (const t of targets) {
      const volume = volumeAt(p, t.levelMm);
      const f = core.forecast(r.days, 0, last, FORECAST_WINDOW_DAYS, FORECAST_MIN_DAYS, now, volume, FORECAST_Z);
      const when = (x: number) => (Number.isFinite(x) ? Math.round(lastTime + x * DAY_MS) : null);
      forecasts.push({
        target: t.target,
        volume,
        levelMm: t.levelMm,
        days: fin(f.days),
        early: fin(f.early),
        late: fin(f.late),
        at: when(f.days),
        earliest: when(f.early),
        latest: when(f.late),
        rate: fin(f.rate),
        spread: fin(f.spread),
        daysUsed: f.daysUsed,
      });
    }
  }

  return {
    kind: 'volume',
    days: shown,
    fills,
    summary: {
      averageDaily: rates.length ? full.reduce((s, d) => s + d.use, 0) / (full.reduce((s, d) => s + d.covered, 0) / DAY_MS) : null,
      maxDaily: rates.length ? Math.max(...rates) : null,
      deliveries: fills.length,
      delivered: fills.reduce((s, f) => s + f.volume, 0),
      lastFill: r.fills.at(-1) ?? null,
      now,
      lastTime,
      sigma: fin(r.sigma),
    },
    forecasts,
  };
}
