import { MM_PER_INCH, type MeasurementUnit } from './sensor-format';

/** A typed number: blank or not a number is undefined (commas are not decimal points here). */
export function parseNumber(raw: string): number | undefined {
  const s = raw.trim();
  if (s === '' || !/^[-+]?(\d+\.?\d*|\.\d+)$/.test(s)) return undefined;
  return Number(s);
}

const MM_PER: Record<MeasurementUnit, number> = { Metres: 1000, Inches: MM_PER_INCH };

/** A length typed in the organisation's unit to stored millimetres (to 3 decimals of a mm). */
export const toMm = (v: number, unit: MeasurementUnit) => Math.round(v * MM_PER[unit] * 1000) / 1000;

/** Stored millimetres to the organisation's unit, to 3 decimals. */
export const fromMm = (mm: number, unit: MeasurementUnit): number => Math.round((mm / MM_PER[unit]) * 1000) / 1000;

export const unitSuffix = (unit: MeasurementUnit) => (unit === 'Inches' ? 'in' : 'm');
