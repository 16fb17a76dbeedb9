import type { SensorNotification } from '../../src/contract/notification.schema';

export type AlertEventType = 'alert.triggered' | 'alert.cleared';

const TITLES: Record<string, string> = {
  WATER_LEVEL_ALARM: 'Water level alarm',
  THRESHOLD_ALARM: 'Threshold alarm',
  ACCELEROMETER: 'Movement detected',
  SENSOR_ERROR: 'Sensor error',
  LOW_BATTERY: 'Low battery',
  SENSOR_OFFLINE: 'Sensor offline',
  DELTA_ALARM: 'Rapid change',
};

/** A level in mm shown in the organisation's unit, as the client shows it (metres 3 decimals, inches 1). */
export function formatLevel(mm: number, unit: string) {
  return unit === 'Inches' ? `${(mm / 25.4).toFixed(1)} in` : `${(mm / 1000).toFixed(3)} m`;
}

/** One sentence about what happened, used by email, SMS and the mailbox. */
export function describeAlert(n: SensorNotification, unit: string): string {
  const m = n.meta;
  const a = m.alarmSetting;
  const level = m.measurement != null ? formatLevel(m.measurement, unit) : undefined;
  switch (m.type) {
    case 'THRESHOLD_ALARM':
      return a?.type === 'THRESHOLD_DECREASING'
        ? `Level ${level ?? ''} is at or below the alarm threshold of ${formatLevel(a.threshold, unit)}.`
        : `Level ${level ?? ''} is at or above the alarm threshold of ${formatLevel(a?.threshold ?? 0, unit)}.`;
    case 'DELTA_ALARM':
      return `Level changed by ${m.delta != null ? formatLevel(m.delta, unit) : 'more than the threshold'} within an hour (rapid change threshold ${formatLevel(Math.abs(a?.threshold ?? 0), unit)}).`;
    case 'WATER_LEVEL_ALARM':
      return `Level ${level ?? ''} is outside the sensor's display range.`;
    case 'ACCELEROMETER':
      return `The sensor reported movement${m.measurement != null ? ` (reading ${m.measurement}, threshold ${a?.threshold ?? ''})` : ''}.`;
    case 'SENSOR_ERROR':
      return `The sensor reported a measurement error${(m as { errorCode?: string }).errorCode ? ` (${(m as { errorCode?: string }).errorCode})` : ''}.`;
    case 'LOW_BATTERY':
      return `Battery is at ${m.measurement ?? '?'}%, below 10%.`;
    case 'SENSOR_OFFLINE':
      return 'The sensor has missed its scheduled transmissions.';
  }
}

/** Subject line: "Alert triggered: Threshold alarm on Main Reservoir (1A2B3C4D)". */
export function alertSubject(type: AlertEventType, n: SensorNotification, sensor: { name: string; serial: string }) {
  return `${type === 'alert.triggered' ? 'Alert triggered' : 'Alert cleared'}: ${TITLES[n.meta.type] ?? n.meta.type} on ${sensor.name} (${sensor.serial})`;
}
