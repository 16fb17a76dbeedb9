import type { Sensor } from '../../contract/sensor.schema';
import type { DataMode } from '../../../workers/data-api';
import { conversionParams, isFlow, isVolume, valueLabel } from '../../../wasm-core/conversion';
import { refConvert } from '../../../wasm-core/reference/convert';

export const MODE_LABELS: Record<DataMode, string> = { level: 'Water Level', flow: 'Flow Rate', volume: 'Water Volume' };

/**
 * Data modes the sensor's first conversion config supports, default first (monitoring-client 4):
 * weir or flume gives Flow Rate, a volume type gives Water Volume, else Water Level.
 */
export function chartModes(sensor: Pick<Sensor, 'conversionConfigs'>): DataMode[] {
  const first = sensor.conversionConfigs[0] ?? null;
  if (isFlow(first)) return ['flow', 'level'];
  if (isVolume(first)) return ['volume', 'level'];
  return ['level'];
}

export type Unit = 'Metres' | 'Inches';

/** The axis and tooltip unit: m or in, l/s, l (monitoring-client 9). */
export function unitOf(mode: DataMode, unit: Unit): string {
  if (mode === 'flow') return 'l/s';
  if (mode === 'volume') return 'l';
  return unit === 'Inches' ? 'in' : 'm';
}

/** Decimals shown: metres 3, inches 1; flow and volume whole (v-notch flow keeps 2). */
export function decimalsOf(mode: DataMode, unit: Unit, sensor: Pick<Sensor, 'conversionConfigs'>): number {
  if (mode === 'level') return unit === 'Inches' ? 1 : 3;
  return mode === 'flow' && sensor.conversionConfigs[0]?.type === 'WEIR_FLOW_VN' ? 2 : 0;
}

/** The value axis label, as the CSV header names it: "Water Level (m)", "Flow Rate (l/s)". */
export function axisLabel(mode: DataMode, unit: Unit, sensor: Pick<Sensor, 'conversionConfigs' | 'displayInfo'>): string {
  return valueLabel(conversionParams(mode, sensor.displayInfo.offsetMeasurement ?? null, sensor.conversionConfigs[0] ?? null, unit));
}

export interface Guide {
  value: number; // in the chart's unit
  label: string;
  color: string;
  dashed: boolean;
}

/**
 * Reference lines and display limits (levels in mm) in the chart's unit: a level of L mm is a
 * distance of offset - L, converted as the core converts measurements.
 */
export function guidesOf(mode: DataMode, unit: Unit, sensor: Pick<Sensor, 'conversionConfigs' | 'displayInfo'>): Guide[] {
  const offset = sensor.displayInfo.offsetMeasurement ?? 0;
  const params = conversionParams(mode, offset, sensor.conversionConfigs[0] ?? null, unit);
  const at = (levelMm: number) => refConvert(params, offset - levelMm);
  const guides: Guide[] = sensor.displayInfo.referenceLines.map((r) => ({ value: at(r.value), label: r.label, color: r.color, dashed: false }));
  const { minLevel, maxLevel } = sensor.displayInfo;
  if (typeof maxLevel === 'number') guides.push({ value: at(maxLevel), label: 'Max level', color: '#868e96', dashed: true });
  if (typeof minLevel === 'number') guides.push({ value: at(minLevel), label: 'Min level', color: '#868e96', dashed: true });
  return guides;
}

/** Padding rule (monitoring-client 9): 1 percent of the range each side; 0.3 each side when flat. */
export function padRange(min: number, max: number): [number, number] {
  if (!Number.isFinite(min) || !Number.isFinite(max)) return [0, 1];
  if (min === max) return [min - 0.3, max + 0.3];
  const pad = (max - min) * 0.01;
  return [min - pad, max + pad];
}

/**
 * The Y range: with Y-axis zoom on it fits the data; off, it also takes in zero and the reference
 * lines, and for levels the display limits, so the data is seen against the installation. (A
 * weir's maximum level as a flow is far above any real flow: it would flatten the line.)
 */
export function yRange(dataMin: number, dataMax: number, yZoom: boolean, guides: readonly Guide[], withLimits = true): [number, number] {
  let min = dataMin;
  let max = dataMax;
  if (!yZoom) {
    for (const v of [0, ...guides.filter((g) => withLimits || !g.dashed).map((g) => g.value)]) {
      if (!Number.isFinite(v)) continue;
      if (!(v >= min)) min = v;
      if (!(v <= max)) max = v;
    }
  }
  return padRange(min, max);
}
