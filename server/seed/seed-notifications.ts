import { randomUUID } from 'node:crypto';
import type { Alarm } from '../../src/contract/sensor.schema';
import type { Queryable } from '../db/db';
import type { History } from './history';
import type { PlannedSensor } from './seed-sensors';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
/** Distance a level must fall back past its threshold to clear, so noise does not chatter. */
const HYSTERESIS_MM = 20;
/** Missed transmission intervals before a sensor counts as offline (the offline scheduler's rule). */
const OFFLINE_AFTER = 2.5;
const ALERT_TYPES: ReadonlySet<string> = new Set(['THRESHOLD_ALARM', 'DELTA_ALARM', 'ACCELEROMETER', 'WATER_LEVEL_ALARM']);

export interface DemoNotification {
  sensor: PlannedSensor;
  type: 'WATER_LEVEL_ALARM' | 'THRESHOLD_ALARM' | 'ACCELEROMETER' | 'SENSOR_ERROR' | 'LOW_BATTERY' | 'SENSOR_OFFLINE' | 'DELTA_ALARM';
  conditionKey: string;
  start: number;
  end: number | null;
  endless?: boolean;
  alarmSetting?: Alarm & { index: string };
  /** Level in mm for level alarms, the reading for battery and movement. */
  measurement?: number | null;
  delta?: number | null;
  errorCode?: string;
}

/**
 * The notifications the history implies: threshold alarms wherever the generated levels crossed
 * an enabled alarm (open when still crossed at the end), rapid rises over delta alarms, the
 * flood gauge's water-level alarms, outages as offline alarms, plus a few one-off stories.
 */
export function deriveNotifications(planned: PlannedSensor[], anchor: number): DemoNotification[] {
  const out: DemoNotification[] = [];
  for (const p of planned) {
    const h = p.history;
    if (!h) continue;
    const offset = p.def.offsetMm;
    for (const [index, a] of Object.entries(p.alarms)) {
      if (!a.enabled) continue;
      const alarmSetting = { ...a, index };
      if (a.type === 'THRESHOLD_INCREASING' || a.type === 'THRESHOLD_DECREASING') {
        for (const r of runs(h, offset, a.type === 'THRESHOLD_INCREASING', a.threshold).slice(-5)) {
          out.push({ sensor: p, type: 'THRESHOLD_ALARM', conditionKey: `alarm:${index}`, ...r, alarmSetting });
        }
      }
      if (a.type === 'DELTA_INCREASING') {
        const found = rises(h, offset, a.threshold, anchor - 180 * DAY);
        found.forEach((r, i) => {
          // the newest rapid rise of the flood gauge stays as an endless (INFO) notification
          const endless = p.def.serial === '8192A3B4' && i === found.length - 1;
          out.push({ sensor: p, type: 'DELTA_ALARM', conditionKey: `alarm:${index}`, start: r.time, end: endless ? null : r.time + HOUR, endless, alarmSetting, measurement: r.level, delta: r.rise });
        });
      }
    }
    // a level above maxLevel (or below minLevel) is a water-level alarm: only the flood gauge's floods do that
    if (p.def.maxLevel !== undefined) {
      for (const r of runs(h, offset, true, p.def.maxLevel, false).slice(-3)) out.push({ sensor: p, type: 'WATER_LEVEL_ALARM', conditionKey: 'level', ...r });
    }
    for (const g of p.def.gaps ?? []) {
      const from = anchor - g.daysAgo * DAY;
      const tx = p.def.transmissionInterval * MIN;
      out.push({ sensor: p, type: 'SENSOR_OFFLINE', conditionKey: 'offline', start: from + OFFLINE_AFTER * tx, end: from + g.hours * HOUR + tx });
    }
  }
  out.push(...stories(planned, anchor));
  return out;
}

function stories(planned: PlannedSensor[], anchor: number): DemoNotification[] {
  const by = (serial: string) => planned.find((p) => p.def.serial === serial)!;
  const out: DemoNotification[] = [];
  const culvert = by('A3B4C5');
  out.push({ sensor: culvert, type: 'LOW_BATTERY', conditionKey: 'battery', start: anchor - 12 * DAY - 5 * HOUR, end: null, measurement: 9 });
  out.push({ sensor: culvert, type: 'SENSOR_OFFLINE', conditionKey: 'offline', start: culvert.lastTx! + OFFLINE_AFTER * culvert.def.transmissionInterval * MIN, end: null });
  const flume = by('4D5E6F70');
  const knock = anchor - 17 * DAY - 3 * HOUR;
  const accel = flume.alarms['2'];
  out.push({ sensor: flume, type: 'ACCELEROMETER', conditionKey: 'alarm:2', start: knock, end: knock + HOUR, alarmSetting: { ...accel, index: '2' }, measurement: 87 });
  const stock = by('2B3C4D5E');
  for (const e of stock.history!.errors.slice(-2)) {
    const next = stock.history!.times.find((t) => t > e.time) ?? e.time + stock.def.measurementInterval * MIN;
    out.push({ sensor: stock, type: 'SENSOR_ERROR', conditionKey: 'error', start: e.time, end: next, errorCode: e.code });
  }
  return out;
}

/** Stretches where a level alarm held (level = offset - distance); the last may still be open. */
function runs(h: History, offset: number, rising: boolean, threshold: number, inclusive = true) {
  const out: { start: number; end: number | null; measurement: number }[] = [];
  let open: (typeof out)[number] | undefined;
  for (let i = 0; i < h.times.length; i++) {
    const level = offset - h.raw[i];
    const on = rising ? level > threshold || (inclusive && level === threshold) : level < threshold || (inclusive && level === threshold);
    if (!open && on) {
      open = { start: h.times[i], end: null, measurement: level };
      out.push(open);
    } else if (open && (rising ? level < threshold - HYSTERESIS_MM : level > threshold + HYSTERESIS_MM)) {
      open.end = h.times[i];
      open = undefined;
    }
  }
  return out;
}

/** The three biggest one-hour level rises of at least `threshold` mm since `since`, two days apart, oldest first. */
function rises(h: History, offset: number, threshold: number, since: number) {
  const found: { time: number; rise: number; level: number }[] = [];
  let j = 0;
  for (let i = 0; i < h.times.length; i++) {
    if (h.times[i] < since) continue;
    while (h.times[j] < h.times[i] - HOUR) j++;
    const rise = h.raw[j] - h.raw[i];
    if (rise >= threshold) found.push({ time: h.times[i], rise, level: offset - h.raw[i] });
  }
  found.sort((a, b) => b.rise - a.rise);
  const picked: typeof found = [];
  for (const f of found) {
    if (picked.length < 3 && picked.every((p) => Math.abs(p.time - f.time) > 2 * DAY)) picked.push(f);
  }
  return picked.sort((a, b) => a.time - b.time);
}

export async function insertNotifications(q: Queryable, list: DemoNotification[], orgs: Record<string, string>) {
  for (const n of list) {
    const meta = { type: n.type, alarmSetting: n.alarmSetting ?? null, measurement: n.measurement ?? null, delta: n.delta ?? null, ...(n.errorCode ? { errorCode: n.errorCode } : {}) };
    await q.query(
      `INSERT INTO notifications (id, org_id, sensor_id, type, condition_key, start_time, end_time, endless, meta, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $6)`,
      [randomUUID(), orgs[n.sensor.def.org!], n.sensor.id, n.type, n.conditionKey, n.start, n.end, n.endless ?? false, JSON.stringify(meta)],
    );
  }
}

/** Serials whose latest data asserts an alert: an open alarm notification (offline, battery and errors are warnings). */
export function alertingSerials(list: DemoNotification[]): Set<string> {
  return new Set(list.filter((n) => n.end === null && !n.endless && ALERT_TYPES.has(n.type)).map((n) => n.sensor.def.serial));
}
