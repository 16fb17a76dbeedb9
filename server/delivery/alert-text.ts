import type { SensorNotification } from '../../src/contract/notification.schema';
import { NOTIFICATION_TITLE } from '../../src/domain/notification-rules';
import { notificationText } from '../../src/domain/notification-text';
import type { MeasurementUnit } from '../../src/domain/sensor-format';

export type AlertEventType = 'alert.triggered' | 'alert.cleared';

/** One sentence about what happened: the same words the app shows on the notification's card. */
export function describeAlert(n: SensorNotification, unit: string): string {
  return notificationText(n, unit === 'Inches' ? 'Inches' : ('Metres' satisfies MeasurementUnit));
}

/** Subject line: "Alert triggered: Threshold alarm on Main Reservoir (1A2B3C4D)". */
export function alertSubject(type: AlertEventType, n: SensorNotification, sensor: { name: string; serial: string }) {
  return `${type === 'alert.triggered' ? 'Alert triggered' : 'Alert cleared'}: ${NOTIFICATION_TITLE[n.meta.type]} on ${sensor.name} (${sensor.serial})`;
}
