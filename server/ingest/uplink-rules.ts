import { createHash } from 'node:crypto';
import type { Uplink } from '../../src/contract/uplink.schema';

export const hashDeviceKey = (key: string) => createHash('sha256').update(key).digest('hex');

export type Point = { time: number; raw_distance: number; beta_raw_distance?: number | null };

export interface SensorRow {
  id: string;
  serial: string;
  org_id: string | null;
  name: string;
  sensor_type: string;
  device_key_hash: string;
  config: Record<string, unknown>;
  alarms: Record<string, { type: string; enabled: boolean; threshold: number }>;
  display_info: Record<string, unknown>;
  latest_data: Record<string, unknown> | null;
}

/** The sensor's latest data after one uplink that stored `stored` (the newest measurement moves it). */
export function nextLatestData(prev: Record<string, unknown>, up: Uplink, stored: { time: number; raw_distance: number }[], now: number) {
  const latest: Record<string, unknown> = { ...prev, lastSeen: now };
  if (up.signalLevel !== undefined) latest.signalLevel = up.signalLevel;
  if (up.linkQuality !== undefined) latest.linkQuality = up.linkQuality;
  if (up.battery !== undefined) latest.battery = up.battery;
  const newest = stored.reduce<{ time: number; raw_distance: number } | undefined>((a, m) => (!a || m.time > a.time ? m : a), undefined);
  const prevTime = (prev.lastMeasurement as { time?: number } | undefined)?.time ?? -1;
  if (newest && newest.time > prevTime) {
    latest.lastMeasurement = { time: newest.time, rawDistance: newest.raw_distance };
    latest.lastMeasurementTransmission = now;
  }
  const newestError = up.errors.reduce<{ time: number; code: string } | undefined>((a, e) => (!a || e.time > a.time ? e : a), undefined);
  if (newestError) latest.lastMeasurementError = { code: newestError.code, time: newestError.time };
  return latest;
}
