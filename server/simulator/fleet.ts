import { randomUUID } from 'node:crypto';
import type { AppContext } from '../context';
import { ingestUplink } from '../ingest/uplink';
import { demoDeviceKey, seededMeta } from '../seed/demo';
import { DEMO_SENSORS, demoSensorBySerial, modelFor } from '../seed/demo-sensors';
import { unit } from '../../src/domain/signals';
import { createMeterReader } from './meter-reader';
import { fullRadarParamsSchema, type FullRadarParams } from '../../src/contract/downlink-task.schema';
import { applyDownlink, dueUplinks, markSent, radioFrames, type BootInfo, type FirmwareImage, type VirtualSensor } from './virtual-sensor';
import { takeMyriotaPackets, takeSigfoxCallback } from '../networks/callbacks';
import { decodeSigfoxDownlink, encodeSigfoxUplink, type SigfoxUplink } from '../networks/sigfox-frame';
import { encodeMyriotaFrame, type MyriotaFrame } from '../networks/myriota-frame';

const MIN = 60_000;
/** How often (in ctx.now() time) the fleet re-reads which demo sensors are claimed and switched on. */
const SYNC_MS = 30_000;
/** A flat battery: the device browns out before its radio can transmit. */
const FLAT_BATTERY = 5;
/**
 * Several server processes may share one PostgreSQL database; one fleet is enough, so the fleet
 * runs only in the process holding this lease in app_meta, renewed at every sync.
 */
const LEASE_MS = 90_000;
/** Sigfox's downlink budget: 4 a day, so a sensor asks for one at most every 6 hours. */
const SIGFOX_DOWNLINK_EVERY_MS = 6 * 60 * MIN;

interface SensorRow {
  id: string;
  org_id: string;
  serial: string;
  sensor_type: string;
  radio: { type: string };
  config: { schedulerEnabled?: boolean; measurementInterval?: number; transmissionInterval?: number };
  latest_data: { lastSeen?: number; battery?: number; signalLevel?: number } | null;
  latest_boot_info: BootInfo | null;
  last_slot: number | null;
}

export interface Fleet {
  /** Sends whatever is due at `now` (default ctx.now()); resolves with the number of uplinks sent. */
  tick(now?: number): Promise<number>;
  /** Serials of the sensors currently simulated (none while another process holds the lease). */
  serials(): string[];
  /** Gives up the lease so that another process (a restart) takes over at once. */
  release(): Promise<void>;
  /** Whether this process held the simulator lease at the last sync (the meter reader runs only then). */
  leased(): boolean;
}

/**
 * The fleet of virtual demo sensors: one per claimed demo sensor whose scheduler is on and whose
 * battery is not flat. Each sends its uplinks through the real ingest path at its transmission
 * interval (divided by SIMULATOR_SPEED in wall time), carrying the measurements due since its
 * last one; measurement times follow ctx.now() and never lie in the future.
 */
export function createFleet(ctx: AppContext): Fleet {
  const speed = ctx.config.SIMULATOR_SPEED;
  const fleet = new Map<string, VirtualSensor>();
  let lastSync = -Infinity;
  let anchor: number | undefined;
  const holder = randomUUID();
  let leaseHeld = false;

  async function holdLease(now: number): Promise<boolean> {
    const rows = await ctx.db.query(
      `INSERT INTO app_meta (key, value) VALUES ('simulator_lease', $1) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value
       WHERE app_meta.value->>'holder' = $2 OR (app_meta.value->>'until')::bigint < $3 RETURNING key`,
      [JSON.stringify({ holder, until: now + LEASE_MS }), holder, now],
    );
    return rows.length > 0;
  }

  async function sync(now: number) {
    lastSync = now;
    anchor ??= (await seededMeta(ctx.db))?.at;
    leaseHeld = anchor !== undefined && (await holdLease(now));
    if (anchor === undefined || !leaseHeld) {
      fleet.clear();
      return;
    }
    const rows = await ctx.db.query<SensorRow>(
      `SELECT s.id, s.org_id, s.serial, s.sensor_type, s.radio, s.config, s.latest_data, s.latest_boot_info,
              GREATEST((SELECT max(time) FROM measurements m WHERE m.sensor_id = s.id),
                       (SELECT max(time) FROM measurement_errors e WHERE e.sensor_id = s.id)) AS last_slot
       FROM sensors s WHERE s.org_id IS NOT NULL AND s.serial = ANY($1::text[])`,
      [DEMO_SENSORS.map((d) => d.serial)],
    );
    const live = rows.filter((r) => r.config.schedulerEnabled !== false && (r.latest_data?.battery ?? 100) >= FLAT_BATTERY);
    const keep = new Set(live.map((r) => r.serial));
    for (const serial of fleet.keys()) if (!keep.has(serial)) fleet.delete(serial);
    for (const r of live) if (!fleet.has(r.serial)) fleet.set(r.serial, await boot(r, now, anchor));
  }

  async function boot(r: SensorRow, now: number, at: number): Promise<VirtualSensor> {
    const def = demoSensorBySerial.get(r.serial)!;
    const measurementMs = (r.config.measurementInterval ?? def.measurementInterval) * MIN;
    const transmissionMs = (r.config.transmissionInterval ?? def.transmissionInterval) * MIN;
    const lastTx = r.latest_data?.lastSeen ?? now;
    // after a long stop every sensor is overdue: spread them over up to 30 s so they do not fire at once
    const stagger = unit(def.seed, 1, 78) * Math.min(transmissionMs / speed, 30_000);
    return {
      id: r.id,
      serial: r.serial,
      sensorType: r.sensor_type,
      radio: r.radio.type,
      key: await demoDeviceKey(ctx, r.serial),
      orgId: r.org_id,
      model: modelFor(def, at),
      measurementMs,
      transmissionMs,
      lastSlot: r.last_slot ?? Math.floor(now / measurementMs) * measurementMs - measurementMs,
      lastTx,
      nextTx: Math.max(lastTx + transmissionMs / speed, now + (lastTx + transmissionMs / speed < now ? stagger : 0)),
      battery: r.latest_data?.battery ?? 100,
      signalBase: r.latest_data?.signalLevel ?? def.signal,
      boot: r.latest_boot_info ?? {},
      booted: r.latest_data === null,
      applied: await redeliveredTasks(r.id),
      radar: await radarSettingsOf(r.id),
      txCount: 0,
      failures: 0,
    };
  }

  // What the device's radar runs with: as last recorded, else the last full radar configuration it applied (the seeded history).
  async function radarSettingsOf(sensorId: string): Promise<FullRadarParams | undefined> {
    const [known] = await ctx.db.query<{ settings: FullRadarParams }>('SELECT settings FROM sensor_radar_settings WHERE sensor_id = $1', [sensorId]);
    const [task] = known
      ? []
      : await ctx.db.query<{ params: FullRadarParams }>(
          `SELECT params FROM downlink_tasks WHERE sensor_id = $1 AND type = 'FullRadarConfig' AND status = 'Success' ORDER BY ended_at DESC LIMIT 1`,
          [sensorId],
        );
    // what the device reports must pass the uplink contract, or the whole uplink would be refused
    const parsed = fullRadarParamsSchema.safeParse(known?.settings ?? task?.params);
    return parsed.success ? parsed.data : undefined;
  }

  // Tasks dispatched before a restart reached the device: it reports them with its next uplink.
  async function redeliveredTasks(sensorId: string) {
    const rows = await ctx.db.query<{ id: string }>(`SELECT id FROM downlink_tasks WHERE sensor_id = $1 AND status = 'Dispatched'`, [sensorId]);
    return rows.map((r) => ({ id: r.id, ok: true }));
  }

  async function firmwareImage(id: unknown): Promise<FirmwareImage | undefined> {
    if (typeof id !== 'string' || !/^[0-9a-f-]{36}$/i.test(id)) return undefined;
    const rows = await ctx.db.query<{ fw_type: string; fw_version: number; build_type: string; apply_to: { hardwareVersions?: number[] } }>(
      'SELECT fw_type, fw_version, build_type, apply_to FROM firmware WHERE id = $1',
      [id],
    );
    const f = rows[0];
    return f && { type: f.fw_type, version: f.fw_version, buildType: f.build_type, hardwareVersions: f.apply_to.hardwareVersions ?? [] };
  }

  async function transmit(v: VirtualSensor, now: number): Promise<number> {
    if (v.radio === 'sigfox') return transmitSigfox(v, now);
    if (v.radio === 'myriota') return transmitMyriota(v, now);
    let sent = 0;
    for (const part of dueUplinks(v, now)) {
      const ack = await ingestUplink(ctx, v.key, part.uplink);
      markSent(v, part, now);
      sent++;
      for (const task of ack.downlinks) {
        // a Sigfox downlink at the edge of coverage is sometimes never received: the device does not
        // answer and the server times the task out after 3 days, as it would in the field
        if (lostDownlink(v, task.id)) continue;
        const image = task.type === 'FirmwareDownload' ? await firmwareImage(task.params.fwId) : undefined;
        v.applied.push({ id: task.id, ok: applyDownlink(v, task, image) });
      }
    }
    return sent;
  }

  /**
   * A Sigfox sensor sends 12-byte frames (3 slots each) through the Sigfox callback path, as the
   * Sigfox backend would call it; the last frame of a transmission asks for a downlink when the
   * sensor's budget allows (one every 6 hours, divided by the simulator's speed like its other
   * waits). The downlink is decoded from its 8 bytes and applied; its result rides in the first
   * frame of the next transmission.
   */
  async function transmitSigfox(v: VirtualSensor, now: number): Promise<number> {
    let sent = 0;
    for (const part of dueUplinks(v, now)) {
      const slots = v.measurementMs / MIN <= 255 ? 3 : 1; // the frame's spacing byte holds at most 255 minutes
      const frames = radioFrames(part.uplink, v.measurementMs, slots);
      // the results this transmission reports (a copy: a downlink applied during it is reported with the next)
      const reported = [...part.uplink.appliedTasks];
      const report = reported.length ? { ok: reported.every((a) => a.ok) } : undefined;
      for (const [i, f] of frames.entries()) {
        const ask = i === frames.length - 1 && now - (v.downlinkAskedAt ?? -Infinity) >= SIGFOX_DOWNLINK_EVERY_MS / speed;
        const data = encodeSigfoxUplink({
          ...(i === 0 && report ? { report } : {}),
          ...(f.error ? { error: f.error } : {}),
          ...(part.uplink.battery !== undefined ? { battery: part.uplink.battery } : {}),
          spacingMinutes: Math.min(f.spacingMinutes, 255),
          distances: f.distances as SigfoxUplink['distances'],
        });
        const answer = await takeSigfoxCallback(ctx, v.orgId!, {
          device: v.serial,
          time: Math.floor(f.time / 1000),
          data,
          seqNumber: v.txCount * 8 + i,
          ...(ask ? { ack: true } : {}),
          ...(part.uplink.signalLevel !== undefined ? { rssi: part.uplink.signalLevel } : {}),
        });
        if (ask) v.downlinkAskedAt = now;
        sent++;
        // a Sigfox downlink at the edge of coverage is sometimes never received (see lostDownlink)
        if (answer.downlinkData && !lostDownlink(v, `${v.serial}:${f.time}`)) {
          const task = decodeSigfoxDownlink(answer.downlinkData);
          v.applied.push({ id: `sigfox:${f.time}`, ok: applyDownlink(v, { id: '', ...task }, undefined) });
        }
      }
      // with no slot due there is no frame to send: a pending report waits for the next transmission
      if (frames.length) markSent(v, { ...part, uplink: { ...part.uplink, appliedTasks: reported } }, now);
    }
    return sent;
  }

  /** A Myriota sensor's frames (4 slots each) go as packets of one Myriota destination message; a satellite sensor takes no downlinks. */
  async function transmitMyriota(v: VirtualSensor, now: number): Promise<number> {
    let sent = 0;
    for (const part of dueUplinks(v, now)) {
      const packets = radioFrames(part.uplink, v.measurementMs, 4).map((f) => ({
        Timestamp: f.time,
        TerminalId: `00${v.serial.padStart(8, '0')}`.toLowerCase(),
        Value: encodeMyriotaFrame({
          serial: v.serial,
          ...(f.error ? { error: f.error } : {}),
          ...(part.uplink.battery !== undefined ? { battery: part.uplink.battery } : {}),
          spacingMinutes: f.spacingMinutes,
          distances: f.distances as MyriotaFrame['distances'],
        }),
      }));
      for (let i = 0; i < packets.length; i += 100) await takeMyriotaPackets(ctx, v.orgId!, packets.slice(i, i + 100));
      sent += packets.length;
      // a satellite sensor's applied tasks never come (it takes none); its boot info cannot travel in a frame
      markSent(v, { ...part, uplink: { ...part.uplink, appliedTasks: [] } }, now);
    }
    return sent;
  }

  return {
    serials: () => [...fleet.keys()],
    leased: () => leaseHeld,
    async release() {
      leaseHeld = false;
      fleet.clear();
      await ctx.db.query(`DELETE FROM app_meta WHERE key = 'simulator_lease' AND value->>'holder' = $1`, [holder]);
    },
    async tick(now = ctx.now()) {
      if (now - lastSync >= SYNC_MS) await sync(now);
      let sent = 0;
      for (const v of fleet.values()) {
        if (v.nextTx > now) continue;
        try {
          sent += await transmit(v, now);
          v.failures = 0;
          v.nextTx = now + v.transmissionMs / speed;
        } catch (err) {
          // a failed uplink is retried with back-off; what it carried is sent with the retry
          v.failures++;
          v.nextTx = now + Math.min(1000 * 2 ** (v.failures - 1), 60_000);
          if (v.failures <= 3 || v.failures % 20 === 0) ctx.log.warn({ err, serial: v.serial, failures: v.failures }, 'simulated uplink failed');
        }
      }
      return sent;
    },
  };
}

/** One in four downlinks to a Sigfox device with a weak signal (below -125 dBm) is lost, decided by the task id. */
export function lostDownlink(v: Pick<VirtualSensor, 'radio' | 'signalBase'>, taskId: string): boolean {
  if (v.radio !== 'sigfox' || (v.signalBase ?? 0) > -125) return false;
  let h = 0;
  for (const ch of taskId) h = (Math.imul(h, 31) + ch.charCodeAt(0)) | 0;
  return unit(h, 7, 113) < 0.25;
}

/** Starts the fleet on a 1 s wall-clock timer (unref'd, so it never keeps the process alive). */
export function startSimulator(ctx: AppContext) {
  const fleet = createFleet(ctx);
  const reader = createMeterReader(ctx); // issue 14: works through the demo reader's route tasks under the same lease
  let running: Promise<unknown> | undefined;
  const timer = setInterval(() => {
    if (running) return; // a slow tick (first sync, a busy database) is never overlapped
    running = fleet
      .tick()
      .then(() => (fleet.leased() ? reader.tick() : 0))
      .catch((err) => ctx.log.warn({ err }, 'simulator tick failed'))
      .finally(() => (running = undefined));
  }, 1000);
  timer.unref();
  ctx.log.info({ speed: ctx.config.SIMULATOR_SPEED }, 'simulator started');
  return {
    fleet,
    async stop() {
      clearInterval(timer);
      await running;
      await fleet.release().catch((err) => ctx.log.warn({ err }, 'simulator lease not released'));
    },
  };
}
