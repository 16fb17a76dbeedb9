import { timingSafeEqual } from 'node:crypto';
import type { Queryable } from '../db/db';
import { hashDeviceKey } from '../ingest/uplink';

export interface DeviceSession {
  kind: 'device';
  serial: string;
  deviceKey: string;
}

/** A device connects with its serial as username and its device key as password. */
export async function authenticateDevice(db: Queryable, username: string, deviceKey: string): Promise<DeviceSession | undefined> {
  const serial = username.trim().toUpperCase();
  if (!/^([0-9A-F]{6}|[0-9A-F]{8})$/.test(serial) || !deviceKey) return undefined;
  const row = (await db.query<{ device_key_hash: string }>('SELECT device_key_hash FROM sensors WHERE serial = $1', [serial]))[0];
  if (!row) return undefined;
  const a = Buffer.from(hashDeviceKey(deviceKey), 'hex');
  const b = Buffer.from(row.device_key_hash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b) ? { kind: 'device', serial, deviceKey } : undefined;
}

/** A device publishes only its own uplinks. */
export const deviceMayPublish = (s: DeviceSession, topic: string) => topic === `devices/${s.serial}/uplink`;

/** A device listens only under its own topic. */
export const deviceMaySubscribe = (s: DeviceSession, topic: string) => topic === `devices/${s.serial}/#` || topic.startsWith(`devices/${s.serial}/`);
