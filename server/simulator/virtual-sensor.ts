import { sampleAt, unit, type SignalModel } from '../../src/domain/signals';
import type { Uplink, UplinkAck } from '../../src/contract/uplink.schema';
import { jitterSignal, linkQualityOf } from './radio';
import type { FullRadarParams } from '../../src/contract/downlink-task.schema';
import { FULL_RADAR_DEFAULTS } from '../../src/domain/task-params';

const MIN = 60_000;
const DAY = 1440 * MIN;
/** A device buffers at most a day of measurements while it cannot reach the server. */
const BUFFER_MS = DAY;
/** The uplink contract carries at most 100 measurements and errors. */
const MAX_PER_UPLINK = 100;

export interface BootInfo {
  buildType?: 'Alpha' | 'Beta' | 'Production';
  firmwareVersion?: number;
  sensorVersion?: number;
  hardwareVersion?: number;
}

/** What one virtual device knows about itself, as a real one would keep it in flash. */
export interface VirtualSensor {
  id: string;
  serial: string;
  sensorType: string;
  radio: string;
  key: string;
  /** The owning organisation: a Sigfox or Myriota sensor's frames reach it through the network's callback. */
  orgId?: string;
  /** When a Sigfox sensor last asked for a downlink (its budget is one every 6 hours). */
  downlinkAskedAt?: number;
  model: SignalModel;
  measurementMs: number;
  transmissionMs: number;
  /** Time of the last measurement slot already sent (measurement or error). */
  lastSlot: number;
  lastTx: number;
  nextTx: number;
  battery: number;
  signalBase: number | undefined;
  boot: BootInfo;
  /** Boot info goes out with the first uplink after a (re)boot. */
  booted: boolean;
  /** Results of downlink tasks applied since the last uplink. */
  applied: { id: string; ok: boolean }[];
  /** A radar device's radar settings (factory defaults until a FullRadarConfig task changes them). */
  radar?: FullRadarParams;
  /** The radar settings went out since the device (or the simulator) started: a radar reports them once after a start. */
  radarReported?: boolean;
  txCount: number;
  failures: number;
}

const RADAR = new Set(['LS1-R', 'T35', 'T35-Pro', 'LS1-R-12M']);
const radarOf = (v: VirtualSensor): FullRadarParams =>
  v.radar ?? { ...FULL_RADAR_DEFAULTS, length: Math.round((FULL_RADAR_DEFAULTS.endDistance - FULL_RADAR_DEFAULTS.startDistance) * 1000) / 1000 };

/** The uplinks due at `now`: every slot since the last one sent, in chunks the contract accepts. */
export function dueUplinks(v: VirtualSensor, now: number): { uplink: Uplink; lastSlot: number }[] {
  const newest = Math.floor(now / v.measurementMs) * v.measurementMs;
  let slot = Math.max(v.lastSlot, newest - BUFFER_MS) + v.measurementMs;
  slot = Math.ceil(slot / v.measurementMs) * v.measurementMs; // back on the grid after an interval change
  const out: { uplink: Uplink; lastSlot: number }[] = [];
  const signalLevel = jitterSignal(v.radio, v.signalBase, unit(v.model.seed, v.txCount, 55));
  const head = {
    serial: v.serial,
    sentAt: now,
    battery: Math.max(0, Math.round(v.battery)),
    ...(signalLevel !== undefined ? { signalLevel } : {}),
    linkQuality: linkQualityOf(v.radio, signalLevel),
  };
  do {
    const measurements: Uplink['measurements'] = [];
    const errors: Uplink['errors'] = [];
    let last = v.lastSlot;
    for (; slot <= newest && measurements.length + errors.length < MAX_PER_UPLINK; slot += v.measurementMs) {
      const s = sampleAt(v.model, slot);
      if (s.code !== undefined) errors.push({ time: slot, code: s.code });
      else measurements.push({ time: slot, rawDistance: s.rawDistance });
      last = slot;
    }
    const first = out.length === 0;
    out.push({
      uplink: {
        ...head,
        measurements,
        errors,
        appliedTasks: first ? v.applied : [],
        // after a (re)boot the device says what it runs: its boot info and, for a radar, its radar settings
        ...(first && v.booted ? { bootInfo: v.boot } : {}),
        ...(first && RADAR.has(v.sensorType) && (v.booted || !v.radarReported) ? { radarSettings: radarOf(v) } : {}),
      },
      lastSlot: last,
    });
  } while (slot <= newest);
  return out;
}

/** Books a delivered uplink: what was sent is not sent again; battery drains with time and radio use. */
export function markSent(v: VirtualSensor, sent: { uplink: Uplink; lastSlot: number }, now: number) {
  v.lastSlot = Math.max(v.lastSlot, sent.lastSlot);
  if (sent.uplink.appliedTasks.length) v.applied = v.applied.filter((a) => !sent.uplink.appliedTasks.includes(a));
  if (sent.uplink.bootInfo) v.booted = false;
  if (sent.uplink.radarSettings) v.radarReported = true;
  v.battery = Math.max(0, v.battery - ((now - v.lastTx) / DAY) * 0.04 - 0.0004);
  v.lastTx = now;
  v.txCount++;
}

const ALARM_TYPES = new Set(['THRESHOLD_INCREASING', 'THRESHOLD_DECREASING', 'DELTA_INCREASING', 'DELTA_DECREASING', 'ACCELEROMETER']);
const isInt = (x: unknown, min: number, max: number): x is number => Number.isInteger(x) && (x as number) >= min && (x as number) <= max;

export interface FirmwareImage {
  type: string;
  version: number;
  buildType: string;
  hardwareVersions: number[];
}

/**
 * Applies one downlink task the way the firmware does: it checks the parameters, changes its own
 * schedule or firmware, and reports ok or not in the next uplink. A sonic sensor has no radar to
 * configure; an image built for other hardware is refused.
 */
export function applyDownlink(v: VirtualSensor, task: UplinkAck['downlinks'][number], firmware: FirmwareImage | undefined): boolean {
  const p = task.params;
  switch (task.type) {
    case 'SensorConfig': {
      const mi = p.measurementInterval;
      const per = p.measurementsPerTransmission;
      if (!isInt(mi, 1, 1439) || !isInt(per, 1, MAX_PER_UPLINK)) return false;
      v.lastSlot = Math.floor(v.lastSlot / (mi * MIN)) * mi * MIN;
      v.measurementMs = mi * MIN;
      v.transmissionMs = mi * per * MIN;
      return true;
    }
    case 'AlarmConfig': {
      const value = p.value as { type?: unknown; threshold?: unknown } | undefined;
      return isInt(Number(p.index), 0, 7) && !!value && ALARM_TYPES.has(String(value.type)) && Number.isFinite(value.threshold);
    }
    case 'FirmwareDownload': {
      if (!firmware || !v.boot.hardwareVersion || !firmware.hardwareVersions.includes(v.boot.hardwareVersion)) return false;
      if (firmware.type === 'Main') v.boot = { ...v.boot, firmwareVersion: firmware.version, buildType: firmware.buildType as BootInfo['buildType'] };
      v.booted = true; // the device restarts into the new image
      return true;
    }
    case 'FullRadarConfig':
      if (!RADAR.has(v.sensorType)) return false;
      v.radar = { ...radarOf(v), ...(p as Partial<FullRadarParams>) };
      return true;
    case 'RadarConfig':
    case 'TransmissionConfig':
      return RADAR.has(v.sensorType);
    case 'ExtendedConfig':
      return p.txCountOnAlarm === undefined || isInt(p.txCountOnAlarm, 1, 6);
    default:
      return false;
  }
}

/** One radio frame's worth of an uplink: `slots` raw distances on the measurement grid, oldest first, the newest at `time`. */
export interface RadioFrame {
  time: number;
  spacingMinutes: number;
  distances: (number | null)[];
  /** The newest slot's error code (a frame carries one, in its newest slot). */
  error?: string;
}

/**
 * An uplink cut into the fixed frames of a narrow-band radio (a Sigfox frame holds 3 slots, a
 * Myriota frame 4): consecutive slots oldest first, each frame ending at its newest slot; an error
 * ends its frame, since a frame carries an error only in its newest slot. A slot with neither a
 * distance nor an error in the uplink is sent as none.
 */
export function radioFrames(uplink: Pick<Uplink, 'measurements' | 'errors'>, measurementMs: number, slots: number): RadioFrame[] {
  const items = [...uplink.measurements.map((m) => ({ time: m.time, raw: m.rawDistance as number | undefined, code: undefined as string | undefined })), ...uplink.errors.map((e) => ({ time: e.time, raw: undefined, code: e.code }))].sort(
    (a, b) => a.time - b.time,
  );
  const spacingMinutes = Math.round(measurementMs / MIN);
  const frames: RadioFrame[] = [];
  let chunk: typeof items = [];
  const flush = () => {
    const newest = chunk[chunk.length - 1];
    if (!newest) return;
    const distances = Array.from({ length: slots }, (_, j) => chunk.find((c) => c.time === newest.time - (slots - 1 - j) * measurementMs)?.raw ?? null);
    frames.push({ time: newest.time, spacingMinutes, distances, ...(newest.code !== undefined ? { error: newest.code } : {}) });
    chunk = [];
  };
  for (const item of items) {
    // a frame covers consecutive slots only: a gap starts a new one
    if (chunk.length && item.time - chunk[chunk.length - 1]!.time !== measurementMs) flush();
    chunk.push(item);
    if (item.code !== undefined || chunk.length === slots) flush();
  }
  flush();
  return frames;
}
