import type { SensorNotification } from '../contract/notification.schema';
import type { Sensor } from '../contract/sensor.schema';
import { errorLabel } from './measurement-errors';
import { formatLevel, type MeasurementUnit } from './sensor-format';
import { aboutDays } from './usage-format';

const has = (v: number | null | undefined): v is number => v !== null && v !== undefined && Number.isFinite(v);

/** One sentence saying what happened; levels, thresholds and deltas are mm of displayed level. */
export function notificationText(n: Pick<SensorNotification, 'meta'>, unit: MeasurementUnit): string {
  const { meta } = n;
  const setting = meta.alarmSetting;
  switch (meta.type) {
    case 'THRESHOLD_ALARM': {
      const rising = setting?.type === 'THRESHOLD_INCREASING';
      const where = setting ? `${rising ? 'rose above' : 'fell below'} the ${formatLevel(setting.threshold, unit)} threshold` : 'crossed an alarm threshold';
      return has(meta.measurement) ? `The level ${where} at ${formatLevel(meta.measurement, unit)}.` : `The level ${where}.`;
    }
    case 'WATER_LEVEL_ALARM':
      return has(meta.measurement) ? `The level of ${formatLevel(meta.measurement, unit)} is outside the display range.` : 'The level is outside the display range.';
    case 'DELTA_ALARM': {
      const change = has(meta.delta) ? `${meta.delta >= 0 ? 'rose' : 'fell'} ${formatLevel(Math.abs(meta.delta), unit)} within an hour` : 'changed rapidly';
      return `The level ${change}${has(meta.measurement) ? `, to ${formatLevel(meta.measurement, unit)}` : ''}.`;
    }
    case 'ACCELEROMETER':
      return has(meta.measurement) ? `The sensor was moved (movement reading ${meta.measurement}).` : 'The sensor was moved.';
    case 'SENSOR_ERROR':
      return meta.errorCode ? `The sensor reported a measurement error: ${errorLabel(meta.errorCode)} (${meta.errorCode}).` : 'The sensor reported a measurement error.';
    case 'LOW_BATTERY':
      // below 5 percent the battery reads 'Less than 5%' everywhere (monitoring-client 9)
      if (!has(meta.measurement)) return 'The battery is low.';
      return meta.measurement < 5 ? 'The battery is low, below 5%.' : `The battery is low at ${Math.round(meta.measurement)}%.`;
    case 'SENSOR_OFFLINE':
      return 'The sensor has not reported when it was expected to.';
    case 'FORECAST_ALARM': {
      const f = meta.forecast;
      if (!f) return 'The tank is forecast to reach its alarm level soon.';
      return `At its daily use the tank is forecast to be ${f.target} in ${aboutDays(f.days)}, inside the alarm's ${f.withinDays} ${f.withinDays === 1 ? 'day' : 'days'}.`;
    }
  }
}

/**
 * An open low-battery alert reads the sensor's latest battery, the value the information table
 * beside it shows, not the one the notification was raised at; anything else reads as raised.
 */
export function currentBattery<N extends Pick<SensorNotification, 'meta' | 'endTime'>>(n: N, sensor: Pick<Sensor, 'latestData'>): N {
  const battery = sensor.latestData?.battery;
  if (n.meta.type !== 'LOW_BATTERY' || n.endTime || battery === undefined || battery === null || !Number.isFinite(battery)) return n;
  return { ...n, meta: { ...n.meta, measurement: battery } };
}
