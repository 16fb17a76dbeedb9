import type { Sensor } from '../contract/sensor.schema';

/** Sensor status (monitoring-client 4); the list and dashboard icons take their colour from it. */
export const SENSOR_STATUS = { NO_STATUS: 'NO_STATUS', OK: 'OK', WARNING: 'WARNING', ALERT: 'ALERT', DISABLED: 'DISABLED' } as const;
export type SensorStatus = (typeof SENSOR_STATUS)[keyof typeof SENSOR_STATUS];

/** Low-battery threshold in percent (monitoring-client 9). */
export const LOW_BATTERY_PERCENT = 10;

/** Mantine palette colour of each status icon. */
export const STATUS_COLOUR: Record<SensorStatus, string> = {
  NO_STATUS: 'gray',
  OK: 'teal',
  WARNING: 'orange',
  ALERT: 'red',
  DISABLED: 'gray',
};

export const STATUS_LABEL: Record<SensorStatus, string> = {
  NO_STATUS: 'No status',
  OK: 'OK',
  WARNING: 'Warning',
  ALERT: 'Alert',
  DISABLED: 'Disabled',
};

/**
 * Display status: disabled if the scheduler is off; ok with no latest data; alert if an alert is
 * asserted; warning if offline is asserted or the battery is below 10 percent; otherwise ok.
 */
export function displayStatus(sensor: { config: Pick<Sensor['config'], 'schedulerEnabled'>; latestData: Pick<NonNullable<Sensor['latestData']>, 'alertAsserted' | 'offlineAsserted' | 'battery'> | null }): SensorStatus {
  if (!sensor.config.schedulerEnabled) return SENSOR_STATUS.DISABLED;
  const d = sensor.latestData;
  if (!d) return SENSOR_STATUS.OK;
  if (d.alertAsserted) return SENSOR_STATUS.ALERT;
  if (d.offlineAsserted || (d.battery !== undefined && d.battery < LOW_BATTERY_PERCENT)) return SENSOR_STATUS.WARNING;
  return SENSOR_STATUS.OK;
}
