import type { AppContext } from '../context';
import { periodicJob, type PeriodicJob } from './periodic';

/**
 * The tables whose rows are rewritten as the product runs: a sensor's row at every uplink, an
 * outbox row when it is delivered or kept, notifications when they close, downlink tasks as they
 * move, refresh tokens as they rotate and sign-in failures as they are counted and cleared.
 */
export const REWRITTEN_TABLES = ['sensors', 'outbox', 'notifications', 'downlink_tasks', 'refresh_tokens', 'sign_in_failures'] as const;

/**
 * The embedded database's vacuum. PostgreSQL's autovacuum removes the dead row versions those
 * rewrites leave (and the server warns at start when it is off); PGlite runs no autovacuum, so
 * without this a long-running embedded install kept every dead version and its index entries:
 * the outbox's claim stepped over them, and the tables grew without bound. Hourly, as the
 * partition job; a few milliseconds for tables of this size, though PGlite runs nothing else
 * meanwhile. Nothing on PostgreSQL.
 */
export function createMaintenanceJob(ctx: AppContext, opts: { intervalMs?: number } = {}): PeriodicJob {
  async function pass(): Promise<number> {
    if (ctx.db.kind !== 'pglite') return 0;
    await ctx.db.exec(`VACUUM (ANALYZE) ${REWRITTEN_TABLES.join(', ')}`);
    return REWRITTEN_TABLES.length;
  }
  return periodicJob(ctx, 'database maintenance', pass, opts.intervalMs ?? 3_600_000);
}
