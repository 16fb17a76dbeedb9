import { z } from 'zod';

export const NOTIFICATION_TYPES = [
  'WATER_LEVEL_ALARM',
  'THRESHOLD_ALARM',
  'ACCELEROMETER',
  'SENSOR_ERROR',
  'LOW_BATTERY',
  'SENSOR_OFFLINE',
  'DELTA_ALARM',
] as const;
export const notificationTypeSchema = z.enum(NOTIFICATION_TYPES);

export const sensorNotificationSchema = z.object({
  id: z.string(),
  sensorId: z.string(),
  startTime: z.number(),
  endTime: z.number().nullable(),
  endless: z.boolean(),
  meta: z.object({
    type: notificationTypeSchema,
    alarmSetting: z
      .object({ type: z.string(), threshold: z.number(), enabled: z.boolean().optional(), index: z.string().optional() })
      .nullable()
      .optional(),
    measurement: z.number().nullable().optional(),
    delta: z.number().nullable().optional(),
    /** SENSOR_ERROR: the measurement error code (E1...). */
    errorCode: z.string().nullable().optional(),
  }),
});
export type SensorNotification = z.infer<typeof sensorNotificationSchema>;

export const notificationListSchema = z.object({ notifications: z.array(sensorNotificationSchema) });
export type NotificationType = z.infer<typeof notificationTypeSchema>;
