import { z } from 'zod';
import { latestDataSchema, sensorSchema } from './sensor.schema';
import { sensorNotificationSchema } from './notification.schema';
import { CONTROL_CHARACTERS, safeText } from './safe-text';

/** Payload on orgs/{orgId}/sensors/{sensorId}/measurements after an uplink commits. */
export const liveMeasurementMessageSchema = z.object({
  sensorId: z.string(),
  serial: z.string(),
  measurements: z.array(z.object({ time: z.number(), rawDistance: z.number(), betaRawDistance: z.number().nullable().optional() })),
  latestData: latestDataSchema.passthrough(),
});
export type LiveMeasurementMessage = z.infer<typeof liveMeasurementMessageSchema>;

/**
 * How the chart machine receives live points without knowing the transport (MQTT in the app,
 * a fake in tests). Returns an unsubscribe function.
 */
export type LiveSubscribe = (
  target: { orgId: string; sensorId: string },
  onMessage: (msg: LiveMeasurementMessage) => void,
  onError?: (err: Error) => void,
) => () => void;

/** Payload on orgs/{orgId}/notifications when a sensor notification opens or closes. */
export const liveNotificationMessageSchema = z.object({
  event: z.enum(['opened', 'closed']),
  serial: z.string(),
  sensorName: z.string(),
  notification: sensorNotificationSchema,
});
export type LiveNotificationMessage = z.infer<typeof liveNotificationMessageSchema>;

/** Payload on orgs/{orgId}/sensors/{sensorId}/state when the latest data changes without an uplink (offline detected). */
export const liveSensorStateMessageSchema = z.object({
  sensorId: z.string(),
  serial: z.string(),
  latestData: latestDataSchema.passthrough(),
});
export type LiveSensorStateMessage = z.infer<typeof liveSensorStateMessageSchema>;

/** Payload on orgs/{orgId}/sensors/{sensorId}/settings after a setup save: the whole updated sensor. */
export const liveSensorSettingsMessageSchema = z.object({ sensorId: z.string(), sensor: sensorSchema });
export type LiveSensorSettingsMessage = z.infer<typeof liveSensorSettingsMessageSchema>;

/** What an organisation-wide live subscription hands its listener (see src/shared/live.ts subscribeOrg). */
export interface OrgLiveHandlers {
  /** A sensor's latest data changed: after every uplink (with its new points) or when it went offline. */
  onSensor?: (msg: { sensorId: string; serial: string; latestData: LiveMeasurementMessage['latestData']; measurements: LiveMeasurementMessage['measurements'] }) => void;
  /** A sensor's settings were saved (name, display info, conversions, alarms, location, integration). */
  onSensorSettings?: (msg: LiveSensorSettingsMessage) => void;
  /** A sensor notification opened or closed. */
  onNotification?: (msg: LiveNotificationMessage) => void;
  onError?: (err: Error) => void;
}

/** Standard Webhooks event body POSTed to each webhook integration (organisation-and-routes.md 7.2, 8). */
export const webhookEventSchema = z.object({
  type: z.enum(['alert.triggered', 'alert.cleared', 'test']),
  timestamp: z.string(),
  organisationId: z.string(),
  notification: sensorNotificationSchema.nullable(),
  sensor: z.object({ id: z.string(), serial: z.string(), name: z.string() }).nullable(),
});
export type WebhookEvent = z.infer<typeof webhookEventSchema>;

/** Webhook integrations: GET/POST/PATCH/DELETE /organisations/{id}/integrations (managers). */
export const MAX_WEBHOOK_HEADERS = 5;
export const WEBHOOK_URL_MESSAGE = 'Please enter a valid http or https url';
// RFC 9110 field names are tokens; values may hold tabs but no CR, LF or other control character
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const HEADER_VALUE_FORBIDDEN = /[\u0000-\u0008\u000a-\u001f\u007f]/;
/**
 * Headers a webhook may not set: the connection's own (Host, Transfer-Encoding, Content-Length,
 * Connection), the Standard Webhooks headers the delivery signs with, and the two the delivery
 * sets itself (server/delivery/webhook.ts): Content-Type, since the signed body is JSON whatever a
 * header says, and User-Agent, by which receivers know the sender. Compared case-insensitively, as
 * HTTP does; a refusal names the header rather than the delivery quietly replacing it.
 */
export const RESERVED_WEBHOOK_HEADERS = [
  'host',
  'transfer-encoding',
  'content-length',
  'connection',
  'content-type',
  'user-agent',
  'webhook-id',
  'webhook-timestamp',
  'webhook-signature',
] as const;
export const isReservedWebhookHeader = (key: string) => (RESERVED_WEBHOOK_HEADERS as readonly string[]).includes(key.trim().toLowerCase());
/** The refusal of a reserved header, naming it as it was typed; undefined for any other name. */
export const reservedWebhookHeaderMessage = (key: string) =>
  isReservedWebhookHeader(key) ? `The ${key.trim()} header is set by Tidewatch when it sends the webhook and cannot be changed.` : undefined;
export const webhookHeaderSchema = z.object({
  key: z
    .string()
    .trim()
    .min(1, 'Key required')
    .max(256)
    .regex(HEADER_NAME, 'Header names may contain only letters, digits and !#$%&\'*+-.^_`|~')
    .superRefine((key, ctx) => {
      const message = reservedWebhookHeaderMessage(key);
      if (message) ctx.addIssue({ code: 'custom', message });
    }),
  value: z
    .string()
    .trim()
    .min(1, 'Value required')
    .max(4096)
    .refine((v) => !HEADER_VALUE_FORBIDDEN.test(v), 'Header values must not contain line breaks or control characters'),
});
export const integrationInputSchema = z.object({
  type: z.literal('webhook').default('webhook'),
  url: z
    .string()
    .trim()
    .max(2048)
    .refine((v) => !CONTROL_CHARACTERS.test(v) && /^https?:\/\/[^\s/$.?#][^\s]*$/i.test(v) && URL.canParse(v), WEBHOOK_URL_MESSAGE),
  headers: z.array(webhookHeaderSchema).max(MAX_WEBHOOK_HEADERS, `At most ${MAX_WEBHOOK_HEADERS} headers.`).default([]),
});
export type IntegrationInput = z.input<typeof integrationInputSchema>;
/** GET /organisations/{id}/integrations query. */
export const integrationQuerySchema = z.object({ type: safeText.max(32).optional() });
export const integrationSchema = z.object({
  id: z.string(),
  type: z.literal('webhook'),
  url: z.string(),
  headers: z.array(z.object({ key: z.string(), value: z.string() })),
  /** Standard Webhooks signing secret (whsec_...), shown to managers so receivers can verify. */
  secret: z.string(),
  createdAt: z.number(),
});
export type Integration = z.infer<typeof integrationSchema>;
export const integrationListSchema = z.object({ integrations: z.array(integrationSchema) });

/** Answer of POST /organisations/{orgId}/notifications/test. */
export const testNotificationResultSchema = z.object({ email: z.string(), webhooks: z.number().int() });
