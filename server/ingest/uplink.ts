import { createHash } from 'node:crypto';
import type { AppContext } from '../context';
import type { Uplink, UplinkAck } from '../../src/contract/uplink.schema';
import { HttpError } from '../http/errors';
import { topics } from '../broker/publisher';
import { evaluateUplink, type AlarmOutcome } from '../alarms/engine';
import { forgetSensor, tryFastIngest } from './uplink-fast';
import { publishTasks, settleAndDispatch, type TaskRow } from '../tasks/lifecycle';

export const hashDeviceKey = (key: string) => createHash('sha256').update(key).digest('hex');

export interface SensorRow {
  id: string;
  serial: string;
  org_id: string | null;
  name: string;
  sensor_type: string;
  device_key_hash: string;
  config: Record<string, unknown>;
  alarms: Record<string, { type: string; enabled: boolean; threshold: number }>;
  display_info: Record<string, unknown>;
  latest_data: Record<string, unknown> | null;
}

export interface IngestOptions {
  /** The device was authenticated by the transport (an external MQTT broker's authorizer). */
  trusted?: boolean;
}

/**
 * Stores one uplink: measurements idempotently on (sensor, time), errors, latest data, alarm
 * outcomes and downlink dispatch, all in one transaction. Only after it commits is the uplink
 * acknowledged and published to the organisation's live topic. The common uplink (no alarm
 * change, no downlink, no error codes) takes a two-statement fast path (uplink-fast.ts).
 */
export async function ingestUplink(ctx: AppContext, deviceKey: string | undefined, up: Uplink, opts: IngestOptions = {}): Promise<UplinkAck> {
  const now = ctx.now();
  const authorised = (sensor: SensorRow) => opts.trusted === true || (!!deviceKey && hashDeviceKey(deviceKey) === sensor.device_key_hash);
  // the same answer for an unknown serial and a wrong key: serials are printed on devices
  const refused = () => new HttpError(401, 'INVALID_DEVICE_KEY', 'Unknown sensor or wrong device key.');
  const fast = await tryFastIngest(ctx.db, up, authorised, (prev, stored) => nextLatestData(prev, up, stored, now), now);
  if (fast.kind === 'unauthorised') throw refused();
  const result = fast.kind === 'done' ? { ...fast, downlinks: [], changedTasks: [] as TaskRow[], alarms: { alertAsserted: false, changed: [] } as AlarmOutcome } : await ingestInTransaction();

  async function ingestInTransaction() {
    forgetSensor(ctx.db, up.serial);
    return ctx.db.tx(async (q) => {
      const sensor = (await q.query<SensorRow>('SELECT * FROM sensors WHERE serial = $1 FOR UPDATE', [up.serial]))[0];
      if (!sensor || !authorised(sensor)) throw refused();
      const ms = up.measurements;
      let stored: { time: number; raw_distance: number; beta_raw_distance: number | null }[] = [];
      if (ms.length) {
        stored = await q.query(
          `INSERT INTO measurements (sensor_id, time, raw_distance, beta_raw_distance)
           SELECT $1, t, d, b FROM unnest($2::bigint[], $3::real[], $4::real[]) AS u(t, d, b)
           ON CONFLICT (sensor_id, time) DO NOTHING
           RETURNING time, raw_distance, beta_raw_distance`,
          [sensor.id, ms.map((m) => m.time), ms.map((m) => m.rawDistance), ms.map((m) => m.betaRawDistance ?? null)],
        );
      }
      if (up.errors.length) {
        await q.query(
          `INSERT INTO measurement_errors (sensor_id, code, time) SELECT $1, c, t FROM unnest($2::text[], $3::bigint[]) AS u(c, t)
           ON CONFLICT DO NOTHING`,
          [sensor.id, up.errors.map((e) => e.code), up.errors.map((e) => e.time)],
        );
      }
      const latest = nextLatestData(sensor.latest_data ?? {}, up, stored, now);
      const downlinks = await settleAndDispatch(q, sensor.id, up.appliedTasks, now);
      if (downlinks.requested) latest.lastDownlinkRequestAt = now;
      const alarms: AlarmOutcome = await evaluateUplink(ctx, q, sensor, up, stored, latest, now);
      latest.alertAsserted = alarms.alertAsserted;
      latest.offlineAsserted = false;
      await q.query(
        `UPDATE sensors SET latest_data = $2, latest_boot_info = COALESCE($3, latest_boot_info) WHERE id = $1`,
        [sensor.id, JSON.stringify(latest), up.bootInfo ? JSON.stringify(up.bootInfo) : null],
      );
      return { sensor, stored, latest, downlinks: downlinks.downlinks, changedTasks: downlinks.changed, alarms };
    });
  }

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
    for (const n of result.alarms.changed) {
      await ctx.publisher.publish(topics.notifications(sensor.org_id), n).catch(() => {});
    }
    await publishTasks(ctx, sensor.id, result.changedTasks);
  }
  return { stored: stored.length, duplicates: up.measurements.length - stored.length, downlinks: result.downlinks };
}

function nextLatestData(prev: Record<string, unknown>, up: Uplink, stored: { time: number; raw_distance: number }[], now: number) {
  const latest: Record<string, unknown> = { ...prev, lastSeen: now };
  if (up.signalLevel !== undefined) latest.signalLevel = up.signalLevel;
  if (up.linkQuality !== undefined) latest.linkQuality = up.linkQuality;
  if (up.battery !== undefined) latest.battery = up.battery;
  const newest = stored.reduce<{ time: number; raw_distance: number } | undefined>((a, m) => (!a || m.time > a.time ? m : a), undefined);
  const prevTime = (prev.lastMeasurement as { time?: number } | undefined)?.time ?? -1;
  if (newest && newest.time > prevTime) {
    latest.lastMeasurement = { time: newest.time, rawDistance: newest.raw_distance };
    latest.lastMeasurementTransmission = now;
  }
  const newestError = up.errors.reduce<{ time: number; code: string } | undefined>((a, e) => (!a || e.time > a.time ? e : a), undefined);
  if (newestError) latest.lastMeasurementError = { code: newestError.code, time: newestError.time };
  return latest;
}
