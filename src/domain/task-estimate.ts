import { FIRMWARE_MIN } from './remote-tasks';

const MIN = 60_000;
const HOUR = 60 * MIN;
export const ESTIMATE_STEP_MS = 3 * 24 * HOUR;
export const ESTIMATE_REFRESH_MS = 60_000;
/** Sigfox allows a device about four downlinks a day: one every 6 hours at best. */
export const SIGFOX_DOWNLINK_GAP_MS = 6 * HOUR;
export const SIGFOX_NOTE = 'Sigfox sensors can receive at most 4 remote tasks a day.';

export interface EstimateSensor {
  radio: { type: string };
  config: { measurementInterval: number; transmissionInterval: number; txCountOnAlarm?: number };
  latestBootInfo: { firmwareVersion?: number } | null;
  latestData: { lastMeasurementTransmission?: number; alertAsserted?: boolean; lastDownlinkRequestAt?: number } | null;
}

const valid = (t: number | undefined): t is number => typeof t === 'number' && Number.isFinite(t) && t > 0;

/**
 * When a queued task should reach the device (DESIGN.md "Where the specs give two readings"):
 * last transmission plus the transmission interval (txCountOnAlarm x measurement interval while an
 * alert is asserted) when the firmware is 65 or higher and a last transmission is known and recent
 * (not a whole interval overdue: an offline sensor is not expected on schedule); else the
 * last downlink request (or the creation time) moved forward in 3-day steps past now. Tasks run one
 * at a time, so the task at `position` in the queue waits that many more transmissions; a Sigfox
 * device takes at most one downlink per 6 hours, so neither reading promises sooner than that.
 */
export function estimateApplyAt(sensor: EstimateSensor, task: { createdAt: number }, position: number, now: number): number {
  const ld = sensor.latestData ?? {};
  const sigfox = sensor.radio.type === 'sigfox';
  const fw = sensor.latestBootInfo?.firmwareVersion ?? 0;
  let at: number;
  let step: number;
  const minutes = ld.alertAsserted ? (sensor.config.txCountOnAlarm ?? 1) * sensor.config.measurementInterval : sensor.config.transmissionInterval;
  const interval = Math.max(1, minutes) * MIN;
  // a sensor that has missed a whole transmission is not expected on schedule: the stepping reading applies
  const onSchedule = valid(ld.lastMeasurementTransmission) && ld.lastMeasurementTransmission + 2 * interval > now;
  if (fw >= FIRMWARE_MIN.estimate && onSchedule) {
    step = interval;
    at = ld.lastMeasurementTransmission! + step;
  } else {
    step = ESTIMATE_STEP_MS;
    at = valid(ld.lastDownlinkRequestAt) ? ld.lastDownlinkRequestAt : task.createdAt;
    while (at <= now) at += ESTIMATE_STEP_MS;
  }
  if (sigfox) {
    step = Math.max(step, SIGFOX_DOWNLINK_GAP_MS);
    if (valid(ld.lastDownlinkRequestAt)) at = Math.max(at, ld.lastDownlinkRequestAt + SIGFOX_DOWNLINK_GAP_MS);
  }
  return at + position * step;
}

const rtf = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });

/** 'In the next hour' within an hour (or when overdue: the device is expected any moment), else a relative time. */
export function estimateText(at: number, now: number): string {
  const d = at - now;
  if (d < HOUR) return 'In the next hour';
  if (d < 48 * HOUR) return rtf.format(Math.round(d / HOUR), 'hour');
  return rtf.format(Math.round(d / (24 * HOUR)), 'day');
}

export const estimateNote = (sensor: Pick<EstimateSensor, 'radio'>) => (sensor.radio.type === 'sigfox' ? SIGFOX_NOTE : undefined);
