import type { AppContext } from './context';
import { startSimulator } from './simulator/fleet';
import { createDispatcher } from './delivery/dispatcher';
import { createOfflineScheduler } from './scheduler/offline';
import { createTaskTimeoutJob } from './scheduler/task-timeout';
import { createPartitionJob } from './scheduler/partitions';
import { createMaintenanceJob } from './scheduler/maintenance';
import { startExternalIngest } from './broker/external-ingest';
import { createForecastAlarmJob } from './alarms/forecast';

/**
 * Background jobs of one server process: the outbox dispatcher, the offline scheduler, the
 * measurements partition job, the embedded database's vacuum and, with MQTT_URL, device uplinks
 * from the external broker (all safe to run in every process against one PostgreSQL), and the
 * simulator in demo mode.
 */
export function startBackground(ctx: AppContext) {
  const jobs: { stop(): Promise<void> | void; ready?: Promise<void> }[] = [];
  jobs.push(createDispatcher(ctx).start());
  jobs.push(createOfflineScheduler(ctx).start());
  jobs.push(createTaskTimeoutJob(ctx).start());
  jobs.push(createPartitionJob(ctx).start());
  jobs.push(createMaintenanceJob(ctx).start());
  jobs.push(createForecastAlarmJob(ctx).start());
  // with an external broker, devices publish there and the server takes their uplinks from it
  if (ctx.config.MQTT_URL) jobs.push(startExternalIngest(ctx, ctx.config.MQTT_URL));
  if (ctx.config.SIMULATOR && ctx.config.SEED_DEMO) jobs.push(startSimulator(ctx));
  return {
    /** Every job that has to get ready first is ready (the external ingest's subscriptions). */
    ready: Promise.all(jobs.map((j) => j.ready)).then(() => {}),
    async stop() {
      for (const j of [...jobs].reverse()) await j.stop();
    },
  };
}
