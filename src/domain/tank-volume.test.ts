import { describe, expect, it } from 'vitest';
import { volumeLitres } from './tank-volume';

describe('tank volume (monitoring-client 9: 1000 litres per cubic metre)', () => {
  it('a vertical cylinder holds pi r^2 h', () => {
    expect(volumeLitres({ type: 'VOLUME_CYLINDER', diameter: 2 }, 1)).toBeCloseTo(Math.PI * 1000, 6);
  });
  it('a rectangular tank holds w l h', () => {
    expect(volumeLitres({ type: 'VOLUME_RECTANGULAR', width: 2, length: 3, level: 0 } as never, 0.5)).toBeCloseTo(3000, 6);
  });
  it('a horizontal cylinder is half full at half its diameter and full at the top', () => {
    const conv = { type: 'VOLUME_CYLINDER_HORIZONTAL' as const, diameter: 2, length: 4 };
    expect(volumeLitres(conv, 1)).toBeCloseTo(2 * Math.PI * 1000, 6);
    expect(volumeLitres(conv, 2)).toBeCloseTo(4 * Math.PI * 1000, 6);
    expect(volumeLitres(conv, 5)).toBeCloseTo(4 * Math.PI * 1000, 6);
  });
  it('has no volume for flow conversions', () => {
    expect(volumeLitres({ type: 'PARSHALL_FLUME', x: 1, y: 2 }, 1)).toBeUndefined();
  });
});
