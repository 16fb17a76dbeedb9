/**
 * The Sigfox frames of a Tidewatch sensor: the 12-byte uplink and the 8-byte downlink, encoded and
 * decoded here only (the server's callback endpoint and the simulator's Sigfox sensors both use
 * this module). Every multi-byte field is big-endian. docs/device-protocol.md shows the same
 * layout with worked examples.
 *
 * Uplink, 12 bytes:
 *
 * | byte  | bits | field                                                                 |
 * |-------|------|-----------------------------------------------------------------------|
 * | 0     | 7-6  | frame version, 0                                                      |
 * | 0     | 5    | 1: the frame reports the result of the last downlink                  |
 * | 0     | 4    | that result: 1 applied, 0 refused                                     |
 * | 0     | 3-0  | error code of the newest measurement slot: 0 none, n is `E<n>`        |
 * | 1     |      | battery, percent (0-100); 255 not reported                            |
 * | 2     |      | minutes between the measurements (1-255)                              |
 * | 3-5   |      | raw distance, oldest, hundredths of a millimetre; FFFFFF none          |
 * | 6-8   |      | raw distance, middle                                                  |
 * | 9-11  |      | raw distance, newest, measured at the callback's time (whole seconds) |
 *
 * An error code replaces the newest distance's slot (its distance is FFFFFF). Sigfox's own
 * sequence number and radio quality (rssi, snr) come with the callback, not in the frame.
 *
 * Downlink, 8 bytes: byte 0 the task type, bytes 1-7 its parameters (DOWNLINK_LAYOUT).
 */

export const SIGFOX_UPLINK_BYTES = 12;
export const SIGFOX_DOWNLINK_BYTES = 8;
const NONE = 0xffffff;
/** The largest raw distance a frame carries (mm): 167,772.14, above the contract's 100,000. */
const SCALE = 100;

export interface SigfoxUplink {
  /** The last downlink's result, when the frame reports one. */
  report?: { ok: boolean };
  /** Error code of the newest slot (E1 to E15). */
  error?: string;
  battery?: number;
  /** Minutes between the measurements. */
  spacingMinutes: number;
  /** Oldest first; null where the slot has no distance. */
  distances: [number | null, number | null, number | null];
}

export class FrameError extends Error {}

const hexBytes = (hex: string, n: number, what: string): Buffer => {
  if (!new RegExp(`^[0-9a-fA-F]{${2 * n}}$`).test(hex)) throw new FrameError(`${what} must be ${2 * n} hexadecimal characters (${n} bytes).`);
  return Buffer.from(hex, 'hex');
};

export function decodeSigfoxUplink(hex: string): SigfoxUplink {
  const b = hexBytes(hex, SIGFOX_UPLINK_BYTES, 'The Sigfox frame');
  const version = b[0] >> 6;
  if (version !== 0) throw new FrameError(`Unknown Sigfox frame version ${version}.`);
  const code = b[0] & 0x0f;
  const battery = b[1];
  if (battery !== 255 && battery > 100) throw new FrameError(`Battery ${battery}% is out of range (0-100, 255 for none).`);
  const spacing = b[2];
  if (spacing === 0) throw new FrameError('The minutes between measurements must be 1 to 255.');
  const distance = (at: number) => {
    const v = b.readUIntBE(at, 3);
    return v === NONE ? null : v / SCALE;
  };
  const out: SigfoxUplink = { spacingMinutes: spacing, distances: [distance(3), distance(6), distance(9)] };
  if (b[0] & 0x20) out.report = { ok: (b[0] & 0x10) !== 0 };
  if (code) out.error = `E${code}`;
  if (battery !== 255) out.battery = battery;
  return out;
}

export function encodeSigfoxUplink(f: SigfoxUplink): string {
  const b = Buffer.alloc(SIGFOX_UPLINK_BYTES);
  const code = f.error ? Number(/^E(\d{1,2})$/.exec(f.error)?.[1]) : 0;
  if (!(code >= 0 && code <= 15)) throw new FrameError(`A Sigfox frame carries error codes E1 to E15, not ${f.error}.`);
  b[0] = (f.report ? 0x20 | (f.report.ok ? 0x10 : 0) : 0) | code;
  b[1] = f.battery === undefined ? 255 : Math.max(0, Math.min(100, Math.round(f.battery)));
  if (!(Number.isInteger(f.spacingMinutes) && f.spacingMinutes >= 1 && f.spacingMinutes <= 255)) throw new FrameError('The minutes between measurements must be 1 to 255.');
  b[2] = f.spacingMinutes;
  f.distances.forEach((d, i) => b.writeUIntBE(d === null ? NONE : Math.max(0, Math.min(NONE - 1, Math.round(d * SCALE))), 3 + 3 * i, 3));
  return b.toString('hex').toUpperCase();
}

/** The measurements of a decoded frame: the newest at `time` (ms), the others `spacingMinutes` apart before it. */
export function sigfoxMeasurements(f: SigfoxUplink, time: number) {
  const measurements: { time: number; rawDistance: number }[] = [];
  f.distances.forEach((d, i) => {
    if (d !== null) measurements.push({ time: time - (2 - i) * f.spacingMinutes * 60_000, rawDistance: d });
  });
  return { measurements, errors: f.error ? [{ time, code: f.error }] : [] };
}

/** The task types a Sigfox downlink carries, by their code in byte 0. FirmwareDownload and FullRadarConfig do not fit in 8 bytes. */
export const DOWNLINK_CODES = { SensorConfig: 1, AlarmConfig: 2, RadarConfig: 3, ExtendedConfig: 4, TransmissionConfig: 5 } as const;
export type SigfoxTaskType = keyof typeof DOWNLINK_CODES;
export const sigfoxCarries = (type: string): type is SigfoxTaskType => type in DOWNLINK_CODES;

const ALARM_TYPES = ['THRESHOLD_INCREASING', 'THRESHOLD_DECREASING', 'DELTA_INCREASING', 'DELTA_DECREASING', 'ACCELEROMETER'] as const;

/**
 * The 8-byte downlink layouts (bytes 1-7 after the type code in byte 0):
 * - 1 SensorConfig: 1-2 measurementInterval (minutes), 3 measurementsPerTransmission,
 *   4-5 maxGradient in tenths, 6 bit 0 deltaCompressionEnabled, 7 zero.
 * - 2 AlarmConfig: 1 slot index (0-7), 2 alarm type (0 THRESHOLD_INCREASING, 1 THRESHOLD_DECREASING,
 *   2 DELTA_INCREASING, 3 DELTA_DECREASING, 4 ACCELEROMETER), 3 bit 0 enabled, 4-7 threshold (float32).
 * - 3 RadarConfig: 1 debugInterval, 2 scoreSize in hundredths, 3 scoreReflection in fiftieths,
 *   4 gain in two-hundredths, 5 profile (1-5), 6 bit 7 set: bits 0-1 scoringMethod, else bits 0-5 hwAvg,
 *   7 bit 0 checkTooClose.
 * - 4 ExtendedConfig: 1 txCountOnAlarm, 2 bit 0 userRangeEnabled, 3-4 userRangeMin, 5-6 userRangeMax, 7 zero.
 * - 5 TransmissionConfig: 1 bit 0 additionalRadarDataEnabled, 2-3 startingLevelMm (FFFF none), 4-7 zero.
 */
export function encodeSigfoxDownlink(task: { type: string; params: Record<string, unknown> }): string {
  if (!sigfoxCarries(task.type)) throw new FrameError(`A ${task.type} task does not fit in a Sigfox downlink.`);
  const p = task.params;
  const n = (k: string) => Number(p[k]);
  const b = Buffer.alloc(SIGFOX_DOWNLINK_BYTES);
  b[0] = DOWNLINK_CODES[task.type];
  switch (task.type) {
    case 'SensorConfig':
      b.writeUInt16BE(n('measurementInterval'), 1);
      b[3] = n('measurementsPerTransmission');
      b.writeUInt16BE(Math.round(n('maxGradient') * 10), 4);
      b[6] = p.deltaCompressionEnabled ? 1 : 0;
      break;
    case 'AlarmConfig': {
      const v = p.value as { type: (typeof ALARM_TYPES)[number]; enabled: boolean; threshold: number };
      b[1] = n('index');
      b[2] = ALARM_TYPES.indexOf(v.type);
      b[3] = v.enabled ? 1 : 0;
      b.writeFloatBE(v.threshold, 4);
      break;
    }
    case 'RadarConfig':
      b[1] = n('debugInterval');
      b[2] = Math.round(n('scoreSize') * 100);
      b[3] = Math.round(n('scoreReflection') * 50);
      b[4] = Math.round(n('gain') * 200);
      b[5] = n('profile');
      b[6] = p.scoringMethod !== undefined ? 0x80 | n('scoringMethod') : n('hwAvg');
      b[7] = p.checkTooClose ? 1 : 0;
      break;
    case 'ExtendedConfig':
      b[1] = n('txCountOnAlarm');
      b[2] = p.userRangeEnabled ? 1 : 0;
      b.writeUInt16BE(n('userRangeMin'), 3);
      b.writeUInt16BE(n('userRangeMax'), 5);
      break;
    case 'TransmissionConfig':
      b[1] = p.additionalRadarDataEnabled ? 1 : 0;
      b.writeUInt16BE(p.startingLevelMm === null || p.startingLevelMm === undefined ? 0xffff : n('startingLevelMm'), 2);
      break;
  }
  return b.toString('hex').toUpperCase();
}

/** What a device reads from a downlink: the task type and its parameters, as the server queued them (within the layout's resolution). */
export function decodeSigfoxDownlink(hex: string): { type: SigfoxTaskType; params: Record<string, unknown> } {
  const b = hexBytes(hex, SIGFOX_DOWNLINK_BYTES, 'A Sigfox downlink');
  const type = (Object.keys(DOWNLINK_CODES) as SigfoxTaskType[]).find((t) => DOWNLINK_CODES[t] === b[0]);
  if (!type) throw new FrameError(`Unknown downlink type ${b[0]}.`);
  switch (type) {
    case 'SensorConfig':
      return { type, params: { measurementInterval: b.readUInt16BE(1), measurementsPerTransmission: b[3], maxGradient: b.readUInt16BE(4) / 10, deltaCompressionEnabled: (b[6] & 1) === 1 } };
    case 'AlarmConfig': {
      const alarm = ALARM_TYPES[b[2]];
      if (!alarm) throw new FrameError(`Unknown alarm type ${b[2]}.`);
      return { type, params: { index: b[1], value: { type: alarm, enabled: (b[3] & 1) === 1, threshold: b.readFloatBE(4) } } };
    }
    case 'RadarConfig':
      return {
        type,
        params: {
          debugInterval: b[1],
          scoreSize: b[2] / 100,
          scoreReflection: b[3] / 50,
          gain: b[4] / 200,
          profile: b[5],
          ...(b[6] & 0x80 ? { scoringMethod: b[6] & 0x03 } : { hwAvg: b[6] & 0x3f }),
          checkTooClose: (b[7] & 1) === 1,
        },
      };
    case 'ExtendedConfig':
      return { type, params: { txCountOnAlarm: b[1], userRangeEnabled: (b[2] & 1) === 1, userRangeMin: b.readUInt16BE(3), userRangeMax: b.readUInt16BE(5) } };
    case 'TransmissionConfig': {
      const level = b.readUInt16BE(2);
      return { type, params: { additionalRadarDataEnabled: (b[1] & 1) === 1, startingLevelMm: level === 0xffff ? null : level } };
    }
  }
}
