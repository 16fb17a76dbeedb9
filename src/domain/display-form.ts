import type { ConversionConfig, Sensor, SensorUpdateRequest } from '../contract/sensor.schema';
import type { MeasurementUnit } from './sensor-format';
import { SETUP_RULES as M } from './setup-messages';
import { hasAtMost3Decimals } from './sensor-settings';
import { checkSensorUpdate } from './sensor-update';
import { fromMm, parseNumber, toMm } from './setup-units';

/**
 * The display settings form (sensor-setup 2, 4, 5) as text fields: what the user typed, turned
 * into the save body and judged by the same rules as the server (sensor-update.ts). Levels are
 * typed in the organisation's unit, conversion dimensions in metres.
 */
export type ConversionType = ConversionConfig['type'];
export const CONVERSION_TYPES: { value: ConversionType; label: string; fields: ConversionField[] }[] = [
  { value: 'WEIR_FLOW_SCR', label: 'Weir flow (rectangular)', fields: ['width', 'flowCoefficient', 'n'] },
  { value: 'WEIR_FLOW_VN', label: 'Weir flow (v-notch)', fields: ['width', 'flowCoefficient', 'n'] },
  { value: 'VOLUME_CYLINDER', label: 'Tank volume (cylinder)', fields: ['diameter'] },
  { value: 'VOLUME_CYLINDER_HORIZONTAL', label: 'Tank volume (horizontal cylinder)', fields: ['diameter', 'length'] },
  { value: 'VOLUME_RECTANGULAR', label: 'Tank volume (rectangular)', fields: ['width', 'length'] },
  { value: 'PARSHALL_FLUME', label: 'Parshall flume', fields: ['x', 'y'] },
];
export type ConversionField = 'width' | 'flowCoefficient' | 'n' | 'diameter' | 'length' | 'x' | 'y';

export interface DisplayForm {
  name: string;
  offsetEnabled: boolean;
  offset: string;
  minLevel: string;
  maxLevel: string;
  conversionEnabled: boolean;
  conversionType: ConversionType;
  conversion: Record<ConversionField, string>;
  referenceLines: { label: string; value: string; color: string }[];
}

const BLANK_CONVERSION: Record<ConversionField, string> = { width: '', flowCoefficient: '', n: '1.5', diameter: '', length: '', x: '', y: '' };
const text = (v: number | null | undefined) => (v === null || v === undefined ? '' : String(v));

export function displayFormOf(sensor: Sensor, unit: MeasurementUnit): DisplayForm {
  const d = sensor.displayInfo;
  const conv = sensor.conversionConfigs[0];
  const conversion = { ...BLANK_CONVERSION };
  if (conv) for (const [k, v] of Object.entries(conv)) if (k !== 'type') conversion[k as ConversionField] = text(v as number);
  return {
    name: sensor.name,
    offsetEnabled: d.offsetMeasurement !== null && d.offsetMeasurement !== undefined,
    offset: text(d.offsetMeasurement === null || d.offsetMeasurement === undefined ? null : fromMm(d.offsetMeasurement, unit)),
    minLevel: text(d.minLevel === null || d.minLevel === undefined ? null : fromMm(d.minLevel, unit)),
    maxLevel: text(d.maxLevel === null || d.maxLevel === undefined ? null : fromMm(d.maxLevel, unit)),
    conversionEnabled: !!conv,
    conversionType: conv?.type ?? 'WEIR_FLOW_SCR',
    conversion,
    referenceLines: d.referenceLines.map((r) => ({ label: r.label, value: text(fromMm(r.value, unit)), color: r.color.toUpperCase() })),
  };
}

/** Turning the offset off clears it and the display limits; turning conversion off clears it; on, it starts as a rectangular weir (sensor-setup 4). */
export const withOffset = (f: DisplayForm, on: boolean): DisplayForm => (on ? { ...f, offsetEnabled: true } : { ...f, offsetEnabled: false, offset: '', minLevel: '', maxLevel: '' });
export const withConversion = (f: DisplayForm, on: boolean): DisplayForm =>
  on ? { ...f, conversionEnabled: true, conversionType: 'WEIR_FLOW_SCR', conversion: { ...BLANK_CONVERSION } } : { ...f, conversionEnabled: false, conversion: { ...BLANK_CONVERSION } };

export type FormErrors = Record<string, string>;

/** The save body of the form, or the message of every field that breaks a rule (keyed like 'offset', 'conversion.width', 'referenceLines.0.value'). */
export function displayFormToBody(f: DisplayForm, unit: MeasurementUnit, sensor: Pick<Sensor, 'sensorType' | 'displayInfo'>): { body: SensorUpdateRequest; errors: FormErrors } {
  const errors: FormErrors = {};
  const num = (key: string, raw: string, missing: string, decimals = false): number | null => {
    const v = parseNumber(raw);
    if (v === undefined) errors[key] ??= missing;
    else if (decimals && !hasAtMost3Decimals(v)) errors[key] ??= M.VALUE_DECIMALS;
    return v ?? null;
  };
  const offset = f.offsetEnabled ? num('offset', f.offset, M.OFFSET_EMPTY) : null;
  const bothBlank = f.minLevel.trim() === '' && f.maxLevel.trim() === '';
  const min = f.offsetEnabled && !bothBlank ? num('minLevel', f.minLevel, M.MIN_LEVEL_MISSING) : null;
  const max = f.offsetEnabled && !bothBlank ? num('maxLevel', f.maxLevel, M.MAX_LEVEL_MISSING) : null;
  const referenceLines = f.referenceLines.map((r, i) => ({
    label: r.label,
    value: toMm(num(`referenceLines.${i}.value`, r.value, M.VALUE_REQUIRED, true) ?? 0, unit),
    color: r.color,
  }));
  let conversionConfigs: ConversionConfig[] = [];
  if (f.conversionEnabled) {
    const type = CONVERSION_TYPES.find((t) => t.value === f.conversionType)!;
    const conv: Record<string, unknown> = { type: type.value };
    for (const field of type.fields) conv[field] = parseNumber(f.conversion[field]);
    conversionConfigs = [conv as ConversionConfig];
  }
  const body: SensorUpdateRequest = {
    name: f.name,
    displayInfo: { offsetMeasurement: offset === null ? null : toMm(offset, unit), minLevel: min === null ? null : toMm(min, unit), maxLevel: max === null ? null : toMm(max, unit), referenceLines },
    conversionConfigs,
  };
  const checked = checkSensorUpdate(sensor, body);
  if (!checked.ok) for (const p of checked.problems) errors[formKey(p.path)] ??= p.message;
  return { body, errors };
}

/** The form field a rule's path points at. */
function formKey(path: (string | number)[]): string {
  const [head, ...rest] = path;
  if (head === 'displayInfo') {
    const [field, ...more] = rest;
    if (field === 'offsetMeasurement') return 'offset';
    return [field, ...more].join('.');
  }
  if (head === 'conversionConfigs') return rest.length > 1 ? `conversion.${rest[1]}` : 'conversion';
  return path.join('.');
}
