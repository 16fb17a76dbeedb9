import { hostname } from 'node:os';
import mqtt, { type MqttClient } from 'mqtt';
import type { AppContext } from '../context';
import { ingestDeviceMessage, uplinkTopicSerial } from './device-ingest';

/** Every server process joins this shared subscription; the broker hands each uplink to one of them. */
export const SHARED_UPLINKS = '$share/tidewatch-ingest/devices/+/uplink';

/**
 * Device uplinks through an external broker (MQTT_URL): devices publish devices/{serial}/uplink
 * to Mosquitto, EMQX or AWS IoT, whose own authorizer checks the device (username serial,
 * password device key, and an ACL that lets it publish only its own topic), so the server trusts
 * the topic's serial. The PUBACK to the broker is sent only after the uplink commits, and the
 * sessions are persistent, so an uplink in flight when a process dies is delivered again.
 * mqtt.js handles one message at a time per connection, hence a few connections.
 */
export function startExternalIngest(ctx: AppContext, url: string, opts: { connections?: number; clientIdPrefix?: string } = {}) {
  const prefix = opts.clientIdPrefix ?? `tidewatch-ingest-${hostname()}-${ctx.config.PORT}`;
  const clients: MqttClient[] = [];
  for (let i = 0; i < (opts.connections ?? 4); i++) {
    const client = mqtt.connect(url, { clientId: `${prefix}-${i}`, clean: false, reconnectPeriod: 1000, protocolVersion: 4 });
    client.on('connect', (ack) => {
      if (!ack.sessionPresent) client.subscribe(SHARED_UPLINKS, { qos: 1 });
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
    /** Leaves the shared group (others take over) and closes; after a crash the session is reclaimed instead. */
    async stop() {
      await Promise.all(
        clients.map(async (c) => {
          if (c.connected) await c.unsubscribeAsync(SHARED_UPLINKS).catch(() => {});
          await c.endAsync().catch(() => {});
        }),
      );
    },
  };
}
