// Level and volume of a tank, both ways, by the core's own conversion: refConvert is the TypeScript
// reference of assembly/convert.ts, equal to it bit for bit (convert.test.ts), and what the usage
// analysis (usage.ts) takes its target volumes from. No second copy of the tank geometry.
import type { ConversionParams } from './conversion';
import { refConvert } from './reference/convert';

/** Litres held at `levelMm` of displayed level (mm above the sensor's zero); `p` is a volume conversion's parameters. */
export function volumeAtLevel(p: ConversionParams, levelMm: number): number {
  return refConvert(p, p.offsetMm - levelMm);
}

/**
 * The lowest level (mm, from 0) at which the tank holds `litres`: the conversion inverted by
 * bisection, which needs only that volume never falls as the level rises (true of every
 * conversion, convert.ts, to rounding); found to within 1e-6 mm. A volume above all the tank
 * holds gives the level where it is full (a horizontal cylinder's top).
 */
export function levelAtVolume(p: ConversionParams, litres: number): number {
  if (!(litres > volumeAtLevel(p, 0))) return 0;
  let lo = 0;
  let hi = 1000;
  let top = volumeAtLevel(p, hi);
  // the bracket: doubling (up to 2^40 m, far past any tank) until the level holds the volume, or
  // the volume stops growing: the tank is full, and a volume just below the top of a horizontal
  // cylinder can round an ulp above the full one (acos near -1), so more is asked for than it holds
  for (let i = 0; i < 40 && top < litres; i++) {
    const next = volumeAtLevel(p, hi * 2);
    if (!(next > top)) break;
    [lo, hi, top] = [hi, hi * 2, next];
  }
  if (top < litres) litres = top;
  for (let i = 0; i < 100 && hi - lo > 1e-6; i++) {
    const mid = (lo + hi) / 2;
    if (volumeAtLevel(p, mid) < litres) lo = mid;
    else hi = mid;
  }
  return hi;
}

/**
 * A tank's level over a stretch in which its volume moves linearly (a forecast at a constant daily
 * use): n + 1 levels (mm) at equal steps of time from `fromLevelMm` to `toLevelMm`, each the level
 * holding the volume linearly interpolated between those of the two ends. Straight for a tank
 * whose volume is proportional to its level; curved otherwise (a horizontal cylinder). The ends
 * are given back exactly.
 */
export function levelPath(p: ConversionParams, fromLevelMm: number, toLevelMm: number, n: number): number[] {
  const v0 = volumeAtLevel(p, fromLevelMm);
  const v1 = volumeAtLevel(p, toLevelMm);
  const out = [fromLevelMm];
  for (let i = 1; i < n; i++) out.push(levelAtVolume(p, v0 + ((v1 - v0) * i) / n));
  out.push(toLevelMm);
  return out;
}
