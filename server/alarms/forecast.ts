import type { AppContext } from '../context';
import { topics } from '../broker/publisher';
import type { LiveNotificationMessage } from '../../src/contract/live.schema';
import type { ForecastAlarm } from '../../src/contract/sensor.schema';
import { forecastConditions } from '../../src/domain/forecast-alarm';
import { periodicJob, type PeriodicJob } from '../scheduler/periodic';
import { sensorUsage, usageSensor } from '../usage/usage';
import { closeNotification, openNotification, openNotifications } from './notifications';
import type { ConditionMeta } from './rules';

/** A sensor is judged again at most this often while its data keeps arriving (a forecast in days moves slowly). */
export const FORECAST_RECHECK_MS = 15 * 60_000;
/** Sensors judged in one pass at most, the longest waiting first; the rest wait for the next pass. */
const PASS_LIMIT = 200;
const DAY_MS = 86_400_000;

interface Candidate {
  id: string;
  org_id: string;
  serial: string;
  name: string;
  forecast_alarm: ForecastAlarm;
  last_time: number | null;
}

const CANDIDATE = `SELECT id, org_id, serial, name, forecast_alarm, (latest_data->'lastMeasurement'->>'time')::bigint AS last_time
  FROM sensors WHERE org_id IS NOT NULL AND forecast_alarm IS NOT NULL`;

/**
 * Judges one sensor's forecast alarm on its usage forecast (the data core, as the usage pane):
 * opens FORECAST_ALARM notifications for the directions now within their days, closes the ones no
 * longer, with the usual live message and "alert triggered/cleared" deliveries, and records the
 * newest measurement time it judged. Resolves with how many notifications it opened or closed.
 */
export async function judgeForecast(ctx: AppContext, sensorId: string, now = ctx.now()): Promise<number> {
  const s = (await ctx.db.query<Candidate>(`${CANDIDATE} AND id = $1`, [sensorId]))[0];
  if (!s) return 0;
  const sensor = await usageSensor(ctx.db, s.org_id, s.id);
  if (!sensor) return 0;
  const end = s.last_time ?? now;
  const usage = await sensorUsage(ctx.db, sensor, s.id, { startTime: end - DAY_MS, endTime: end });
  const conditions = forecastConditions(s.forecast_alarm, usage.kind === 'volume' ? usage.forecasts : []);

  const messages = await ctx.db.tx(async (q) => {
    // the row lock orders this pass against a settings save and another process's pass
    const locked = (await q.query<{ forecast_alarm: ForecastAlarm | null }>('SELECT forecast_alarm FROM sensors WHERE id = $1 FOR UPDATE', [s.id]))[0];
    if (!locked || JSON.stringify(locked.forecast_alarm) !== JSON.stringify(s.forecast_alarm)) return []; // changed meanwhile: judged again
    const open = await openNotifications(q, s.id);
    const out: LiveNotificationMessage[] = [];
    for (const c of conditions) {
      const o = open.get(c.key);
      if (c.active === true && !o) {
        const meta: ConditionMeta = { type: 'FORECAST_ALARM', forecast: { target: c.direction, withinDays: c.withinDays!, days: Math.round(c.days! * 10) / 10, at: c.at } };
        const msg = await openNotification(q, s, c.key, meta, now, now);
        if (msg) out.push(msg);
      } else if (c.active === false && o) {
        const msg = await closeNotification(q, s, o, now, now);
        if (msg) out.push(msg);
      }
    }
    await q.query('UPDATE sensors SET forecast_checked_at = $2, forecast_judged_at = $3 WHERE id = $1', [s.id, end, now]);
    return out;
  });
  for (const m of messages) await ctx.publisher.publish(topics.notifications(s.org_id), m satisfies LiveNotificationMessage).catch((err) => ctx.log.warn({ err }, 'publish failed'));
  return messages.length;
}

/**
 * Judges a sensor soon, after the caller's answer (a settings save): a failure is logged, the
 * periodic pass tries again. The server's stop waits for it (ctx.afterAnswer).
 */
export function judgeForecastSoon(ctx: AppContext, sensorId: string): Promise<void> {
  const done = new Promise<void>((resolve) => setTimeout(resolve, 0))
    .then(() => judgeForecast(ctx, sensorId))
    .then(
      () => undefined,
      (err: unknown) => ctx.log.error({ err, sensorId }, 'forecast alarm failed'),
    )
    .finally(() => ctx.afterAnswer?.delete(done));
  ctx.afterAnswer?.add(done);
  return done;
}

/**
 * The forecast alarm's periodic pass: every sensor with the alarm set whose newest measurement is
 * newer than the one it was last judged on (or never judged), at most every FORECAST_RECHECK_MS of
 * the clock (forecast_judged_at, when it was judged; not the measurement's time, which late data
 * would hold back).
 * Safe in several processes: each sensor is judged under its row lock and opening is idempotent.
 */
export function createForecastAlarmJob(ctx: AppContext, opts: { now?: () => number; intervalMs?: number } = {}): PeriodicJob {
  const now = opts.now ?? ctx.now;
  async function pass(): Promise<number> {
    const t = now();
    const due = await ctx.db.query<{ id: string }>(
      `SELECT id FROM sensors WHERE org_id IS NOT NULL AND forecast_alarm IS NOT NULL
         AND (forecast_checked_at IS NULL OR ((latest_data->'lastMeasurement'->>'time')::bigint > forecast_checked_at AND (forecast_judged_at IS NULL OR forecast_judged_at < $1)))
       ORDER BY forecast_checked_at NULLS FIRST LIMIT ${PASS_LIMIT}`,
      [t - FORECAST_RECHECK_MS],
    );
    let n = 0;
    for (const r of due) {
      try {
        n += await judgeForecast(ctx, r.id, t);
      } catch (err) {
        ctx.log.error({ err, sensorId: r.id }, 'forecast alarm failed');
      }
    }
    return n;
  }
  return periodicJob(ctx, 'forecast alarm', pass, opts.intervalMs);
}
