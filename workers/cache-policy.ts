/**
 * The measurement cache caps (sensor-setup.md 9): when the total cached exceeds 172,800 points,
 * the oldest sensors are dropped down to a cap of 43,200.
 *
 * Our reading: a year of 1-minute data is 525,600 points for one sensor, more than either cap, so
 * the caps cannot bound the sensor on screen. They bound what is kept of OTHER sensors: when the
 * total held exceeds 172,800, the least recently used sensors other than the one in view are
 * dropped, oldest first, until those others hold at most 43,200 points together. The sensor in
 * view is never dropped.
 */
export const CACHE_HIGH = 172_800;
export const CACHE_LOW = 43_200;

export interface CacheEntry {
  key: string;
  points: number;
  lastUsed: number;
}

/** Keys to drop, oldest first. */
export function toEvict(entries: CacheEntry[], inView: string | null, high = CACHE_HIGH, low = CACHE_LOW): string[] {
  const total = entries.reduce((n, e) => n + e.points, 0);
  if (total <= high) return [];
  const others = entries.filter((e) => e.key !== inView).sort((a, b) => a.lastUsed - b.lastUsed);
  let rest = others.reduce((n, e) => n + e.points, 0);
  const out: string[] = [];
  for (const e of others) {
    if (rest <= low) break;
    out.push(e.key);
    rest -= e.points;
  }
  return out;
}
