import type { AppContext } from '../context';
import { partitionPass } from '../db/measurement-partitions';
import { periodicJob, type PeriodicJob } from './periodic';

/**
 * The measurements partition job (server/db/measurement-partitions.ts): months created ahead,
 * the default partition's rows moved to their months, closed months CLUSTERed. Hourly in every
 * process; a process finding another one's pass under way skips its own.
 */
export function createPartitionJob(ctx: AppContext, opts: { intervalMs?: number } = {}): PeriodicJob {
  async function pass(): Promise<number> {
    const r = await partitionPass(ctx.db, ctx.now());
    if (r.created.length || r.clustered.length) ctx.log.info({ created: r.created, moved: r.moved, clustered: r.clustered }, 'measurement partitions maintained');
    return r.created.length + r.clustered.length;
  }
  return periodicJob(ctx, 'measurement partition job', pass, opts.intervalMs ?? 3_600_000);
}
