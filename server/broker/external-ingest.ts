import { hostname } from 'node:os';
import mqtt, { type MqttClient } from 'mqtt';
import type { AppContext } from '../context';
import { ingestDeviceMessage, uplinkTopicSerial } from './device-ingest';

/** Every server process of a deployment joins this shared subscription; the broker hands each uplink to one of them. */
export const sharedUplinks = (group: string) => `$share/${group}/devices/+/uplink`;

/**
 * The client ids of a process's ingest connections: stable across restarts of the same process
 * (host and port), so a restarted process resumes its persistent sessions and takes what the broker
 * kept for them; with an ephemeral port (PORT=0) nothing is to be resumed, so the pid keeps two
 * such processes on one host from taking over each other's sessions.
 */
export function ingestClientIdPrefix(group: string, port: number) {
  return `${group}-${hostname()}-${port || `pid${process.pid}`}`;
}

/**
 * Subscriber connections per server process. mqtt.js takes a connection's next message only after
 * the PUBACK of the one before, which waits for its commit; so one connection has one uplink in
 * flight, and a group-commit batch holds at most one uplink per connection. The broker spreads
 * the shared subscription over all of them, so this many uplinks can share one transaction: 256,
 * the batcher's own limit. With 64, 5,000 uplinks/s offered through Mosquitto were acked at about
 * 3,700/s (a batch and its commit took longer than 64 uplinks' worth of the rate); with 256, at 5,000/s.
 */
export const INGEST_CONNECTIONS = 256;

/**
 * Device uplinks through an external broker (MQTT_URL): devices publish devices/{serial}/uplink
 * to Mosquitto, EMQX or AWS IoT, whose own authorizer checks the device (username serial,
 * password device key, and an ACL that lets it publish only its own topic), so the server trusts
 * the topic's serial. The PUBACK to the broker is sent only after the uplink commits, and the
 * sessions are persistent (MQTT 5, expiring MQTT_INGEST_SESSION_EXPIRY_S after a disconnect), so an
 * uplink in flight when a process dies is delivered again when it comes back within that time;
 * one that never comes back stops being handed uplinks when its sessions expire, and what the
 * broker had queued for them was never acknowledged to the device (devices/{serial}/ack).
 * mqtt.js handles one message at a time per connection (its PUBACK is sent from the callback that
 * lets the next message in), hence many connections (INGEST_CONNECTIONS) rather than private
 * mqtt.js internals to pipeline one.
 */
export function startExternalIngest(
  ctx: AppContext,
  url: string,
  /** `subscription`: another shared group, so a test's server does not share uplinks with other servers on the broker. */
  opts: { connections?: number; clientIdPrefix?: string; subscription?: string; sessionExpirySeconds?: number } = {},
) {
  const group = ctx.config.MQTT_INGEST_GROUP ?? 'tidewatch-ingest';
  const prefix = opts.clientIdPrefix ?? ingestClientIdPrefix(group, ctx.config.PORT);
  const subscription = opts.subscription ?? sharedUplinks(group);
  const clients: MqttClient[] = [];
  const subscribed: Promise<void>[] = [];
  for (let i = 0; i < (opts.connections ?? INGEST_CONNECTIONS); i++) {
    // MQTT 5 so that the persistent session expires: Mosquitto keeps handing a disconnected persistent
    // session its share of a shared subscription, so without an expiry a process that never comes
    // back would swallow its share of every later uplink
    const sessionExpiryInterval = opts.sessionExpirySeconds ?? ctx.config.MQTT_INGEST_SESSION_EXPIRY_S ?? 300;
    const client = mqtt.connect(url, { clientId: `${prefix}-${i}`, clean: false, reconnectPeriod: 1000, protocolVersion: 5, properties: { sessionExpiryInterval } });
    let markSubscribed!: () => void;
    subscribed.push(new Promise<void>((r) => (markSubscribed = r)));
    client.on('connect', (ack) => {
      if (ack.sessionPresent) markSubscribed();
      else client.subscribe(subscription, { qos: 1 }, (err) => (err ? ctx.log.warn({ err }, 'external ingest subscription') : markSubscribed()));
    });
    client.on('error', (err) => ctx.log.warn({ err }, 'external ingest connection'));
    // the acknowledgement of a QoS 1 message waits for this callback
    client.handleMessage = (packet, done) => {
      const serial = uplinkTopicSerial(packet.topic);
      if (!serial) return done();
      ingestDeviceMessage(ctx, serial, packet.payload as Buffer, { trusted: true })
        .then(async (res) => {
          if (res.ok) {
            await client.publishAsync(`devices/${serial}/ack`, JSON.stringify(res.ack), { qos: 0 }).catch(() => {});
            return done();
          }
          await client.publishAsync(`devices/${serial}/errors`, JSON.stringify({ code: res.code, message: res.message }), { qos: 0 }).catch(() => {});
          // a refused uplink is acknowledged so it is not delivered forever; a failed one is not
          done(res.permanent ? undefined : new Error(res.message));
        })
        .catch((err: Error) => done(err));
    };
    clients.push(client);
  }
  return {
    clients,
    /** Every connection is in the shared group (resolves once; a reconnect resubscribes by itself). */
    ready: Promise.all(subscribed).then(() => {}),
    /** Leaves the shared group (others take over) and closes; after a crash the session is reclaimed instead. */
    async stop() {
      await Promise.all(
        clients.map(async (c) => {
          if (c.connected) await c.unsubscribeAsync(subscription).catch(() => {});
          await c.endAsync().catch(() => {});
        }),
      );
    },
  };
}
