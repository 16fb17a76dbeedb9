import { FrameError } from './sigfox-frame';

/**
 * The Myriota satellite frame of a Tidewatch sensor: 20 bytes (a Myriota message's payload), encoded
 * and decoded here only (the server's destination endpoint and any simulated device). Big-endian.
 * A satellite radio takes no downlinks. docs/device-protocol.md shows it with a worked example.
 *
 * | byte  | bits | field                                                                   |
 * |-------|------|-------------------------------------------------------------------------|
 * | 0     | 7-6  | frame version, 0                                                        |
 * | 0     | 5    | 1: the serial has 6 hexadecimal characters (bytes 1-4 hold 00xxxxxx)    |
 * | 0     | 4    | zero                                                                    |
 * | 0     | 3-0  | error code of the newest measurement slot: 0 none, n is `E<n>`          |
 * | 1-4   |      | the sensor's serial                                                     |
 * | 5     |      | battery, percent (0-100); 255 not reported                              |
 * | 6-7   |      | minutes between the measurements (1-1440)                               |
 * | 8-19  |      | four raw distances, 3 bytes each, oldest first, hundredths of a millimetre; FFFFFF none; the newest at the packet's Timestamp |
 *
 * The serial travels in the frame because a Myriota terminal id (10 hexadecimal characters) is
 * the radio module's, not the sensor's.
 */

export const MYRIOTA_FRAME_BYTES = 20;
const NONE = 0xffffff;
const SCALE = 100;

export interface MyriotaFrame {
  serial: string;
  error?: string;
  battery?: number;
  spacingMinutes: number;
  /** Oldest first; null where the slot has no distance. */
  distances: [number | null, number | null, number | null, number | null];
}

export function decodeMyriotaFrame(hex: string): MyriotaFrame {
  if (!/^([0-9a-fA-F]{2})*$/.test(hex) || hex.length !== 2 * MYRIOTA_FRAME_BYTES) throw new FrameError(`The Myriota frame must be ${2 * MYRIOTA_FRAME_BYTES} hexadecimal characters (${MYRIOTA_FRAME_BYTES} bytes).`);
  const b = Buffer.from(hex, 'hex');
  const version = b[0] >> 6;
  if (version !== 0) throw new FrameError(`Unknown Myriota frame version ${version}.`);
  const short = (b[0] & 0x20) !== 0;
  const raw = b.readUInt32BE(1);
  if (short && raw > 0xffffff) throw new FrameError('A 6-character serial must fit in 3 bytes.');
  const serial = raw.toString(16).toUpperCase().padStart(short ? 6 : 8, '0');
  const battery = b[5];
  if (battery !== 255 && battery > 100) throw new FrameError(`Battery ${battery}% is out of range (0-100, 255 for none).`);
  const spacing = b.readUInt16BE(6);
  if (spacing < 1 || spacing > 1440) throw new FrameError('The minutes between measurements must be 1 to 1440.');
  const d = (at: number) => {
    const v = b.readUIntBE(at, 3);
    return v === NONE ? null : v / SCALE;
  };
  const code = b[0] & 0x0f;
  return {
    serial,
    ...(code ? { error: `E${code}` } : {}),
    ...(battery !== 255 ? { battery } : {}),
    spacingMinutes: spacing,
    distances: [d(8), d(11), d(14), d(17)],
  };
}

export function encodeMyriotaFrame(f: MyriotaFrame): string {
  if (!/^([0-9A-F]{6}|[0-9A-F]{8})$/.test(f.serial)) throw new FrameError('The serial must be 6 or 8 upper-case hexadecimal characters.');
  const code = f.error ? Number(/^E(\d{1,2})$/.exec(f.error)?.[1]) : 0;
  if (!(code >= 0 && code <= 15)) throw new FrameError(`A Myriota frame carries error codes E1 to E15, not ${f.error}.`);
  if (!(Number.isInteger(f.spacingMinutes) && f.spacingMinutes >= 1 && f.spacingMinutes <= 1440)) throw new FrameError('The minutes between measurements must be 1 to 1440.');
  const b = Buffer.alloc(MYRIOTA_FRAME_BYTES);
  b[0] = (f.serial.length === 6 ? 0x20 : 0) | code;
  b.writeUInt32BE(parseInt(f.serial, 16), 1);
  b[5] = f.battery === undefined ? 255 : Math.max(0, Math.min(100, Math.round(f.battery)));
  b.writeUInt16BE(f.spacingMinutes, 6);
  f.distances.forEach((v, i) => b.writeUIntBE(v === null ? NONE : Math.max(0, Math.min(NONE - 1, Math.round(v * SCALE))), 8 + 3 * i, 3));
  return b.toString('hex').toUpperCase();
}

/** The measurements of a decoded frame: the newest at `time` (ms), the others `spacingMinutes` apart before it. */
export function myriotaMeasurements(f: MyriotaFrame, time: number) {
  const n = f.distances.length;
  const measurements: { time: number; rawDistance: number }[] = [];
  f.distances.forEach((v, i) => {
    if (v !== null) measurements.push({ time: time - (n - 1 - i) * f.spacingMinutes * 60_000, rawDistance: v });
  });
  return { measurements, errors: f.error ? [{ time, code: f.error }] : [] };
}
