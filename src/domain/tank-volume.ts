import type { ConversionConfig } from '../contract/sensor.schema';

/** Litres per cubic metre (monitoring-client 9). */
export const LITRES_PER_M3 = 1000;

/**
 * Volume in litres held at a level (metres) for the volume conversions; undefined for flow
 * conversions or none. Dimensions are metres; the level is clamped to the tank.
 */
export function volumeLitres(conv: ConversionConfig | undefined, levelM: number): number | undefined {
  if (!conv || !Number.isFinite(levelM)) return undefined;
  const h = Math.max(0, levelM);
  switch (conv.type) {
    case 'VOLUME_CYLINDER':
      return Math.PI * (conv.diameter / 2) ** 2 * h * LITRES_PER_M3;
    case 'VOLUME_RECTANGULAR':
      return conv.width * conv.length * h * LITRES_PER_M3;
    case 'VOLUME_CYLINDER_HORIZONTAL': {
      // a circular segment of the lying cylinder's end, times its length
      const r = conv.diameter / 2;
      const d = Math.min(h, conv.diameter);
      const area = r * r * Math.acos((r - d) / r) - (r - d) * Math.sqrt(Math.max(0, 2 * r * d - d * d));
      return area * conv.length * LITRES_PER_M3;
    }
    default:
      return undefined;
  }
}
