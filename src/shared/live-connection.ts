import type { LiveConfig } from './live-config';

// An MQTT-over-WebSocket connection as a value: the page's (live.ts) and the data worker's (the
// fleet's feed, workers/fleet-live.ts) are each one of these. Nothing here needs the DOM, the
// gateway client or the message schemas. The MQTT client itself is opened by `open`: mqtt.js in
// this thread by default (the data worker, Node), in a worker of its own for the page
// (live-link.ts), so mqtt.js's code never evaluates or parses packets on the page's main thread.

export const LIVE_REFUSED = 'Live updates are not available for this organisation.';
export const LIVE_NOT_LOGGED_IN = 'User is not logged in';
const RETRY_MS = [1_000, 2_000, 5_000, 10_000, 30_000];

type Listener = { onMessage(topic: string, payload: unknown): void; onError?(err: Error): void };

/** What the connection is told by its MQTT client. */
export interface LiveClientEvents {
  connect(): void;
  /** The connection closed or could not open (not after `end`). */
  close(): void;
  /** A message's topic and its payload as text. */
  message(topic: string, text: string): void;
}

/** An open MQTT client, wherever it runs. */
export interface LiveClient {
  readonly connected: boolean;
  /** Subscribes at QoS 0; `done(true)` when the broker refuses the filter. */
  subscribe(filter: string, done: (refused: boolean) => void): void;
  unsubscribe(filter: string): void;
  /** Connects again with a fresh token (the broker may have closed it at the old one's expiry). */
  reconnect(token: string): void;
  /** Ends the connection; no `close` follows. */
  end(): void;
}

/** Opens an MQTT client to `url` with the token as its password. */
export type OpenLiveClient = (url: string, token: string, on: LiveClientEvents) => Promise<LiveClient>;

/** mqtt.js in this thread, loaded with the first connection (never with the app). */
export const openMqttClient: OpenLiveClient = async (url, token, on) => {
  const { default: mqtt } = await import('mqtt');
  const client = mqtt.connect(url, { username: 'jwt', password: token, reconnectPeriod: 0, resubscribe: false, protocolVersion: 4, connectTimeout: 10_000 });
  client.on('connect', () => on.connect());
  client.on('close', () => on.close());
  client.on('error', () => {}); // a failed connect ends in 'close', which retries
  client.on('message', (topic, payload) => on.message(topic, payload.toString()));
  return {
    get connected() {
      return client.connected;
    },
    subscribe: (filter, done) => void client.subscribe(filter, { qos: 0 }, (err, granted) => done(!!err || !!granted?.some((g) => g.qos === 128))),
    unsubscribe: (filter) => void client.unsubscribe(filter),
    reconnect(fresh) {
      client.options.password = fresh;
      client.reconnect();
    },
    end() {
      client.removeAllListeners('close');
      client.end(true);
    },
  };
};

/**
 * One MQTT-over-WebSocket connection shared by every live view of the tab. Subscriptions are
 * counted per topic filter; when the connection drops (network, or the broker closing it at
 * token expiry or membership end) it reconnects with a fresh token and subscribes again.
 * Deferred listeners (the organisation-wide feed under every page) open it only once the page has
 * drawn its first data (`whenDrawn`, first-draw.ts); any other listener (live mode, remote tasks)
 * opens it at once.
 */
export function createLiveConnection(
  cfg: LiveConfig & {
    /** Deferred listeners wait for this to call `start` (the page: its first draw); without it they start at once. */
    whenDrawn?: (start: () => void) => () => void;
    /** Told of a message that is not JSON. */
    onDropped?: (topic: string, reason: string) => void;
    /** Opens the MQTT client (mqtt.js in this thread unless given). */
    open?: OpenLiveClient;
  },
) {
  const filters = new Map<string, Set<Listener>>();
  let client: LiveClient | undefined;
  /** Counts close(): a client that finishes opening after one is ended, not kept. */
  let closes = 0;
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
    client?.subscribe(filter, (refused) => {
      if (refused) fail(filter, new Error(LIVE_REFUSED));
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
        const opening = closes;
        const opened = await (cfg.open ?? openMqttClient)(url, token, {
          connect: () => {
            failures = 0;
            cfg.onStatus?.(true);
            filters.forEach((_, f) => subscribe(f));
          },
          close: () => {
            cfg.onStatus?.(false);
            scheduleReconnect();
          },
          message: (topic, text) => {
            const key = `${topic}\n${text}`;
            if (recent.includes(key)) return;
            recent.push(key);
            if (recent.length > 32) recent.shift();
            let body: unknown;
            try {
              body = JSON.parse(text);
            } catch {
              return cfg.onDropped?.(topic, 'not JSON');
            }
            filters.forEach((ls, f) => matches(f, topic) && ls.forEach((l) => l.onMessage(topic, body)));
          },
        });
        // closed while it opened (sign-out): it is not kept
        if (opening !== closes) return opened.end();
        client = opened;
      } else {
        // same client, fresh token: the broker may have closed us at the old token's expiry
        client.reconnect(token);
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
      else if (!cfg.whenDrawn) start();
      else cancelWait ??= cfg.whenDrawn(start);
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
    closes++;
    clearTimeout(retryTimer);
    cancelWait?.();
    cancelWait = undefined;
    const c = client;
    client = undefined;
    c?.end();
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
