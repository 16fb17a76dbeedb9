import { z } from 'zod';

export const NOTIFICATION_TYPES = [
  'WATER_LEVEL_ALARM',
  'THRESHOLD_ALARM',
  'ACCELEROMETER',
  'SENSOR_ERROR',
  'LOW_BATTERY',
  'SENSOR_OFFLINE',
  'DELTA_ALARM',
  // beyond the spec: raised by the forecast alarm (docs/decisions.md), ordered after the spec's types
  'FORECAST_ALARM',
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
    /** FORECAST_ALARM: what is forecast, the alarm's days, and the forecast when it was raised (days, epoch ms). */
    forecast: z
      .object({ target: z.enum(['empty', 'full']), withinDays: z.number(), days: z.number(), at: z.number().nullable() })
      .nullable()
      .optional(),
  }),
});
export type SensorNotification = z.infer<typeof sensorNotificationSchema>;

export const notificationListSchema = z.object({ notifications: z.array(sensorNotificationSchema) });
export type NotificationType = z.infer<typeof notificationTypeSchema>;

/** state=open: ACTIVE (no end time, not endless); closed: ended (CLEARED) or endless (INFO, never open). */
export const NOTIFICATION_STATES = ['open', 'closed'] as const;
export type NotificationState = (typeof NOTIFICATION_STATES)[number];
export const NOTIFICATION_PAGE_DEFAULT = 50;
export const NOTIFICATION_PAGE_MAX = 200;

/**
 * GET /organisations/{orgId}/notifications: with none of these, the spec's list; with any, one page
 * in the page's order (type priority, newest start first, then id) and the `next` cursor. The
 * server checks each value (server/gateway/notifications.routes.ts) and names what is wrong.
 */
export const notificationQuerySchema = z.object({
  type: z.string().optional().describe(`one or more of ${NOTIFICATION_TYPES.join(', ')}, separated by commas`),
  state: z.enum(NOTIFICATION_STATES).optional().describe('open: active (no end time); closed: ended or endless'),
  sensor: z.string().optional().describe('a sensor id: only its notifications'),
  limit: z.string().optional().describe(`page size, 1 to ${NOTIFICATION_PAGE_MAX}; ${NOTIFICATION_PAGE_DEFAULT} when left out`),
  cursor: z.string().optional().describe('the `next` value of the previous page'),
});
export type NotificationQuery = { type?: NotificationType[]; state?: NotificationState; sensor?: string; limit?: number; cursor?: string };

/** What a card needs of its sensor: name and serial to show, the measurement interval for the VIEW window. */
export const notificationSensorSchema = z.object({ serial: z.string(), name: z.string(), measurementInterval: z.number().nullable() });
export type NotificationSensor = z.infer<typeof notificationSensorSchema>;

/** A page: its notifications, the sensors they belong to (by id), and the cursor of the next page (null at the end). */
export const notificationPageSchema = z.object({
  notifications: z.array(sensorNotificationSchema),
  sensors: z.record(z.string(), notificationSensorSchema),
  next: z.string().nullable(),
});
export type NotificationPage = z.infer<typeof notificationPageSchema>;
