import type { AppContext } from '../context';
import { publishTasks, timeoutTasks, TIMEOUT_MS } from '../tasks/lifecycle';
import { periodicJob, type PeriodicJob } from './periodic';

/**
 * Dispatched tasks the device never reported become Timeout 3 days after dispatch (sensor-setup
 * 4). Safe in several processes: each sensor is settled under its row lock and the update only
 * moves tasks still Dispatched, so two processes never time out one task twice.
 */
export function createTaskTimeoutJob(ctx: AppContext, opts: { intervalMs?: number } = {}): PeriodicJob {
  async function pass(): Promise<number> {
    const now = ctx.now();
    const due = await ctx.db.query<{ sensor_id: string }>(
      `SELECT DISTINCT sensor_id FROM downlink_tasks WHERE status = 'Dispatched' AND dispatched_at <= $1`,
      [now - TIMEOUT_MS],
    );
    let n = 0;
    for (const { sensor_id } of due) {
      const rows = await ctx.db.tx(async (q) => {
        await q.query('SELECT 1 FROM sensors WHERE id = $1 FOR UPDATE', [sensor_id]);
        return timeoutTasks(q, sensor_id, now);
      });
      n += rows.length;
      await publishTasks(ctx, sensor_id, rows);
    }
    return n;
  }
  return periodicJob(ctx, 'task timeout check', pass, opts.intervalMs);
}
