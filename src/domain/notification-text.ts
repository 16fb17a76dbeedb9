import type { SensorNotification } from '../contract/notification.schema';
import { errorLabel } from './measurement-errors';
import { formatLevel, type MeasurementUnit } from './sensor-format';

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
      return has(meta.measurement) ? `The battery is low at ${Math.round(meta.measurement)}%.` : 'The battery is low.';
    case 'SENSOR_OFFLINE':
      return 'The sensor has not reported when it was expected to.';
  }
}
