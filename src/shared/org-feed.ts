import type { z } from 'zod';
import {
  liveMeasurementMessageSchema,
  liveNotificationMessageSchema,
  liveSensorSettingsMessageSchema,
  liveSensorStateMessageSchema,
  type LiveMeasurementMessage,
  type OrgLiveHandlers,
} from '../contract/live.schema';

/** A topic filter and what to do with each message on it (for a live connection's listen). */
export interface FeedListener {
  filter: string;
  onMessage(topic: string, body: unknown): void;
}

/**
 * A live message checked against its schema: one that does not match is reported to `dropped`
 * (with its first issue) and skipped; the view stays live for the next one.
 */
export function parseLive<T>(schema: z.ZodType<T>, topic: string, body: unknown, dropped: (topic: string, reason: string) => void): T | undefined {
  const r = schema.safeParse(body);
  if (!r.success) {
    const issue = r.error.issues[0];
    dropped(topic, issue ? `${issue.path.join('.') || 'message'}: ${issue.message}` : 'invalid');
  }
  return r.success ? r.data : undefined;
}

/** An organisation's sensor message (measurements may be left out), built once: built per message, the schema was about a tenth of the main thread's time under a fleet's live feed (benchmark 22). */
const orgSensorMessageSchema = liveMeasurementMessageSchema.partial({ measurements: true });

/**
 * The topic filters of an organisation's live feed and their message handling, for the handlers
 * given and no others (a view that takes only notifications is not sent every uplink). A message
 * that does not match its schema goes to `dropped` and the feed goes on. Used by the page's connection (live.ts) and by the data
 * worker's (the fleet's feed, workers/fleet-live.ts).
 */
export function orgFeed(orgId: string, h: OrgLiveHandlers, dropped: (topic: string, reason: string) => void): FeedListener[] {
  const parsed = <T>(schema: z.ZodType<T>, topic: string, body: unknown) => parseLive(schema, topic, body, dropped);
  const sensors = `orgs/${orgId}/sensors/+`;
  const out: FeedListener[] = [];
  const { onSensor, onSensorSettings, onNotification } = h;
  if (onSensor) {
    out.push({
      filter: `${sensors}/measurements`,
      onMessage: (topic, body) => {
        const msg = parsed(orgSensorMessageSchema, topic, body) as Partial<LiveMeasurementMessage> | undefined;
        if (msg?.sensorId) onSensor({ sensorId: msg.sensorId, serial: msg.serial ?? '', latestData: msg.latestData ?? {}, measurements: msg.measurements ?? [] });
      },
    });
    out.push({
      filter: `${sensors}/state`,
      onMessage: (topic, body) => {
        const msg = parsed(liveSensorStateMessageSchema, topic, body);
        if (msg) onSensor({ ...msg, measurements: [] });
      },
    });
  }
  if (onSensorSettings)
    out.push({
      filter: `${sensors}/settings`,
      onMessage: (topic, body) => {
        const msg = parsed(liveSensorSettingsMessageSchema, topic, body);
        if (msg) onSensorSettings(msg);
      },
    });
  if (onNotification)
    out.push({
      filter: `orgs/${orgId}/notifications`,
      onMessage: (topic, body) => {
        const msg = parsed(liveNotificationMessageSchema, topic, body);
        if (msg) onNotification(msg);
      },
    });
  return out;
}
