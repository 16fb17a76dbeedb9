import { z } from 'zod';
import { SETUP_RULES as M } from './setup-messages';
import { SENSOR_RANGE_MM, sensorTypeOf } from './sensor-types';

/**
 * The rules of a sensor save (sensor-setup 5), as zod schemas over the body of
 * PUT /organisations/{orgId}/sensors/{sensorId}. The forms turn what the user typed into that body
 * and run these same schemas; the server runs them again. Levels are millimetres, conversion
 * dimensions metres, as stored.
 */

export const NAME_MAX = 100;
export const LABEL_MAX = 60;
export const MAX_REFERENCE_LINES = 3;
/** Reference line colours offered (sensor-setup 3): blue (the default), orange, green. */
export const REFERENCE_LINE_COLOURS = [
  { value: '#21A1DB', label: 'Blue' },
  { value: '#F59F00', label: 'Orange' },
  { value: '#40C057', label: 'Green' },
] as const;
/** A new reference line (sensor-setup 9): label 'Label', level 0, colour #21A1DB. */
export const NEW_REFERENCE_LINE = { label: 'Label', value: 0, color: '#21A1DB' } as const;
export const COMMISSIONING_STATUSES = [
  { value: 1, label: 'Not installed' },
  { value: 2, label: 'Calibrating' },
  { value: 3, label: 'Commissioned' },
  { value: 4, label: 'Decommissioned' },
  { value: 5, label: 'Service required' },
] as const;
export const LATITUDE_RANGE = [-85.05115, 85] as const;
export const LONGITUDE_RANGE = [-180, 180] as const;

// letters, digits, space and ' - _ # & [ ] ( ) < > .
const NAME_CHARACTERS = /^[\p{L}\p{M}\p{N} '\-_#&[\]()<>.]*$/u;

/** The first broken name rule, in the spec's order, or undefined. */
export function nameProblem(name: string): 'empty' | 'tooLong' | 'leadingSpace' | 'badCharacters' | undefined {
  if (name.trim() === '') return 'empty';
  if (name.length > NAME_MAX) return 'tooLong';
  if (name.startsWith(' ')) return 'leadingSpace';
  if (!NAME_CHARACTERS.test(name)) return 'badCharacters';
  return undefined;
}
const NAME_MESSAGE = { empty: M.NAME_EMPTY, tooLong: M.NAME_TOO_LONG, leadingSpace: M.NAME_LEADING_SPACE, badCharacters: M.NAME_BAD_CHARACTERS };

export const sensorNameSchema = z.string({ error: M.NAME_EMPTY }).superRefine((name, ctx) => {
  const p = nameProblem(name);
  if (p) ctx.addIssue({ code: 'custom', message: NAME_MESSAGE[p] });
});

/** At most 3 decimals (reference line values, thresholds). */
export const hasAtMost3Decimals = (v: number) => Math.abs(Math.round(v * 1000) - v * 1000) < 1e-6;

const dimension = (required: string, notPositive: string, tooBig: string, max: number, inclusive: boolean) =>
  z
    .number({ error: required })
    .refine((v) => v > 0, notPositive)
    .refine((v) => (inclusive ? v <= max : v < max), tooBig);

const weirWidth = dimension(M.WIDTH_REQUIRED, M.WIDTH_NOT_POSITIVE, M.WIDTH_TOO_BIG, 10_000, false);
const flowCoefficient = z.number({ error: M.FLOW_COEFFICIENT_REQUIRED }).refine((v) => v > 0, M.FLOW_COEFFICIENT_NOT_POSITIVE);
const exponent = z.number({ error: M.EXPONENT_INVALID }).refine((v) => v === 1.5 || v === 2.5, M.EXPONENT_INVALID);
const diameter = dimension(M.DIAMETER_REQUIRED, M.DIAMETER_NOT_POSITIVE, M.DIAMETER_TOO_BIG, 100, true);
const width = dimension(M.WIDTH_REQUIRED, M.WIDTH_NOT_POSITIVE, M.WIDTH_TOO_BIG, 100, true);
const length = dimension(M.LENGTH_REQUIRED, M.LENGTH_NOT_POSITIVE, M.LENGTH_TOO_BIG, 100, true);
const flumeX = dimension(M.FLUME_X_REQUIRED, M.FLUME_X_NOT_POSITIVE, M.FLUME_X_TOO_BIG, 100_000, true);
const flumeY = dimension(M.FLUME_Y_REQUIRED, M.FLUME_Y_NOT_POSITIVE, M.FLUME_Y_TOO_BIG, 100_000, true);

/** The six conversion types with their fields and limits (sensor-setup 3, 5). */
export const conversionRulesSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('WEIR_FLOW_SCR'), width: weirWidth, flowCoefficient, n: exponent }),
  z.object({ type: z.literal('WEIR_FLOW_VN'), width: weirWidth, flowCoefficient, n: exponent }),
  z.object({ type: z.literal('VOLUME_CYLINDER'), diameter }),
  z.object({ type: z.literal('VOLUME_CYLINDER_HORIZONTAL'), diameter, length }),
  z.object({ type: z.literal('VOLUME_RECTANGULAR'), width, length }),
  z.object({ type: z.literal('PARSHALL_FLUME'), x: flumeX, y: flumeY }),
]);

export const referenceLineRulesSchema = z.object({
  label: z.string({ error: M.LABEL_REQUIRED }).refine((s) => s.trim() !== '', M.LABEL_REQUIRED).refine((s) => s.length <= LABEL_MAX, M.LABEL_TOO_LONG),
  value: z.number({ error: M.VALUE_REQUIRED }).refine(hasAtMost3Decimals, M.VALUE_DECIMALS),
  color: z.string({ error: M.COLOUR_INVALID }).refine((c) => REFERENCE_LINE_COLOURS.some((o) => o.value === c.toUpperCase()), M.COLOUR_INVALID),
});

/** Display info: offset (null when off), limits both or neither and ordered, up to 3 reference lines. */
export const displayInfoRulesSchema = z
  .object({
    offsetMeasurement: z.number({ error: M.OFFSET_EMPTY }).nullable(),
    minLevel: z.number({ error: M.MIN_LEVEL_MISSING }).nullable(),
    maxLevel: z.number({ error: M.MAX_LEVEL_MISSING }).nullable(),
    referenceLines: z.array(referenceLineRulesSchema).max(MAX_REFERENCE_LINES, M.REFERENCE_LINES_TOO_MANY),
  })
  .superRefine((d, ctx) => {
    const { minLevel: min, maxLevel: max } = d;
    if (min === null && max !== null) ctx.addIssue({ code: 'custom', path: ['minLevel'], message: M.MIN_LEVEL_MISSING });
    if (max === null && min !== null) ctx.addIssue({ code: 'custom', path: ['maxLevel'], message: M.MAX_LEVEL_MISSING });
    // a percentage shows whenever both are set, so equal limits are refused as well
    if (min !== null && max !== null && !(min < max)) ctx.addIssue({ code: 'custom', path: ['minLevel'], message: M.LIMITS_ORDER });
    if (d.offsetMeasurement === null && (min !== null || max !== null)) ctx.addIssue({ code: 'custom', path: ['offsetMeasurement'], message: M.LIMITS_NEED_OFFSET });
  });

export const coordinateSchema = (range: readonly [number, number]) =>
  z.number({ error: M.ILLEGAL_COORDINATES }).refine((v) => v >= range[0] && v <= range[1], M.ILLEGAL_COORDINATES);

export const integrationRulesSchema = z.object({
  pointId: z.string().trim().max(64, M.POINT_ID_TOO_LONG).default(''),
  commissioningStatus: z.number({ error: M.COMMISSIONING_STATUS_INVALID }).refine((v) => [1, 2, 3, 4, 5].includes(v), M.COMMISSIONING_STATUS_INVALID),
});

/** The valid level range of a sensor in mm: its type's distance range seen through the offset. */
export function validLevelRange(sensor: { sensorType: string; displayInfo: { offsetMeasurement?: number | null } }): [number, number] {
  const t = sensorTypeOf(sensor.sensorType);
  const { min, max } = t ? SENSOR_RANGE_MM[t] : { min: 0, max: 20_000 };
  const offset = sensor.displayInfo.offsetMeasurement;
  return offset === null || offset === undefined ? [min, max] : [offset - max, offset - min];
}
