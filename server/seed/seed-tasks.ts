import { randomUUID } from 'node:crypto';
import type { Queryable } from '../db/db';
import type { AccountKey } from './demo-people';

const MIN = 60_000;
const DAY = 1440 * MIN;

type Status = 'Created' | 'Dispatched' | 'Success' | 'Error' | 'Timeout' | 'Canceled';
interface DemoTask {
  serial: string;
  type: string;
  params: Record<string, unknown> | ((fw: Record<string, string>) => Record<string, unknown>);
  status: Status;
  /** Minutes before seeding the task was created. */
  ageMin: number;
  by: AccountKey;
  /** A failed task: why, as the device reported it. */
  reason?: string;
}

const alarm = (index: number, type: string, threshold: number, was: number) => ({
  index,
  value: { type, enabled: true, threshold },
  original: { type, enabled: true, threshold: was },
});
const sensorConfig = (measurementInterval: number, measurementsPerTransmission: number, deltaCompressionEnabled = false) => ({
  measurementInterval,
  measurementsPerTransmission,
  maxGradient: 150,
  deltaCompressionEnabled,
});
const radar = { debugInterval: 0, scoreSize: 1, scoreReflection: 2, gain: 0.3, profile: 2, hwAvg: 30, checkTooClose: true };
const fullRadar = {
  gain: 0.35, profile: 3, startDistance: 0.2, endDistance: 3.5, length: 3.3, hwAvg: 30, thresholdType: 2, peakSorting: 3,
  noiseNormalization: true, runningAvgFactor: 0.9, sweepCount: 100, highAccuracyScan: false, interferenceCheck: false,
};

/**
 * Remote tasks in every status (sensor-setup 3). The Created ones on live sensors are dispatched
 * and applied by the simulator within a transmission; those on the switched-off and the offline
 * sensor stay queued, as they would on real devices that never call in.
 */
const TASKS: DemoTask[] = [
  { serial: '1A2B3C4D', type: 'SensorConfig', params: sensorConfig(1, 10, true), status: 'Success', ageMin: 200 * 1440, by: 'admin' },
  { serial: '1A2B3C4D', type: 'FirmwareDownload', params: (fw) => ({ fwId: fw['hilo-main-72.bin'] }), status: 'Success', ageMin: 110 * 1440, by: 'siteadmin' },
  { serial: '1A2B3C4D', type: 'AlarmConfig', params: alarm(1, 'THRESHOLD_INCREASING', 700, 800), status: 'Success', ageMin: 90 * 1440, by: 'admin' },
  { serial: '1A2B3C4D', type: 'TransmissionConfig', params: { additionalRadarDataEnabled: true, startingLevelMm: 1200 }, status: 'Canceled', ageMin: 60 * 1440, by: 'owner' },
  { serial: '1A2B3C4D', type: 'AlarmConfig', params: alarm(0, 'THRESHOLD_DECREASING', 2600, 2700), status: 'Created', ageMin: 4, by: 'admin' },
  { serial: '2B3C4D5E', type: 'SensorConfig', params: sensorConfig(15, 4), status: 'Success', ageMin: 300 * 1440, by: 'owner' },
  { serial: '2B3C4D5E', type: 'FirmwareDownload', params: (fw) => ({ fwId: fw['hilo-main-74-beta.bin'] }), status: 'Error', ageMin: 25 * 1440, by: 'siteadmin', reason: 'image checksum mismatch after download (block 212 of 480)' },
  { serial: '3C4D5E6F', type: 'ExtendedConfig', params: { txCountOnAlarm: 2, userRangeEnabled: false, userRangeMin: 500, userRangeMax: 10000 }, status: 'Success', ageMin: 100 * 1440, by: 'admin' },
  { serial: '3C4D5E6F', type: 'SensorConfig', params: sensorConfig(10, 3), status: 'Canceled', ageMin: 14 * 1440, by: 'admin' },
  { serial: '4D5E6F70', type: 'AlarmConfig', params: alarm(0, 'THRESHOLD_INCREASING', 880, 900), status: 'Timeout', ageMin: 50 * 1440, by: 'admin' },
  { serial: '6F708192', type: 'FullRadarConfig', params: fullRadar, status: 'Success', ageMin: 40 * 1440, by: 'siteadmin' },
  { serial: '6F708192', type: 'TransmissionConfig', params: { additionalRadarDataEnabled: true, startingLevelMm: 2250 }, status: 'Success', ageMin: 39 * 1440, by: 'admin' },
  { serial: '708192A3', type: 'RadarConfig', params: radar, status: 'Success', ageMin: 80 * 1440, by: 'siteadmin' },
  { serial: '708192A3', type: 'ExtendedConfig', params: { txCountOnAlarm: 1, userRangeEnabled: true, userRangeMin: 1000, userRangeMax: 11000 }, status: 'Created', ageMin: 2, by: 'siteadmin' },
  { serial: '8192A3B4', type: 'AlarmConfig', params: alarm(1, 'DELTA_INCREASING', 300, 250), status: 'Success', ageMin: 150 * 1440, by: 'admin' },
  { serial: '92A3B4C5', type: 'ExtendedConfig', params: { txCountOnAlarm: 2, userRangeEnabled: false, userRangeMin: 300, userRangeMax: 5000 }, status: 'Dispatched', ageMin: 9 * 1440 + 400, by: 'admin' },
  { serial: '92A3B4C5', type: 'FirmwareDownload', params: (fw) => ({ fwId: fw['hilo-main-72.bin'] }), status: 'Created', ageMin: 2 * 1440, by: 'siteadmin' },
  { serial: 'A3B4C5', type: 'RadarConfig', params: radar, status: 'Timeout', ageMin: 30 * 1440, by: 'siteadmin' },
  { serial: 'A3B4C5', type: 'AlarmConfig', params: alarm(0, 'THRESHOLD_INCREASING', 1400, 1500), status: 'Created', ageMin: 2 * 1440 + 90, by: 'admin' },
];

export async function insertTasks(q: Queryable, sensorIds: Map<string, string>, users: Record<AccountKey, string>, firmware: Record<string, string>, anchor: number) {
  for (const t of TASKS) {
    const created = anchor - t.ageMin * MIN;
    const dispatched = t.status === 'Created' || t.status === 'Canceled' ? null : created + 47 * MIN;
    const ended = t.status === 'Timeout' ? created + 3 * DAY : t.status === 'Success' || t.status === 'Error' ? dispatched! + 61 * MIN : t.status === 'Canceled' ? created + 20 * MIN : null;
    await q.query(
      `INSERT INTO downlink_tasks (id, sensor_id, type, params, status, created_by, created_at, dispatched_at, ended_at, failure_reason) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [randomUUID(), sensorIds.get(t.serial), t.type, JSON.stringify(typeof t.params === 'function' ? t.params(firmware) : t.params), t.status, users[t.by], created, dispatched, ended, t.reason ?? null],
    );
  }
  // firmware tasks name their firmware, as the server's own do (server/tasks/rules.ts)
  await q.query(
    `UPDATE downlink_tasks t SET params = t.params || jsonb_build_object('fwName', f.fw_name, 'fwType', f.fw_type, 'fwVersion', f.fw_version)
     FROM firmware f WHERE t.type = 'FirmwareDownload' AND f.id::text = t.params->>'fwId' AND NOT (t.params ? 'fwName')`,
  );
}
