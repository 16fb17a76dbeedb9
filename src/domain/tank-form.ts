import type { ConversionConfig, Sensor, SensorUpdateRequest, TankPreset } from '../contract/sensor.schema';
import type { MeasurementUnit } from './sensor-format';
import { SENSOR_RANGE_MM, sensorTypeOf } from './sensor-types';
import { nameProblem } from './sensor-settings';
import { TANK_MESSAGES as T } from './setup-messages';
import { checkSensorUpdate } from './sensor-update';
import { fromMm, parseNumber, toMm } from './setup-units';
import type { FormErrors } from './display-form';

/**
 * The simplified tank form (sensor-setup 2, 5): name, sensor height (the offset), max water depth
 * (the maximum level), and the tank's shape as the sensor's conversion has it: a vertical
 * cylinder's diameter (or a volume in litres that becomes one), a horizontal cylinder's diameter
 * and length, a rectangular tank's width and length. A conversion the form does not edit (weir,
 * flume) is kept as it is and edited under Advanced Settings: the form never changes the type.
 */
export interface TankForm {
  name: string;
  height: string;
  depth: string;
  shape: TankShape;
  mode: 'diameter' | 'volume';
  diameter: string;
  volume: string;
  length: string;
  width: string;
}

/** The conversions the tank form edits; 'other' is one it leaves to the display settings. */
export type TankShape = 'VOLUME_CYLINDER' | 'VOLUME_CYLINDER_HORIZONTAL' | 'VOLUME_RECTANGULAR' | 'other';
const TANK_SHAPES: readonly string[] = ['VOLUME_CYLINDER', 'VOLUME_CYLINDER_HORIZONTAL', 'VOLUME_RECTANGULAR'];
/** The shape of a sensor's first conversion; no conversion is a vertical cylinder still to be measured. */
export const tankShapeOf = (conv: ConversionConfig | undefined): TankShape => (!conv ? 'VOLUME_CYLINDER' : TANK_SHAPES.includes(conv.type) ? (conv.type as TankShape) : 'other');

export const TANK_DIAMETER_MAX_M = 20;
export const TANK_VOLUME_MAX_L = 10_000_000;

export const isTankFamily = (sensorType: string) => ['T35', 'T35-Pro'].includes(sensorTypeOf(sensorType) ?? '');
/** The default setup section (DESIGN.md): tank for a T35 whose first conversion is a cylinder volume, else display. */
export const defaultSetupSection = (s: Pick<Sensor, 'sensorType' | 'conversionConfigs'>) =>
  isTankFamily(s.sensorType) && s.conversionConfigs[0]?.type === 'VOLUME_CYLINDER' ? 'tank' : 'display';

const text = (v: number | null | undefined) => (v === null || v === undefined ? '' : String(v));

export function tankFormOf(sensor: Sensor, unit: MeasurementUnit): TankForm {
  const d = sensor.displayInfo;
  const conv = sensor.conversionConfigs[0];
  const metres = (m: number | undefined) => text(m === undefined ? null : fromMm(m * 1000, unit));
  return {
    name: sensor.name,
    height: text(d.offsetMeasurement == null ? null : fromMm(d.offsetMeasurement, unit)),
    depth: text(d.maxLevel == null ? null : fromMm(d.maxLevel, unit)),
    shape: tankShapeOf(conv),
    mode: 'diameter',
    diameter: metres(conv && 'diameter' in conv ? conv.diameter : undefined),
    volume: '',
    length: metres(conv && 'length' in conv ? conv.length : undefined),
    width: metres(conv && conv.type === 'VOLUME_RECTANGULAR' ? conv.width : undefined),
  };
}

/** A volume in litres over a water depth in metres as a cylinder's diameter in metres, to 2 decimals. */
export function cylinderDiameterM(litres: number, depthM: number): number {
  return Math.round(2 * Math.sqrt(litres / 1000 / (Math.PI * depthM)) * 100) / 100;
}

/** A preset fills the form: its height is the sensor's, its safe fill level (or height) the depth; a cylinder gives its diameter, other shapes their volume. */
export function tankFormFromPreset(f: TankForm, p: TankPreset, unit: MeasurementUnit): TankForm {
  const height = p.height ?? p.diameter ?? 0;
  // without a safe fill level, a tank is taken as full at 95% of its height (the depth must stay below the sensor)
  const depth = p.safeFillLevel ?? Math.round(height * 0.95 * 100) / 100;
  const show = (m: number) => text(fromMm(m * 1000, unit));
  const base = { ...f, height: show(height), depth: show(depth) };
  if (p.shape === 'VOLUME_CYLINDER' && p.diameter) return { ...base, shape: 'VOLUME_CYLINDER', mode: 'diameter', diameter: show(p.diameter) };
  if (p.shape === 'VOLUME_CYLINDER_HORIZONTAL' && p.diameter && p.length) return { ...base, shape: 'VOLUME_CYLINDER_HORIZONTAL', diameter: show(p.diameter), length: show(p.length) };
  if (p.shape === 'VOLUME_RECTANGULAR' && p.width && p.length) return { ...base, shape: 'VOLUME_RECTANGULAR', width: show(p.width), length: show(p.length) };
  // a preset without its shape's measurements: its volume, as a round tank
  const litres =
    p.shape === 'VOLUME_RECTANGULAR' ? (p.width ?? 0) * (p.length ?? 0) * depth * 1000 : Math.PI * ((p.diameter ?? 0) / 2) ** 2 * (p.length ?? 0) * 1000;
  return { ...base, shape: 'VOLUME_CYLINDER', mode: 'volume', volume: String(Math.round(litres)) };
}

/** The tank form's rules with its own wording, then the shared rules; the body keeps the sensor's reference lines. */
export function tankFormToBody(f: TankForm, unit: MeasurementUnit, sensor: Sensor): { body: SensorUpdateRequest; errors: FormErrors } {
  const errors: FormErrors = {};
  const name = nameProblem(f.name);
  if (name) errors.name = name === 'empty' ? T.nameRequired : name === 'tooLong' ? T.nameTooLong : T.nameBadSymbol;
  const maxMm = SENSOR_RANGE_MM[sensorTypeOf(sensor.sensorType) ?? 'T35'].max;
  const height = parseNumber(f.height);
  if (height === undefined) errors.height = T.heightRequired;
  else if (height < 0) errors.height = T.positive;
  else if (toMm(height, unit) > maxMm) errors.height = T.heightTooBig(maxMm / 1000);
  const depth = parseNumber(f.depth);
  if (depth === undefined) errors.depth = T.depthRequired;
  else if (depth < 0) errors.depth = T.positive;
  else if (height !== undefined && !(depth < height)) errors.depth = T.depthBelowHeight;
  const depthM = depth === undefined ? 0 : toMm(depth, unit) / 1000;
  // a typed measurement in metres to 2 decimals; the shared conversion rules judge it below
  const metres = (raw: string) => {
    const v = parseNumber(raw);
    return v === undefined ? undefined : Math.round((toMm(v, unit) / 1000) * 100) / 100;
  };
  let conversionConfigs: ConversionConfig[] = [];
  if (f.shape === 'other') conversionConfigs = sensor.conversionConfigs;
  else if (f.shape === 'VOLUME_RECTANGULAR') conversionConfigs = [{ type: 'VOLUME_RECTANGULAR', width: metres(f.width)!, length: metres(f.length)! }];
  else if (f.mode === 'diameter' || f.shape === 'VOLUME_CYLINDER_HORIZONTAL') {
    const d = parseNumber(f.diameter);
    if (d === undefined || !(d > 0)) errors.diameter = T.diameterPositive;
    else if (toMm(d, unit) / 1000 > TANK_DIAMETER_MAX_M) errors.diameter = T.tooBig;
    const diameter = Math.round((toMm(d ?? 0, unit) / 1000) * 100) / 100;
    conversionConfigs = f.shape === 'VOLUME_CYLINDER_HORIZONTAL' ? [{ type: 'VOLUME_CYLINDER_HORIZONTAL', diameter, length: metres(f.length)! }] : [{ type: 'VOLUME_CYLINDER', diameter }];
  } else {
    const v = parseNumber(f.volume);
    if (v === undefined || !(v >= 1)) errors.volume = T.volumePositive;
    else if (v > TANK_VOLUME_MAX_L) errors.volume = T.tooBig;
    else if (depthM > 0) conversionConfigs = [{ type: 'VOLUME_CYLINDER', diameter: cylinderDiameterM(v, depthM) }];
  }
  const body: SensorUpdateRequest = {
    name: f.name,
    displayInfo: {
      offsetMeasurement: height === undefined ? null : toMm(height, unit),
      minLevel: 0,
      maxLevel: depth === undefined ? null : toMm(depth, unit),
      referenceLines: sensor.displayInfo.referenceLines,
    },
    conversionConfigs,
  };
  if (Object.keys(errors).length === 0) {
    const checked = checkSensorUpdate(sensor, body);
    for (const p of checked.ok ? [] : checked.problems) {
      const field = p.path[0] === 'conversionConfigs' ? String(p.path[2] ?? 'diameter') : p.path[0] === 'name' ? 'name' : 'form';
      // a diameter the shared rules refuse (over 100 m from a huge volume) reads as the tank form's 'too big'
      if (field === 'diameter') errors[f.mode === 'volume' && f.shape === 'VOLUME_CYLINDER' ? 'volume' : 'diameter'] ??= T.tooBig;
      else errors[field === 'width' || field === 'length' ? field : field === 'name' ? 'name' : 'form'] ??= p.message;
    }
  }
  return { body, errors };
}
