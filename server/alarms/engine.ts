import type { Uplink } from '../../src/contract/uplink.schema';
import type { SensorRow } from '../ingest/uplink-rules';
import { ALERT_TYPES, evaluateConditions, type Condition, type RuleInput } from './rules';
import type { OpenRow } from './notifications';

type Point = { time: number; raw_distance: number };

export interface AlarmPlan {
  open: Condition[];
  close: { row: OpenRow; at: number }[];
  /** The alert flag once the plan is applied. */
  alertAsserted: boolean;
}

/** The measurement the level rules look at: the newest stored by this uplink, if it is now the sensor's newest. */
export function newestOf(stored: Point[], latest: Record<string, unknown>): Point | undefined {
  const newest = stored.reduce<Point | undefined>((a, m) => (!a || m.time > a.time ? m : a), undefined);
  const lastTime = (latest.lastMeasurement as { time?: number } | undefined)?.time;
  return newest && newest.time === lastTime ? newest : undefined;
}

/** Whether the sensor has an enabled rapid-change alarm (only then is the 1-hour window read). */
export const needsWindow = (alarms: SensorRow['alarms']) => Object.values(alarms ?? {}).some((a) => a.enabled && String(a.type).startsWith('DELTA'));

/**
 * What the alarm rules want for one uplink, given the sensor's open notifications: pure, so the
 * ingest fast path can check that nothing opens or closes before taking its one-statement route.
 */
export function planAlarms(sensor: Pick<SensorRow, 'alarms' | 'display_info'>, up: Uplink, newest: Point | undefined, windowStart: Point | undefined, open: Map<string, OpenRow>, now: number): AlarmPlan {
  const conditions = evaluateConditions({
    alarms: sensor.alarms ?? {},
    displayInfo: (sensor.display_info ?? {}) as RuleInput['displayInfo'],
    up,
    newest,
    windowStart,
    openSince: new Map([...open].map(([k, r]) => [k, r.start_time])),
    now,
  });
  const plan: AlarmPlan = { open: [], close: [], alertAsserted: false };
  const after = new Map([...open].map(([k, r]) => [k, r.type]));
  const seen = new Set<string>();
  for (const c of conditions) {
    seen.add(c.key);
    const o = open.get(c.key);
    if (c.active === true && !o) {
      plan.open.push(c);
      after.set(c.key, c.meta.type);
    } else if (c.active === false && o) {
      plan.close.push({ row: o, at: c.at });
      after.delete(c.key);
    }
  }
  // an alarm removed from the sensor's settings ends what it had opened
  for (const [key, o] of open) {
    if (key.startsWith('alarm:') && !seen.has(key)) {
      plan.close.push({ row: o, at: now });
      after.delete(key);
    }
  }
  plan.alertAsserted = [...after.values()].some((t) => ALERT_TYPES.has(t));
  return plan;
}
