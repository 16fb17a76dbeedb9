import { uplinkSchema, type Uplink } from '../../src/contract/uplink.schema';

/**
 * The uplink body checked against the contract (`uplinkSchema`, which stays the contract): a
 * hand-written check first, for the shapes devices send every minute, and zod for everything
 * else. The fast check only ever accepts; it builds exactly the value zod would (same keys, same
 * order, serial trimmed and upper-cased, the same defaults), and whatever it does not recognise,
 * or would refuse, goes to zod, so every refusal and its message is zod's own.
 * tests/server/uplink-parse.test.ts checks the equality on generated bodies.
 */
export function parseUplink(body: unknown): { success: true; data: Uplink } | { success: false; message: string } {
  const fast = fastUplink(body);
  if (fast) return { success: true, data: fast };
  const parsed = uplinkSchema.safeParse(body);
  if (parsed.success) return { success: true, data: parsed.data };
  const i = parsed.error.issues[0];
  return { success: false, message: `Invalid uplink: ${i.path.join('.') || 'body'}: ${i.message}` };
}

const SERIAL = /^([0-9A-F]{6}|[0-9A-F]{8})$/;
const CODE = /^E\d{1,2}$/;
const LINK = new Set(['EXCELLENT', 'GOOD', 'AVERAGE', 'LIMIT', 'OFFLINE']);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype;
const isTime = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 && v <= 8.64e15;
const isDistance = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0 && v <= 100_000;

/** The common uplink, or undefined when zod must judge it (anything unusual, and every refusal). */
export function fastUplink(body: unknown): Uplink | undefined {
  if (!isObject(body)) return undefined;
  let serial: string | undefined;
  let sentAt: number | undefined;
  let measurements: Uplink['measurements'] | undefined;
  let errors: Uplink['errors'] | undefined;
  let battery: number | undefined;
  let signalLevel: number | undefined;
  let linkQuality: Uplink['linkQuality'];
  let accelerometer: number | undefined;
  for (const key in body) {
    const v = body[key];
    switch (key) {
      case 'serial':
        if (typeof v !== 'string') return undefined;
        serial = v.trim().toUpperCase();
        if (!SERIAL.test(serial)) return undefined;
        break;
      case 'sentAt':
        if (!isTime(v)) return undefined;
        sentAt = v;
        break;
      case 'measurements': {
        if (!Array.isArray(v) || v.length > 100) return undefined;
        measurements = [];
        for (const m of v) {
          if (!isObject(m)) return undefined;
          let n = 0;
          for (const k in m) if (k !== 'time' && k !== 'rawDistance' && k !== 'betaRawDistance') return undefined;
          else n++;
          const { time, rawDistance, betaRawDistance } = m;
          if (!isTime(time) || !isDistance(rawDistance)) return undefined;
          if (n === 2) measurements.push({ time, rawDistance });
          else if (betaRawDistance === null || isDistance(betaRawDistance)) measurements.push({ time, rawDistance, betaRawDistance });
          else return undefined;
        }
        break;
      }
      case 'errors': {
        if (!Array.isArray(v) || v.length > 100) return undefined;
        errors = [];
        for (const e of v) {
          if (!isObject(e)) return undefined;
          for (const k in e) if (k !== 'time' && k !== 'code') return undefined;
          const { time, code } = e;
          if (!isTime(time) || typeof code !== 'string' || !CODE.test(code)) return undefined;
          errors.push({ time, code });
        }
        break;
      }
      case 'battery':
        if (typeof v !== 'number' || !(v >= 0 && v <= 100)) return undefined;
        battery = v;
        break;
      case 'signalLevel':
        if (typeof v !== 'number' || !Number.isFinite(v)) return undefined;
        signalLevel = v;
        break;
      case 'linkQuality':
        if (typeof v !== 'string' || !LINK.has(v)) return undefined;
        linkQuality = v as Uplink['linkQuality'];
        break;
      case 'accelerometer':
        if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0 || v > 255) return undefined;
        accelerometer = v;
        break;
      case 'appliedTasks':
        // only the empty list here: task ids are judged by zod's own uuid rule
        if (!Array.isArray(v) || v.length) return undefined;
        break;
      default:
        // bootInfo, radarSettings, keys the contract does not know: zod decides
        return undefined;
    }
  }
  if (serial === undefined) return undefined;
  // the schema's key order, as zod builds it
  const up = { serial } as Uplink;
  if (sentAt !== undefined) up.sentAt = sentAt;
  up.measurements = measurements ?? [];
  up.errors = errors ?? [];
  if (battery !== undefined) up.battery = battery;
  if (signalLevel !== undefined) up.signalLevel = signalLevel;
  if (linkQuality !== undefined) up.linkQuality = linkQuality;
  if (accelerometer !== undefined) up.accelerometer = accelerometer;
  up.appliedTasks = [];
  return up;
}
