import { z } from 'zod';
import { getIdToken as gatewayIdToken } from './api';
import { liveMeasurementMessageSchema, type LiveSubscribe, type OrgLiveHandlers } from '../contract/live.schema';
import { liveTaskMessageSchema, type LiveTaskMessage } from '../contract/downlink-task.schema';
import { liveConfig, onCloseLive } from './live-config';
import { createLiveConnection } from './live-connection';
import { openLinkedClient } from './live-link';
import { afterFirstDraw } from './first-draw';
import { orgFeed, parseLive } from './org-feed';

export { closeLive, configureLive, type LiveConfig } from './live-config';

export { LIVE_NOT_LOGGED_IN, LIVE_REFUSED, createLiveConnection, matches } from './live-connection';

let live: ReturnType<typeof createLiveConnection> | undefined;

// Whether the tab's live connection is up, for views that fall back to polling while it is not.
let liveUp = false;
const statusListeners = new Set<() => void>();
function setLiveStatus(up: boolean) {
  if (up === liveUp) return;
  liveUp = up;
  statusListeners.forEach((l) => l());
}
/** Whether the live connection is up now. */
export const isLiveConnected = () => liveUp;
/** Calls `onChange` whenever the live connection goes up or down (useSyncExternalStore's subscribe); returns the unsubscribe. */
export function onLiveStatus(onChange: () => void): () => void {
  statusListeners.add(onChange);
  return () => statusListeners.delete(onChange);
}

const runtimeConfigSchema = z.object({ mqtt: z.object({ url: z.string().min(1) }) });
/** The broker from /config.json, when the app edge has not configured one (configureLive). */
const brokerFromRuntimeConfig = async () => runtimeConfigSchema.parse(await (await fetch(new URL('/config.json', globalThis.location?.href ?? 'http://localhost'))).json()).mqtt.url;

/**
 * The tab's connection, opened with configureLive's settings (live-config.ts); without them the
 * broker comes from /config.json and the token from the gateway client (configureGateway), so
 * live views work wherever the gateway does.
 */
function connection() {
  if (live) return live;
  const cfg = liveConfig();
  const page = { whenDrawn: afterFirstDraw, onDropped: (topic: string, reason: string) => reportDroppedLiveMessage(topic, reason), open: openLinkedClient };
  live = createLiveConnection(
    cfg
      ? { ...cfg, onStatus: cfg.onStatus ?? setLiveStatus, ...page }
      : {
          url: brokerFromRuntimeConfig,
          getIdToken: gatewayIdToken,
          onStatus: setLiveStatus,
          ...page,
        },
  );
  onCloseLive(() => {
    live?.close();
    live = undefined;
  });
  return live;
}

/** The broker's address (config.mqtt.url) for a connection of the data worker's own (workers/fleet-live.ts). */
export async function liveBrokerUrl(): Promise<string> {
  const url = liveConfig()?.url;
  if (typeof url === 'string') return url;
  if (url) return url();
  return brokerFromRuntimeConfig();
}

/** Where dropped live messages are reported (the console; replaceable for error reporting and tests). */
let reportDroppedLiveMessage = (topic: string, reason: string) => console.warn(`Dropped a malformed live message on ${topic}: ${reason}`);
export function setDroppedLiveMessageReporter(report: (topic: string, reason: string) => void) {
  reportDroppedLiveMessage = report;
}

/** A message that does not match its schema is dropped and logged; only the connection failing (onError) ends live mode. */
const parsed = <T>(schema: z.ZodType<T>, topic: string, body: unknown) => parseLive(schema, topic, body, reportDroppedLiveMessage);

/** The chart machine's live source: new points of one sensor (orgs/{orgId}/sensors/{sensorId}/measurements). */
export const subscribeLive: LiveSubscribe = ({ orgId, sensorId }, onMessage, onError) => {
  return connection().listen(`orgs/${orgId}/sensors/${sensorId}/measurements`, {
    onMessage: (topic, body) => {
      const msg = parsed(liveMeasurementMessageSchema, topic, body);
      if (msg) onMessage(msg);
    },
    onError,
  });
};

/**
 * Organisation-wide live state for the dashboard, sensors list and notifications page: only the
 * topics of the handlers given (org-feed.ts).
 */
export function subscribeOrg(orgId: string, h: OrgLiveHandlers): () => void {
  const l = connection();
  // the organisation's feed keeps a drawn page current: it need not hold up the page's first draw
  const offs = orgFeed(orgId, h, (topic, reason) => reportDroppedLiveMessage(topic, reason)).map(({ filter, onMessage }) =>
    l.listen(filter, { onMessage, onError: h.onError }, { deferred: true }),
  );
  return () => offs.forEach((off) => off());
}

/** Task changes of one sensor (orgs/{orgId}/sensors/{sensorId}/downlink-tasks), with the sensor as it is after each. */
export function subscribeDownlinkTasks(orgId: string, sensorId: string, onMessage: (msg: LiveTaskMessage) => void, onError?: (e: Error) => void): () => void {
  return connection().listen(`orgs/${orgId}/sensors/${sensorId}/downlink-tasks`, {
    onMessage: (topic, body) => {
      const msg = parsed(liveTaskMessageSchema, topic, body);
      if (msg) onMessage(msg);
    },
    onError,
  });
}
