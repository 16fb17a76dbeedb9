import mqtt from 'mqtt';
import type { Publisher } from './publisher';

/** Every live topic: what browsers on /mqtt may subscribe to (orgs/{orgId}/...). */
export const LIVE_TOPICS = 'orgs/#';

/**
 * Publishes to an external MQTT broker (Mosquitto, EMQX, AWS IoT) when MQTT_URL is set.
 * With `relay`, the process also holds one subscription to every live topic and hands each
 * message to `relay`: browsers keep using this process's /mqtt (with our authorisation), and
 * see what any process published. This process publishes only to the external broker, so its
 * own messages reach its browsers once, by the same way back.
 */
export async function connectExternalBroker(
  url: string,
  relay?: (topic: string, payload: Buffer) => void,
): Promise<Publisher & { client: mqtt.MqttClient }> {
  // a clean session: a process that was away does not replay a backlog of stale live data
  const client = await mqtt.connectAsync(url, { clientId: `tidewatch-server-${process.pid}-${Date.now()}`, reconnectPeriod: 1000, clean: true });
  if (relay) {
    client.on('message', (topic, payload) => {
      if (topic.startsWith('orgs/')) relay(topic, payload);
    });
    // one subscription; mqtt.js renews it after a reconnect (resubscribe), never a second one
    await client.subscribeAsync(LIVE_TOPICS, { qos: 0 });
  }
  return {
    client,
    // QoS 0, as the embedded broker publishes and as browsers subscribe: live data is best-effort
    // (clients load what they missed), and at QoS 1 every device's ack waited for the broker's
    // PUBACK of its live message, and the broker sent one more packet an uplink
    publish: async (topic, payload) => {
      await client.publishAsync(topic, JSON.stringify(payload), { qos: 0 });
    },
    isReady: () => client.connected,
    close: () => client.endAsync(),
  };
}
