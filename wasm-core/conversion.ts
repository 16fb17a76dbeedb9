import type { ConversionConfig } from '../src/contract/sensor.schema';

/** What the chart shows: level (m or in), flow (l/s) or volume (l). */
export type DataMode = 'level' | 'flow' | 'volume';
export type LevelUnit = 'Metres' | 'Inches';

/** Conversion kinds, as numbered in wasm-core/assembly/convert.ts. */
export const KIND = {
  LEVEL: 0,
  WEIR_FLOW_SCR: 1,
  WEIR_FLOW_VN: 2,
  PARSHALL_FLUME: 3,
  VOLUME_CYLINDER: 4,
  VOLUME_CYLINDER_HORIZONTAL: 5,
  VOLUME_RECTANGULAR: 6,
} as const;

/** The flat form the core takes: a kind, the offset and up to three parameters. */
export interface ConversionParams {
  kind: number;
  offsetMm: number;
  inches: boolean;
  a: number;
  b: number;
  c: number;
}

const FLOW = new Set(['WEIR_FLOW_SCR', 'WEIR_FLOW_VN', 'PARSHALL_FLUME']);
const VOLUME = new Set(['VOLUME_CYLINDER', 'VOLUME_CYLINDER_HORIZONTAL', 'VOLUME_RECTANGULAR']);

export function isFlow(c: ConversionConfig | null | undefined): boolean {
  return !!c && FLOW.has(c.type);
}
export function isVolume(c: ConversionConfig | null | undefined): boolean {
  return !!c && VOLUME.has(c.type);
}

/**
 * Maps the chart's choice to core parameters. Flow and volume need a matching conversion
 * config (only the first config is used, per spec); asking for one without it is a caller error.
 * A missing offset counts as 0 mm (level = -distance).
 */
export function conversionParams(mode: DataMode, offsetMm: number | null, conversion: ConversionConfig | null, unit: LevelUnit): ConversionParams {
  const base = { offsetMm: offsetMm ?? 0, inches: false, a: 0, b: 0, c: 0 };
  if (mode === 'level') return { ...base, kind: KIND.LEVEL, inches: unit === 'Inches' };
  if (mode === 'flow' && !isFlow(conversion)) throw new Error('Flow needs a weir or flume conversion config.');
  if (mode === 'volume' && !isVolume(conversion)) throw new Error('Volume needs a tank conversion config.');
  const c = conversion!;
  switch (c.type) {
    case 'WEIR_FLOW_SCR':
      return { ...base, kind: KIND.WEIR_FLOW_SCR, a: c.width, b: c.flowCoefficient, c: c.n };
    case 'WEIR_FLOW_VN':
      return { ...base, kind: KIND.WEIR_FLOW_VN, a: c.width, b: c.flowCoefficient, c: c.n };
    case 'PARSHALL_FLUME':
      return { ...base, kind: KIND.PARSHALL_FLUME, a: c.x, b: c.y };
    case 'VOLUME_CYLINDER':
      return { ...base, kind: KIND.VOLUME_CYLINDER, a: c.diameter };
    case 'VOLUME_CYLINDER_HORIZONTAL':
      return { ...base, kind: KIND.VOLUME_CYLINDER_HORIZONTAL, a: c.diameter, b: c.length };
    case 'VOLUME_RECTANGULAR':
      return { ...base, kind: KIND.VOLUME_RECTANGULAR, a: c.width, b: c.length };
  }
}

/** Decimals written to CSV: metres 3, inches 1 (spec), v-notch flow 2, floored flow and litres 0. */
export function csvDecimals(p: ConversionParams): number {
  if (p.kind === KIND.LEVEL) return p.inches ? 1 : 3;
  if (p.kind === KIND.WEIR_FLOW_VN) return 2;
  return 0;
}

/** The value column's header, e.g. "Water Level (m)", "Flow Rate (l/s)", "Water Volume (l)". */
export function valueLabel(p: ConversionParams): string {
  if (p.kind === KIND.LEVEL) return p.inches ? 'Water Level (in)' : 'Water Level (m)';
  if (p.kind === KIND.WEIR_FLOW_SCR || p.kind === KIND.WEIR_FLOW_VN || p.kind === KIND.PARSHALL_FLUME) return 'Flow Rate (l/s)';
  return 'Water Volume (l)';
}
