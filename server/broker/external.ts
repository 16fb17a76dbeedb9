import mqtt from 'mqtt';
import type { Publisher } from './publisher';
import type { Logger } from '../log';
import { LIVE_SIGNATURE_PROPERTY, signLive, verifyLive } from './live-signature';

/** An organisation's live topics: what its browsers on /mqtt may subscribe to (orgs/{orgId}/...). */
export const liveTopicsOf = (orgId: string) => `orgs/${orgId}/#`;

/**
 * Publishes to an external MQTT broker (Mosquitto, EMQX, AWS IoT) when MQTT_URL is set.
 * With `relay`, the process also relays to `relay` the live topics of each organisation it is
 * told to follow (`follow`, while a browser of that organisation is connected to this process):
 * browsers keep using this process's /mqtt (with our authorisation), and see what any process
 * published. This process publishes only to the external broker, so its own messages reach its
 * browsers once, by the same way back. An organisation with no browser on a process is not sent
 * to it: at 5,000 uplinks/s every live message came back to every process when each held one
 * subscription to every live topic.
 *
 * Every live message it publishes is signed (MQTT 5 user property tw-sig, HMAC-SHA256 with the
 * deployment's live signing key, live-signature.ts), and the relay drops whatever on orgs/# is not
 * signed so: a client of the broker that may publish there (an anonymous one on a broker that
 * allows them) cannot push data to signed-in browsers.
 */
export async function connectExternalBroker(
  url: string,
  relay: ((topic: string, payload: Buffer) => void) | undefined,
  opts: { signingKey: Buffer; log: Logger },
): Promise<Publisher & { client: mqtt.MqttClient } & Follower & { dropped(): number }> {
  // a clean session: a process that was away does not replay a backlog of stale live data
  const client = await mqtt.connectAsync(url, { clientId: `tidewatch-server-${process.pid}-${Date.now()}`, reconnectPeriod: 1000, clean: true, protocolVersion: 5 });
  let dropped = 0;
  let warnedAt = -Infinity;
  if (relay) {
    client.on('message', (topic, payload, packet) => {
      if (!topic.startsWith('orgs/')) return;
      if (verifyLive(opts.signingKey, topic, payload, packet.properties?.userProperties?.[LIVE_SIGNATURE_PROPERTY])) return relay(topic, payload);
      dropped++;
      // a flood of forgeries logs once a minute, with the count so far
      if (performance.now() - warnedAt >= 60_000) {
        warnedAt = performance.now();
        opts.log.warn({ topic, dropped }, 'live message on the external broker without a server signature dropped');
      }
    });
  }
  // per organisation followed: how many follow it, and its subscription (mqtt.js renews them after a reconnect)
  const followed = new Map<string, { n: number; subscribed: Promise<void> }>();
  return {
    client,
    // QoS 0, as the embedded broker publishes and as browsers subscribe: live data is best-effort
    // (clients load what they missed), and at QoS 1 every device's ack waited for the broker's
    // PUBACK of its live message, and the broker sent one more packet an uplink
    publish: async (topic, payload) => {
      const body = JSON.stringify(payload);
      await client.publishAsync(topic, body, { qos: 0, properties: { userProperties: { [LIVE_SIGNATURE_PROPERTY]: signLive(opts.signingKey, topic, body) } } });
    },
    dropped: () => dropped,
    isReady: () => client.connected,
    close: () => client.endAsync(),
    follow(orgId) {
      let f = followed.get(orgId);
      if (!f) {
        // a broker that does not answer does not hold up the browser's subscription for long
        const subscribed = client.subscribeAsync(liveTopicsOf(orgId), { qos: 0 }).then(() => {}, () => {});
        followed.set(orgId, (f = { n: 0, subscribed: Promise.race([subscribed, new Promise<void>((r) => setTimeout(r, FOLLOW_WAIT_MS).unref())]) }));
      }
      f.n++;
      return f.subscribed;
    },
    unfollow(orgId) {
      const f = followed.get(orgId);
      if (!f || --f.n > 0) return;
      followed.delete(orgId);
      // a follow after this sends its SUBSCRIBE after this UNSUBSCRIBE on the same connection
      client.unsubscribeAsync(liveTopicsOf(orgId)).catch(() => {});
    },
    following: () => [...followed.keys()],
  };
}

/** How long a browser's subscription waits at most for this process's subscription at the broker. */
export const FOLLOW_WAIT_MS = 5_000;

/** Which organisations' live topics a process takes from the external broker. */
export interface Follower {
  /** One more browser subscription on this process for the organisation; resolves once its live topics come here. */
  follow(orgId: string): Promise<void>;
  /** One fewer; the last one ends the relay of the organisation. */
  unfollow(orgId: string): void;
  /** The organisations followed now (tests). */
  following(): string[];
}
