import { hostname } from 'node:os';
import type { AppContext } from '../context';
import { DEVICE_KEY_PROPERTY, ingestDeviceMessage, uplinkTopicSerial } from './device-ingest';
import { openIngestConnection, type IngestConnection, type Outcome } from './ingest-connection';

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
 * Subscriber connections per server process. Each carries many uplinks at once, up to
 * INGEST_RECEIVE_MAXIMUM, so a group-commit batch is not bounded by the connection count as it
 * was with mqtt.js (one uplink in flight per connection, hence 256 then). Few connections, each
 * with several uplinks of a batch, answer a batch in few writes: a connection's acks and PUBACKs
 * of one turn leave in one write (ingest-connection.ts). At 5,000 uplinks/s through Mosquitto, 8
 * instead of 64 took the server's CPU an uplink from about 0.104 to 0.088 ms and Mosquitto's from
 * 0.039 to 0.029 ms (bench, exclusive lock, alternating runs); 2 gave a higher p99.
 */
export const INGEST_CONNECTIONS = 8;

/**
 * The MQTT 5 Receive Maximum each ingest connection asks for: how many uplinks the broker may hand
 * it before their PUBACKs. Mosquitto otherwise sends a client at most max_inflight_messages (20 by
 * default), so 8 connections could hold 160 uplinks while a batch commits, fewer than one batch
 * (BATCH_MAX, 256); the rest would wait in the broker for PUBACKs. A process holds at most
 * INGEST_CONNECTIONS x this many uplinks (8,192, under 10 MB); beyond that the broker queues
 * them for the process (Mosquitto: max_queued_messages a client, 1,000 by default).
 */
export const INGEST_RECEIVE_MAXIMUM = 1024;

/**
 * Device uplinks through an external broker (MQTT_URL): devices publish devices/{serial}/uplink
 * to Mosquitto, EMQX or AWS IoT. The broker's own authorizer may check the device too (deploy/mosquitto:
 * username serial, password device key, an ACL that lets it publish only its own topic), but the
 * server does not rely on it: each uplink carries its device key (deviceKeyOf: the MQTT 5 user
 * property device-key, or a deviceKey field of the body) and is checked as on HTTP; a wrong or
 * missing key is refused (logged, answered on devices/{serial}/errors, nothing stored). The PUBACK to the broker is sent only after the uplink commits, and the
 * sessions are persistent (MQTT 5, expiring MQTT_INGEST_SESSION_EXPIRY_S after a disconnect), so an
 * uplink in flight when a process dies is delivered again when it comes back within that time;
 * one that never comes back stops being handed uplinks when its sessions expire, and what the
 * broker had queued for them was never acknowledged to the device (devices/{serial}/ack).
 * The connections are ingest-connection.ts's, not mqtt.js's: many uplinks in flight on each.
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
  // MQTT 5 so that the persistent session expires: Mosquitto keeps handing a disconnected persistent
  // session its share of a shared subscription, so without an expiry a process that never comes
  // back would swallow its share of every later uplink
  const sessionExpirySeconds = opts.sessionExpirySeconds ?? ctx.config.MQTT_INGEST_SESSION_EXPIRY_S ?? 300;
  const clients: IngestConnection[] = [];
  for (let i = 0; i < (opts.connections ?? INGEST_CONNECTIONS); i++) {
    const client: IngestConnection = openIngestConnection({
      url,
      clientId: `${prefix}-${i}`,
      subscription,
      sessionExpirySeconds,
      receiveMaximum: INGEST_RECEIVE_MAXIMUM,
      log: ctx.log,
      async onMessage(topic, payload, userProperties): Promise<Outcome> {
        const serial = uplinkTopicSerial(topic);
        if (!serial) return 'ack';
        const res = await ingestDeviceMessage(ctx, serial, payload, { deviceKey: userProperties?.[DEVICE_KEY_PROPERTY] });
        if (res.ok) {
          client.publish(`devices/${serial}/ack`, JSON.stringify(res.ack));
          return 'ack';
        }
        if (res.code === 'INVALID_DEVICE_KEY') ctx.log.warn({ serial }, 'uplink from the external broker refused: unknown sensor, or a wrong or missing device key');
        client.publish(`devices/${serial}/errors`, JSON.stringify({ code: res.code, message: res.message }));
        // a refused uplink is acknowledged so it is not delivered forever; a failed one is not
        return res.permanent ? 'ack' : 'retry';
      },
    });
    clients.push(client);
  }
  return {
    clients,
    /** Every connection is in the shared group (resolves once; a reconnect resubscribes by itself). */
    ready: Promise.all(clients.map((c) => c.subscribed)).then(() => {}),
    /** Leaves the shared group (others take over) and closes; after a crash the session is reclaimed instead. */
    async stop() {
      await Promise.all(clients.map((c) => c.stop()));
    },
  };
}
