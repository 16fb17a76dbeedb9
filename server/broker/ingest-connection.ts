import { connect as tcpConnect } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import type { Duplex } from 'node:stream';
import { generate, parser, type Packet } from 'mqtt-packet';
import { WebSocket, createWebSocketStream } from 'ws';
import type { Logger } from '../log';
import { oneWriteThisTurn, writeNow } from '../one-write';

/** What became of a delivered message: 'ack' (stored, or refused for good), or 'retry' (not acknowledged: the broker delivers it again). */
export type Outcome = 'ack' | 'retry';

export type IngestConnectionOptions = {
  url: string;
  clientId: string;
  /** The topic filter subscribed at QoS 1 when the broker has no session for clientId. */
  subscription: string;
  sessionExpirySeconds: number;
  keepaliveSeconds?: number;
  /** How many QoS 1 messages the broker may send before it has their PUBACKs (MQTT 5 Receive Maximum; the broker's own default when absent). */
  receiveMaximum?: number;
  /** Runs for each message as it arrives, many at once; its PUBACK waits for the promise. `userProperties`: the MQTT 5 user properties it came with. */
  onMessage(topic: string, payload: Buffer, userProperties: Record<string, string | string[]> | undefined): Promise<Outcome>;
  log: Logger;
};

const v5 = { protocolVersion: 5 };
const MAX_BACKOFF_MS = 30_000;

/** The duplex byte stream an MQTT_URL names (the schemes server/config.ts accepts). */
function openStream(url: URL): Duplex {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (url.protocol === 'ws:' || url.protocol === 'wss:') return createWebSocketStream(new WebSocket(url, 'mqtt')); // ws sets TCP_NODELAY itself
  // no Nagle: a PUBACK written behind a device's ack would wait for the broker's delayed TCP ACK (p50 27 ms at 2,500/s)
  if (url.protocol === 'mqtts:') return tlsConnect({ host, port: Number(url.port) || 8883 }).setNoDelay(true);
  return tcpConnect(Number(url.port) || 1883, host).setNoDelay(true);
}

/**
 * One persistent MQTT 5 subscriber connection on mqtt-packet, which unlike mqtt.js (one message
 * at a time: its PUBACK lets the next one in) hands every PUBLISH to onMessage as it arrives. The
 * PUBACKs still go in arrival order (MQTT 5, 4.6), each after its own outcome and those of every
 * message before it on the connection; a 'retry' (or a throw) drops the connection without
 * acknowledging, so the session delivers it again on reconnect, with everything unacknowledged
 * after it (the ingest is idempotent: those come back as duplicates). Reconnects with backoff.
 */
export function openIngestConnection(o: IngestConnectionOptions) {
  const url = new URL(o.url);
  const keepalive = o.keepaliveSeconds ?? 60;
  let socket: Duplex | null = null;
  let connected = false;
  let stopped = false;
  let attempts = 0;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let pingTimer: ReturnType<typeof setInterval> | undefined;
  let nextId = 0;
  let unsubscribed: (() => void) | undefined;
  let markSubscribed!: () => void;
  const subscribed = new Promise<void>((r) => (markSubscribed = r));

  // SUBSCRIBE and UNSUBSCRIBE identifiers (PUBACKs reuse the broker's), 1 to 65,535
  const packetId = () => (nextId = (nextId % 0xffff) + 1);
  // what is written in one turn (a batch's acks and PUBACKs) goes out in one write when the turn ends
  const send = (packet: Packet) => {
    const s = socket;
    if (!s || !connected || s.destroyed) return;
    oneWriteThisTurn(s);
    s.write(generate(packet, v5));
  };

  function open() {
    const s = openStream(url);
    socket = s;
    // this connection's QoS 1 messages in arrival order, each with `done` once it may be acknowledged
    const unacked: { id: number; done: boolean }[] = [];
    let awaitingPong = false;
    const drop = (why: string, err?: unknown) => {
      if (socket === s) o.log.warn({ err, clientId: o.clientId }, `external ingest connection dropped: ${why}`);
      // what this turn wrote before the drop (PUBACKs of stored uplinks, a device's error) still goes out
      writeNow(s);
      s.destroy();
    };
    const flush = () => {
      if (socket !== s || s.destroyed) return; // what a dropped connection had unacknowledged, the session delivers again
      while (unacked[0]?.done) send({ cmd: 'puback', messageId: unacked.shift()!.id });
    };
    const p = parser(v5);
    p.on('error', (err) => drop('malformed packet', err));
    p.on('packet', (packet: Packet) => {
      switch (packet.cmd) {
        case 'connack': {
          if (packet.reasonCode) return drop(`CONNACK reason ${packet.reasonCode}`);
          connected = true;
          attempts = 0;
          pingTimer = setInterval(ping, keepalive * 1000);
          if (packet.sessionPresent) markSubscribed();
          else send({ cmd: 'subscribe', messageId: packetId(), subscriptions: [{ topic: o.subscription, qos: 1 }] });
          return;
        }
        case 'suback':
          if ((packet.granted as (number | { qos: number })[]).every((g) => (typeof g === 'number' ? g : g.qos) < 0x80)) markSubscribed();
          else o.log.warn({ granted: packet.granted, clientId: o.clientId }, 'external ingest subscription refused');
          return;
        case 'unsuback':
          return unsubscribed?.();
        case 'pingresp':
          awaitingPong = false;
          return;
        case 'disconnect':
          return drop(`DISCONNECT reason ${packet.reasonCode}`);
        case 'publish': {
          // a duplicate is handled like the first delivery (the ingest stores an uplink once); retained
          // messages are not sent to shared subscriptions, and an uplink is an uplink either way
          const payload = typeof packet.payload === 'string' ? Buffer.from(packet.payload) : packet.payload;
          const entry = packet.qos > 0 ? { id: packet.messageId!, done: false } : null;
          if (entry) unacked.push(entry);
          o.onMessage(packet.topic, payload, packet.properties?.userProperties).then(
            (outcome) => {
              if (!entry) return;
              if (outcome === 'retry') return drop('an uplink was not stored, so the broker delivers it again');
              entry.done = true;
              flush();
            },
            (err) => drop('an uplink failed', err),
          );
          return;
        }
      }
    });
    const ping = () => {
      if (awaitingPong) return drop('no PINGRESP within the keepalive');
      awaitingPong = true;
      send({ cmd: 'pingreq' });
    };
    s.on('data', (b: Buffer) => p.parse(b));
    // logged as mqtt.js logged it (a broker down, refused credentials at the socket); 'close' follows, and reconnects
    s.on('error', (err) => {
      if (socket === s) o.log.warn({ err, clientId: o.clientId }, 'external ingest connection');
    });
    s.on('close', () => {
      if (socket !== s) return;
      socket = null;
      connected = false;
      clearInterval(pingTimer);
      unsubscribed?.();
      if (stopped) return;
      const delay = Math.min(MAX_BACKOFF_MS, 1000 * 2 ** attempts++);
      retryTimer = setTimeout(open, delay);
    });
    const password = url.password ? Buffer.from(decodeURIComponent(url.password)) : undefined;
    s.write(
      generate(
        {
          cmd: 'connect',
          protocolId: 'MQTT',
          protocolVersion: 5,
          clientId: o.clientId,
          clean: false,
          keepalive,
          ...(url.username ? { username: decodeURIComponent(url.username), password } : {}),
          properties: { sessionExpiryInterval: o.sessionExpirySeconds, ...(o.receiveMaximum ? { receiveMaximum: o.receiveMaximum } : {}) },
        },
        v5,
      ),
    );
  }
  open();

  return {
    clientId: o.clientId,
    get connected() {
      return connected;
    },
    /** Resolves once the connection is in the subscription (a reconnect resubscribes by itself). */
    subscribed,
    /** Publishes at QoS 0; dropped while disconnected. */
    publish(topic: string, payload: string) {
      send({ cmd: 'publish', topic, payload, qos: 0, retain: false, dup: false });
    },
    /** Leaves the subscription, sends DISCONNECT and closes; no reconnect. */
    async stop() {
      stopped = true;
      clearTimeout(retryTimer);
      const s = socket;
      if (!s) return;
      if (connected) {
        const done = new Promise<void>((r) => (unsubscribed = r));
        send({ cmd: 'unsubscribe', messageId: packetId(), unsubscriptions: [o.subscription] });
        await Promise.race([done, new Promise((r) => setTimeout(r, 2000))]);
        send({ cmd: 'disconnect' });
      }
      await new Promise<void>((r) => (s.destroyed ? r() : (s.once('close', () => r()), s.end())));
    },
    /** Cuts the connection without DISCONNECT and does not reconnect: what the broker sees when a process dies (tests). */
    abort() {
      stopped = true;
      clearTimeout(retryTimer);
      socket?.destroy();
    },
  };
}

export type IngestConnection = ReturnType<typeof openIngestConnection>;
