import { DateTime, IANAZone } from 'luxon';
import type { ZoneOffsets } from './core';

const DAY = 86_400_000;

const offsetMs = (zone: IANAZone, t: number) => zone.offset(t) * 60_000;

/**
 * The zone's UTC offsets over [startMs, endMs] as a table of transitions, so that the core can
 * format local times with one addition per row. Offsets are sampled daily and each change is
 * narrowed by bisection to the millisecond it happens (zones change offset at most a few times a year,
 * never twice in a day).
 */
export function zoneOffsets(timeZone: string, startMs: number, endMs: number): ZoneOffsets {
  if (!IANAZone.isValidZone(timeZone)) throw new Error(`Unknown time zone: ${timeZone}`);
  const zone = IANAZone.create(timeZone);
  const at = [-Infinity];
  const offset = [offsetMs(zone, startMs)];
  let prevT = startMs;
  let prevO = offset[0];
  for (let t = startMs + DAY; prevT < endMs; t += DAY) {
    const cur = Math.min(t, endMs);
    const o = offsetMs(zone, cur);
    if (o !== prevO) {
      // the change lies in (lo, hi]
      let lo = prevT;
      let hi = cur;
      while (hi - lo > 1) {
        const mid = Math.floor((lo + hi) / 2);
        if (offsetMs(zone, mid) === prevO) lo = mid;
        else hi = mid;
      }
      at.push(hi);
      offset.push(o);
      prevO = o;
    }
    prevT = cur;
  }
  return { at: Float64Array.from(at), offset: Float64Array.from(offset) };
}

/** The export's file-name timestamp in the zone, e.g. 20260121-153000. */
export function fileStamp(timeZone: string, nowMs: number): string {
  return DateTime.fromMillis(nowMs, { zone: timeZone }).toFormat('yyyyMMdd-HHmmss');
}
