import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { conversionParams, KIND, type ConversionParams } from './conversion';
import { refConvert } from './reference/convert';
import { core } from './test-kit';

// sensor-setup.md 3 (conversion configs) and 9 (flow uses floor, v-notch rounds to 2 decimals,
// cylinder volume uses 1000 l per cubic metre and the diameter); monitoring-client.md 9 (metres, inches).
const c = await core();

describe('conversions', () => {
  it('give the documented values (wasm-core/README.md formulas)', () => {
    const at = (p: ConversionParams, raw: number) => c.convert(p, raw);
    expect(at(conversionParams('level', 3000, null, 'Metres'), 1000)).toBe(2);
    expect(at(conversionParams('level', 3000, null, 'Inches'), 1000)).toBe(78.74015748031496);
    expect(at(conversionParams('level', 1000, null, 'Metres'), 1500)).toBe(-0.5); // levels may be negative
    expect(at(conversionParams('flow', 3000, { type: 'WEIR_FLOW_SCR', width: 2, flowCoefficient: 1.84, n: 1.5 }, 'Metres'), 2500)).toBe(1301);
    expect(at(conversionParams('flow', 3000, { type: 'WEIR_FLOW_VN', width: 1, flowCoefficient: 1.38, n: 2.5 }, 'Metres'), 2700)).toBe(68.03);
    expect(at(conversionParams('flow', 3000, { type: 'PARSHALL_FLUME', x: 0.381, y: 1.58 }, 'Metres'), 2800)).toBe(29);
    expect(at(conversionParams('volume', 3000, { type: 'VOLUME_CYLINDER', diameter: 3 }, 'Metres'), 1000)).toBeCloseTo(14137.167, 3);
    const horizontal = conversionParams('volume', 3000, { type: 'VOLUME_CYLINDER_HORIZONTAL', diameter: 2, length: 5 }, 'Metres');
    expect(at(horizontal, 2000)).toBeCloseTo((Math.PI / 2) * 5 * 1000, 6); // half full
    expect(at(horizontal, 1000)).toBeCloseTo(Math.PI * 5 * 1000, 6); // full
    expect(at(horizontal, 0)).toBeCloseTo(Math.PI * 5 * 1000, 6); // above the top: still full
    expect(at(conversionParams('volume', 3000, { type: 'VOLUME_RECTANGULAR', width: 2, length: 3 }, 'Metres'), 1500)).toBe(9000);
  });

  it('clamp negative levels to zero flow and zero volume', () => {
    expect(c.convert(conversionParams('flow', 1000, { type: 'WEIR_FLOW_SCR', width: 2, flowCoefficient: 1.84, n: 1.5 }, 'Metres'), 1500)).toBe(0);
    expect(c.convert(conversionParams('volume', 1000, { type: 'VOLUME_CYLINDER', diameter: 3 }, 'Metres'), 1500)).toBe(0);
    expect(c.convert(conversionParams('volume', 1000, { type: 'VOLUME_CYLINDER_HORIZONTAL', diameter: 2, length: 1 }, 'Metres'), 1500)).toBe(0);
  });

  it('refuse flow or volume without a matching config', () => {
    expect(() => conversionParams('flow', 1000, null, 'Metres')).toThrow('Flow needs a weir or flume conversion config.');
    expect(() => conversionParams('volume', 1000, { type: 'WEIR_FLOW_SCR', width: 1, flowCoefficient: 1, n: 1.5 }, 'Metres')).toThrow(
      'Volume needs a tank conversion config.',
    );
  });

  it('agree bit for bit with the reference on random parameters and distances', () => {
    const num = fc.double({ min: 0, max: 20, noNaN: true });
    const params = fc.record({
      kind: fc.constantFrom(...Object.values(KIND)),
      offsetMm: fc.double({ min: -1000, max: 20_000, noNaN: true }),
      inches: fc.boolean(),
      a: num,
      b: num,
      c: fc.oneof(fc.constantFrom(1.5, 2.5), num),
    });
    fc.assert(
      fc.property(params, fc.float({ min: 0, max: 20_000, noNaN: true }), (p, raw) => {
        expect(Object.is(c.convert(p, raw), refConvert(p, raw)) || c.convert(p, raw) === refConvert(p, raw)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('are monotone in the distance, so the view may downsample before converting', () => {
    const modes = [
      conversionParams('flow', 3000, { type: 'WEIR_FLOW_VN', width: 1, flowCoefficient: 1.38, n: 2.5 }, 'Metres'),
      conversionParams('flow', 3000, { type: 'PARSHALL_FLUME', x: 0.381, y: 1.58 }, 'Metres'),
      conversionParams('volume', 3000, { type: 'VOLUME_CYLINDER_HORIZONTAL', diameter: 2, length: 5 }, 'Metres'),
    ];
    fc.assert(
      fc.property(fc.constantFrom(...modes), fc.float({ min: 0, max: 4000, noNaN: true }), fc.float({ min: 0, max: 4000, noNaN: true }), (p, d1, d2) => {
        const [near, far] = d1 <= d2 ? [d1, d2] : [d2, d1];
        expect(c.convert(p, near)).toBeGreaterThanOrEqual(c.convert(p, far));
      }),
    );
  });
});
