import type { AppContext } from '../context';
import type { Uplink, UplinkAck } from '../../src/contract/uplink.schema';
import { topics } from '../broker/publisher';
import { batcherFor } from './batcher';
import { publishTasks } from '../tasks/lifecycle';

export { hashDeviceKey, nextLatestData, type SensorRow } from './uplink-rules';

export interface IngestOptions {
  /**
   * A radio network's cloud callback authenticated by the organisation's secret (no device key):
   * the uplink is taken only for a sensor of this organisation.
   */
  orgId?: string;
  /**
   * How the device takes downlinks on this path: 'collect' (the default) hands it its next queued
   * task in the answer; 'none' (a Sigfox uplink that asks for no downlink, a satellite radio)
   * settles what it reports and dispatches nothing; 'resend' (a Sigfox bidirectional callback)
   * collects the next one or, when one is already out and not reported, hands that one again.
   */
  downlinks?: 'collect' | 'none' | 'resend';
}

/**
 * Stores one uplink: measurements idempotently on (sensor, time), errors, latest data, alarm
 * outcomes and downlink dispatch, in one transaction shared with the uplinks that arrived
 * alongside it (group commit, batcher.ts; written by batch-write.ts). Only after it commits is
 * the uplink acknowledged and published to the organisation's live topic. An unknown sensor or
 * a wrong key is refused with 401 and writes nothing.
 */
export async function ingestUplink(ctx: AppContext, deviceKey: string | undefined, up: Uplink, opts: IngestOptions = {}): Promise<UplinkAck> {
  const result = await batcherFor(ctx.db, ctx.log).submit({ deviceKey, orgId: opts.orgId, downlinks: opts.downlinks ?? 'collect', up, now: ctx.now() });
  const { sensor, stored, latest } = result;
  if (sensor.org_id) {
    const payload = {
      sensorId: sensor.id,
      serial: sensor.serial,
      measurements: stored.map((m) => ({ time: m.time, rawDistance: m.raw_distance, betaRawDistance: m.beta_raw_distance })),
      latestData: latest,
    };
    // publishing is best-effort: the data is committed and clients reload what they miss
    await ctx.publisher.publish(topics.measurements(sensor.org_id, sensor.id), payload).catch((err) => ctx.log.warn({ err }, 'publish failed'));
    for (const n of result.changed) {
      await ctx.publisher.publish(topics.notifications(sensor.org_id), n).catch(() => {});
    }
    await publishTasks(ctx, sensor.id, result.changedTasks);
  }
  return { stored: stored.length, duplicates: up.measurements.length - stored.length, downlinks: result.downlinks };
}
