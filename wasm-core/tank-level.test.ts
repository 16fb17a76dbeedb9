import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ConversionConfig } from '../src/contract/sensor.schema';
import { conversionParams } from './conversion';
import { levelAtVolume, levelPath, volumeAtLevel } from './tank-level';
import { core } from './test-kit';

// the chart's Water Level forecast (issue 38): levels of a linearly falling volume, checked against
// the built WASM core's own conversion (convertValue), which the chart's volumes come from
const c = await core();
const dim = fc.double({ min: 0.3, max: 6, noNaN: true });
const tank = fc.oneof(
  fc.record({ type: fc.constant('VOLUME_CYLINDER_HORIZONTAL' as const), diameter: dim, length: dim }),
  fc.record({ type: fc.constant('VOLUME_CYLINDER' as const), diameter: dim }),
  fc.record({ type: fc.constant('VOLUME_RECTANGULAR' as const), width: dim, length: dim }),
);
const offset = fc.integer({ min: 500, max: 8000 });
/** Litres at a level (mm) by the WASM core. */
const coreVolume = (conversion: ConversionConfig, offsetMm: number, levelMm: number) => c.convert(conversionParams('volume', offsetMm, conversion, 'Metres'), offsetMm - levelMm);
const top = (t: ConversionConfig) => (t.type === 'VOLUME_CYLINDER_HORIZONTAL' ? t.diameter * 1000 : 4000);

describe('tank level from volume (tank-level.ts)', () => {
  it('volumeAtLevel is the core conversion at a level; levelAtVolume inverts it (to the level where a horizontal cylinder is full)', () => {
    fc.assert(
      fc.property(tank, offset, fc.double({ min: 0, max: 1, noNaN: true }), (t, off, share) => {
        const p = conversionParams('volume', off, t, 'Metres');
        const level = share * top(t);
        const litres = coreVolume(t, off, level);
        expect(volumeAtLevel(p, level)).toBe(litres);
        const found = levelAtVolume(p, litres);
        expect(Math.abs(coreVolume(t, off, found) - litres)).toBeLessThan(1e-8 * coreVolume(t, off, top(t)) + 1e-9);
        // the level itself where it is well defined (a horizontal cylinder's level moves as the
        // square root of a volume rounded to ulps near its bottom and top)
        if (share > 0.01 && share < 0.99) expect(found).toBeCloseTo(level, 3);
      }),
      { numRuns: 500 },
    );
    const horizontal = conversionParams('volume', 3000, { type: 'VOLUME_CYLINDER_HORIZONTAL', diameter: 2, length: 5 }, 'Metres');
    expect(levelAtVolume(horizontal, 0)).toBe(0);
    expect(levelAtVolume(horizontal, -5)).toBe(0);
    expect(levelAtVolume(horizontal, volumeAtLevel(horizontal, 2500))).toBeCloseTo(2000, 4); // above the top: full at the top
  });

  it('levelPath: the ends exactly, and every step holds the volume linearly between theirs (by the core)', () => {
    fc.assert(
      fc.property(tank, offset, fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }), (t, off, a, b) => {
        const p = conversionParams('volume', off, t, 'Metres');
        const [from, to] = [a * top(t), b * top(t)];
        const path = levelPath(p, from, to, 32);
        expect(path).toHaveLength(33);
        expect(path[0]).toBe(from);
        expect(path[32]).toBe(to);
        const [v0, v1] = [coreVolume(t, off, from), coreVolume(t, off, to)];
        const full = coreVolume(t, off, top(t));
        path.forEach((level, i) => expect(Math.abs(coreVolume(t, off, level) - (v0 + ((v1 - v0) * i) / 32))).toBeLessThan(1e-6 * full + 1e-6));
      }),
      { numRuns: 300 },
    );
  });
});
