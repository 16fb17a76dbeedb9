import type { MqttClient } from 'mqtt';
import { z } from 'zod';
import { getIdToken as gatewayIdToken } from './api';
import {
  liveMeasurementMessageSchema,
  liveNotificationMessageSchema,
  liveSensorStateMessageSchema,
  liveSensorSettingsMessageSchema,
  type LiveMeasurementMessage,
  type LiveSubscribe,
  type OrgLiveHandlers,
} from '../contract/live.schema';
import { liveTaskMessageSchema, type LiveTaskMessage } from '../contract/downlink-task.schema';
import { liveConfig, onCloseLive, type LiveConfig } from './live-config';
import { afterFirstDraw } from './first-draw';

export { closeLive, configureLive, type LiveConfig } from './live-config';

export const LIVE_REFUSED = 'Live updates are not available for this organisation.';
export const LIVE_NOT_LOGGED_IN = 'User is not logged in';
const RETRY_MS = [1_000, 2_000, 5_000, 10_000, 30_000];

type Listener = { onMessage(topic: string, payload: unknown): void; onError?(err: Error): void };

/**
 * One MQTT-over-WebSocket connection shared by every live view of the tab. Subscriptions are
 * counted per topic filter; when the connection drops (network, or the broker closing it at
 * token expiry or membership end) it reconnects with a fresh token and subscribes again.
 * Deferred listeners (the organisation-wide feed under every page) open it only once the page has
 * drawn its first data (`whenDrawn`, first-draw.ts); any other listener (live mode, remote tasks)
 * opens it at once.
 */
export function createLiveConnection(cfg: LiveConfig & { whenDrawn?: (start: () => void) => () => void }) {
  const filters = new Map<string, Set<Listener>>();
  let client: MqttClient | undefined;
  // whether the connection may open: a listener that wants it now, or the page drawn
  let started = false;
  let cancelWait: (() => void) | undefined;
  let connecting = false;
  let failures = 0;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  const recent: string[] = []; // overlapping subscriptions may deliver a message twice

  const fail = (filter: string, err: Error) => filters.get(filter)?.forEach((l) => l.onError?.(err));
  const failAll = (err: Error) => [...filters.keys()].forEach((f) => fail(f, err));

  function subscribe(filter: string) {
    client?.subscribe(filter, { qos: 0 }, (err, granted) => {
      if (err || granted?.some((g) => g.qos === 128)) fail(filter, new Error(LIVE_REFUSED));
    });
  }

  function scheduleReconnect() {
    clearTimeout(retryTimer);
    if (!filters.size) return;
    retryTimer = setTimeout(() => void connect(), RETRY_MS[Math.min(failures, RETRY_MS.length - 1)]);
    failures++;
  }

  function start() {
    cancelWait?.();
    cancelWait = undefined;
    started = true;
    void connect();
  }

  async function connect() {
    if (!started || connecting || client?.connected || !filters.size) return;
    connecting = true;
    try {
      const token = await cfg.getIdToken();
      if (!token) return failAll(new Error(LIVE_NOT_LOGGED_IN));
      if (!client) {
        const url = typeof cfg.url === 'string' ? cfg.url : await cfg.url();
        // mqtt.js (a fifth of the old entry chunk) loads with the first live view, not with the app
        const { default: mqtt } = await import('mqtt');
        client = mqtt.connect(url, { username: 'jwt', password: token, reconnectPeriod: 0, resubscribe: false, protocolVersion: 4, connectTimeout: 10_000 });
        client.on('connect', () => {
          failures = 0;
          cfg.onStatus?.(true);
          filters.forEach((_, f) => subscribe(f));
        });
        client.on('close', () => {
          cfg.onStatus?.(false);
          scheduleReconnect();
        });
        client.on('error', () => {}); // a failed connect ends in 'close', which retries
        client.on('message', (topic, payload) => {
          const text = payload.toString();
          const key = `${topic}\n${text}`;
          if (recent.includes(key)) return;
          recent.push(key);
          if (recent.length > 32) recent.shift();
          let body: unknown;
          try {
            body = JSON.parse(text);
          } catch {
            return reportDroppedLiveMessage(topic, 'not JSON');
          }
          filters.forEach((ls, f) => matches(f, topic) && ls.forEach((l) => l.onMessage(topic, body)));
        });
      } else {
        // same client, fresh token: the broker may have closed us at the old token's expiry
        client.options.password = token;
        client.reconnect();
      }
    } catch {
      // no configuration or token yet (network): try again later
      connecting = false;
      scheduleReconnect();
    } finally {
      connecting = false;
    }
  }

  return {
    /** Listens on an MQTT topic filter; returns the unsubscribe. `deferred`: the connection may wait until the page has drawn. */
    listen(filter: string, listener: Listener, opts: { deferred?: boolean } = {}): () => void {
      let set = filters.get(filter);
      if (!set) {
        set = new Set();
        filters.set(filter, set);
        if (client?.connected) subscribe(filter);
      }
      set.add(listener);
      if (started || !opts.deferred) start();
      else cancelWait ??= (cfg.whenDrawn ?? afterFirstDraw)(start);
      return () => {
        const s = filters.get(filter);
        if (!s?.delete(listener) || s.size) return;
        filters.delete(filter);
        if (client?.connected) client.unsubscribe(filter);
        if (!filters.size) close();
      };
    },
    /** Ends the connection (sign-out, or nothing listens any more). */
    close,
  };

  function close() {
    clearTimeout(retryTimer);
    cancelWait?.();
    cancelWait = undefined;
    const c = client;
    client = undefined;
    c?.removeAllListeners('close');
    c?.end(true);
    if (c) cfg.onStatus?.(false);
  }
}

/** MQTT topic filter matching with + and #. */
export function matches(filter: string, topic: string): boolean {
  const f = filter.split('/');
  const t = topic.split('/');
  for (let i = 0; i < f.length; i++) {
    if (f[i] === '#') return true;
    if (i >= t.length || (f[i] !== '+' && f[i] !== t[i])) return false;
  }
  return f.length === t.length;
}

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

/**
 * The tab's connection, opened with configureLive's settings (live-config.ts); without them the
 * broker comes from /config.json and the token from the gateway client (configureGateway), so
 * live views work wherever the gateway does.
 */
function connection() {
  if (live) return live;
  const cfg = liveConfig();
  live = createLiveConnection(
    cfg
      ? { ...cfg, onStatus: cfg.onStatus ?? setLiveStatus }
      : {
          url: async () => runtimeConfigSchema.parse(await (await fetch(new URL('/config.json', globalThis.location?.href ?? 'http://localhost'))).json()).mqtt.url,
          getIdToken: gatewayIdToken,
          onStatus: setLiveStatus,
        },
  );
  onCloseLive(() => {
    live?.close();
    live = undefined;
  });
  return live;
}

/** Where dropped live messages are reported (the console; replaceable for error reporting and tests). */
let reportDroppedLiveMessage = (topic: string, reason: string) => console.warn(`Dropped a malformed live message on ${topic}: ${reason}`);
export function setDroppedLiveMessageReporter(report: (topic: string, reason: string) => void) {
  reportDroppedLiveMessage = report;
}

/**
 * A message that does not match its schema is dropped and logged; the view stays live for the
 * next one. Only the connection failing (onError) ends live mode.
 */
function parsed<T>(schema: z.ZodType<T>, topic: string, body: unknown): T | undefined {
  const r = schema.safeParse(body);
  if (!r.success) {
    const issue = r.error.issues[0];
    reportDroppedLiveMessage(topic, issue ? `${issue.path.join('.') || 'message'}: ${issue.message}` : 'invalid');
  }
  return r.success ? r.data : undefined;
}

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

/** Organisation-wide live state for the dashboard, sensors list and notifications page. */
/** An organisation's sensor message (measurements may be left out), built once: built per message, the schema was about a tenth of the main thread's time under a fleet's live feed (benchmark 22). */
const orgSensorMessageSchema = liveMeasurementMessageSchema.partial({ measurements: true });

export function subscribeOrg(orgId: string, h: OrgLiveHandlers): () => void {
  const l = connection();
  // the organisation's feed keeps a drawn page current: it need not hold up the page's first draw
  const deferred = { deferred: true };
  const sensor = (topic: string, body: unknown) => {
    const msg = parsed(orgSensorMessageSchema, topic, body) as Partial<LiveMeasurementMessage> | undefined;
    if (msg?.sensorId) h.onSensor?.({ sensorId: msg.sensorId, serial: msg.serial ?? '', latestData: msg.latestData ?? {}, measurements: msg.measurements ?? [] });
  };
  const offs = [
    l.listen(`orgs/${orgId}/sensors/+/measurements`, { onMessage: sensor, onError: h.onError }, deferred),
    l.listen(`orgs/${orgId}/sensors/+/state`, {
      onMessage: (topic, body) => {
        const msg = parsed(liveSensorStateMessageSchema, topic, body);
        if (msg) h.onSensor?.({ ...msg, measurements: [] });
      },
      onError: h.onError,
    }, deferred),
    l.listen(`orgs/${orgId}/sensors/+/settings`, {
      onMessage: (topic, body) => {
        const msg = parsed(liveSensorSettingsMessageSchema, topic, body);
        if (msg) h.onSensorSettings?.(msg);
      },
      onError: h.onError,
    }, deferred),
    l.listen(`orgs/${orgId}/notifications`, {
      onMessage: (topic, body) => {
        const msg = parsed(liveNotificationMessageSchema, topic, body);
        if (msg) h.onNotification?.(msg);
      },
      onError: h.onError,
    }, deferred),
  ];
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
