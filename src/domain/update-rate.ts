/** Scheduler (update-rate) rules, sensor-setup 4, 5, 9 and DESIGN.md "Update rate"; shared by the form and the server. */

/** Transmission interval choices in minutes (section 9). */
export const TRANSMISSION_LIST = [1, 5, 10, 15, 30, 60, 120, 180, 240, 360, 480, 720, 1440] as const;
export const SIMPLE_MEASUREMENT = 15;
export const SIMPLE_TRANSMISSIONS = [360, 240, 120] as const;
export const MAX_GRADIENT = 4700;
export const ALARM_MULTIPLIERS = [1, 2, 4] as const;

export const SCHEDULE_MESSAGES = {
  notMultiple: 'Transmission interval must be a multiple of the measurement interval',
  missingMeasurement: 'Missing measurement interval',
  missingTransmission: 'Missing transmission interval',
  invalidAlarm: 'Invalid txIntervalOnAlarm value',
  noAlarmOptions: 'No alarm options available for your current settings.',
  measurementRange: 'The measurement interval must be a whole number from 1 to 1439',
  notOffered: 'This interval is not offered for the sensor\'s radio',
  tooMany: (max: number) => `At most ${max} measurements per transmission`,
  gradient: `The maximum gradient must be from 0 to ${MAX_GRADIENT}`,
} as const;

/** Cellular and wifi choose intervals from a fixed list; the other radios take a whole number. */
export const usesList = (radio: string) => radio === 'cellular' || radio === 'wifi';

/** Measurement choices for a listed radio: the list above 9 minutes plus the sensor's current value. */
export function measurementOptions(radio: string, current: number): number[] | null {
  if (!usesList(radio)) return null;
  return [...new Set([...TRANSMISSION_LIST.filter((m) => m > 9), current])].sort((a, b) => a - b);
}

export const maxPerTransmission = (deltaCompression: boolean) => (deltaCompression ? 12 : 6);

/** Transmission choices: multiples 1 to 6 (12 with delta compression) of the measurement interval; a listed radio keeps the listed ones. */
export function transmissionOptions(radio: string, measurement: number, deltaCompression = false): number[] {
  if (!Number.isInteger(measurement) || measurement < 1) return [];
  const out: number[] = [];
  for (let k = 1; k <= maxPerTransmission(deltaCompression); k++) {
    const t = k * measurement;
    if (!usesList(radio) || (TRANSMISSION_LIST as readonly number[]).includes(t)) out.push(t);
  }
  return out;
}

/** The transmission interval kept after the measurement interval changes: the same if still valid, else the largest option. */
export function adjustTransmission(radio: string, measurement: number, transmission: number | undefined, deltaCompression = false): number | undefined {
  const opts = transmissionOptions(radio, measurement, deltaCompression);
  if (transmission !== undefined && opts.includes(transmission)) return transmission;
  return opts.at(-1);
}

/** Simple mode's transmissions the rules allow: every 6, 4 or 2 hours of 15-minute measurements, within the per-transmission limit. */
export const simpleTransmissions = (radio: string, deltaCompression: boolean): number[] =>
  SIMPLE_TRANSMISSIONS.filter((t) => transmissionOptions(radio, SIMPLE_MEASUREMENT, deltaCompression).includes(t));

/** Alarm-mode transmit options in multipliers of the measurement interval: 1, 2 or 4 while below the transmission interval. */
export const alarmOptions = (measurement: number, transmission: number) => ALARM_MULTIPLIERS.filter((k) => k * measurement < transmission);

/** The measurement interval's message, if it breaks a rule. */
export function measurementError(radio: string, currentMeasurement: number, m: number | undefined): string | undefined {
  if (m === undefined || Number.isNaN(m)) return SCHEDULE_MESSAGES.missingMeasurement;
  if (!Number.isInteger(m) || m < 1 || m > 1439) return SCHEDULE_MESSAGES.measurementRange;
  if (usesList(radio) && !measurementOptions(radio, currentMeasurement)!.includes(m)) return SCHEDULE_MESSAGES.notOffered;
  return undefined;
}

export interface Schedule {
  radio: string;
  currentMeasurement: number;
  measurementInterval: number | undefined;
  transmissionInterval: number | undefined;
  deltaCompressionEnabled?: boolean;
  maxGradient?: number;
  txCountOnAlarm?: number;
}

export type ScheduleErrors = Partial<Record<'measurementInterval' | 'transmissionInterval' | 'txCountOnAlarm' | 'maxGradient', string>>;

/** Every field message of section 5's scheduler rules. */
export function scheduleErrors(s: Schedule): ScheduleErrors {
  const e: ScheduleErrors = {};
  const m = s.measurementInterval;
  const t = s.transmissionInterval;
  const me = measurementError(s.radio, s.currentMeasurement, m);
  if (me) e.measurementInterval = me;
  if (t === undefined || Number.isNaN(t)) e.transmissionInterval = SCHEDULE_MESSAGES.missingTransmission;
  else if (m !== undefined && !e.measurementInterval) {
    const per = t / m;
    if (!Number.isInteger(per)) e.transmissionInterval = SCHEDULE_MESSAGES.notMultiple;
    else if (per > maxPerTransmission(!!s.deltaCompressionEnabled)) e.transmissionInterval = SCHEDULE_MESSAGES.tooMany(maxPerTransmission(!!s.deltaCompressionEnabled));
    else if (!transmissionOptions(s.radio, m, s.deltaCompressionEnabled).includes(t)) e.transmissionInterval = SCHEDULE_MESSAGES.notOffered;
  }
  if (s.txCountOnAlarm !== undefined && m !== undefined && t !== undefined && !e.measurementInterval && !e.transmissionInterval) {
    const opts = alarmOptions(m, t);
    if (!(opts as number[]).includes(s.txCountOnAlarm)) e.txCountOnAlarm = opts.length ? SCHEDULE_MESSAGES.invalidAlarm : SCHEDULE_MESSAGES.noAlarmOptions;
  }
  if (s.maxGradient !== undefined && (!Number.isFinite(s.maxGradient) || s.maxGradient < 0 || s.maxGradient > MAX_GRADIENT)) e.maxGradient = SCHEDULE_MESSAGES.gradient;
  return e;
}
