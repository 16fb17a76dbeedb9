import { randomUUID } from 'node:crypto';
import type { Alarm } from '../../src/contract/sensor.schema';
import { unit, type SignalModel } from '../../src/domain/signals';
import type { Queryable } from '../db/db';
import { hashDeviceKey } from '../ingest/uplink';
import { linkQualityOf } from '../simulator/radio';
import type { OrgKey } from './demo-people';
import { claimCodeOf, DEMO_SENSORS, modelFor, type DemoSensor } from './demo-sensors';
import { deriveDeviceKey } from './device-keys';
import { generateHistory, historyEnd, type History } from './history';

const MIN = 60_000;

/** A demo sensor as the seed plans it: its id, model, resolved alarms and generated history. */
export interface PlannedSensor {
  def: DemoSensor;
  id: string;
  model: SignalModel;
  alarms: Record<string, Alarm>;
  /** Claimed sensors only. */
  history?: History;
  lastTx?: number;
}

/**
 * When a sensor last transmitted before seeding: the 1-minute sensor right now, the others
 * staggered over their transmission interval so the fleet does not fire at once, and silent
 * sensors `silentForMin` earlier.
 */
export function lastTransmission(s: DemoSensor, anchor: number): number {
  const stagger = s.measurementInterval === 1 ? 0 : unit(s.seed, 0, 77) * s.transmissionInterval * MIN;
  return Math.floor(anchor - stagger - (s.silentForMin ?? 0) * MIN);
}

/** Generates every claimed sensor's history: `historyDays` of measurements at its interval. */
export function planSensors(anchor: number, historyDays: number): PlannedSensor[] {
  return DEMO_SENSORS.map((def) => {
    const model = modelFor(def, anchor);
    const alarms = typeof def.alarms === 'function' ? def.alarms(model) : (def.alarms ?? {});
    if (!def.org) return { def, id: randomUUID(), model, alarms };
    const lastTx = lastTransmission(def, anchor);
    const count = Math.round((historyDays * 1440) / def.measurementInterval);
    return { def, id: randomUUID(), model, alarms, lastTx, history: generateHistory(def, model, historyEnd(def, lastTx), count) };
  });
}

/** A demo sensor's settings as the seed stores them: scheduler config, display info, conversion and integration. */
export function demoSetup(s: DemoSensor) {
  return {
    config: {
      schedulerEnabled: s.schedulerEnabled ?? true,
      measurementInterval: s.measurementInterval,
      transmissionInterval: s.transmissionInterval,
      measurementTransmissionEnabled: true,
      deltaCompressionEnabled: s.measurementInterval === 1,
      txCountOnAlarm: 2,
      serverSideAlarm: s.radio.type === 'myriota',
    },
    displayInfo: { offsetMeasurement: s.offsetMm, minLevel: s.minLevel ?? null, maxLevel: s.maxLevel ?? null, referenceLines: s.referenceLines ?? [] },
    conversionConfigs: s.conversion ? [s.conversion] : [],
    integration: { ...(s.pointId ? { pointId: s.pointId } : {}), commissioningStatus: s.commissioningStatus },
  };
}

/** Inserts the sensor rows with latest data consistent with their last measurement. */
export async function insertSensorRows(q: Queryable, planned: PlannedSensor[], orgs: Record<OrgKey, string>, secret: string, alerting: Set<string>, anchor: number) {
  for (const p of planned) {
    const s = p.def;
    const { config, displayInfo, conversionConfigs, integration } = demoSetup(s);
    const boot = { buildType: s.boot.buildType ?? 'Production', firmwareVersion: s.boot.firmwareVersion, sensorVersion: s.boot.sensorVersion, hardwareVersion: s.boot.hardwareVersion };
    await q.query(
      `INSERT INTO sensors (id, serial, claim_code, device_key_hash, org_id, name, sensor_type, latitude, longitude, radio, config, display_info,
                            conversion_configs, alarms, integration, latest_data, latest_boot_info, created_at, claimed_at, forecast_alarm)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20)`,
      [
        p.id,
        s.serial,
        claimCodeOf(s),
        hashDeviceKey(deriveDeviceKey(secret, s.serial)),
        s.org ? orgs[s.org] : null,
        s.name,
        s.type,
        s.lat,
        s.lng,
        JSON.stringify(s.radio),
        JSON.stringify(config),
        JSON.stringify(displayInfo),
        JSON.stringify(conversionConfigs),
        JSON.stringify(p.alarms),
        JSON.stringify(integration),
        p.history ? JSON.stringify(latestData(p, alerting.has(s.serial))) : null,
        JSON.stringify(boot),
        anchor - 420 * 1440 * MIN,
        s.org ? anchor - 370 * 1440 * MIN : null,
        s.forecastAlarm ? JSON.stringify(s.forecastAlarm) : null,
      ],
    );
  }
}

function latestData(p: PlannedSensor, alertAsserted: boolean) {
  const s = p.def;
  const h = p.history!;
  const n = h.times.length - 1;
  const lastError = h.errors[h.errors.length - 1];
  const silent = s.silentForMin !== undefined && (s.schedulerEnabled ?? true);
  return {
    lastSeen: p.lastTx,
    ...(s.signal !== undefined ? { signalLevel: s.signal } : {}),
    linkQuality: linkQualityOf(s.radio.type, s.signal),
    battery: s.battery,
    lastMeasurement: { time: h.times[n], rawDistance: h.raw[n] },
    lastMeasurementTransmission: p.lastTx,
    ...(lastError ? { lastMeasurementError: { code: lastError.code, time: lastError.time } } : {}),
    offlineAsserted: silent,
    alertAsserted,
  };
}
