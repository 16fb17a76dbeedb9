import mqtt from 'mqtt';
import type { Publisher } from './publisher';

/** Publishes to an external MQTT broker (Mosquitto, EMQX, AWS IoT) when MQTT_URL is set. */
export async function connectExternalBroker(url: string): Promise<Publisher & { client: mqtt.MqttClient }> {
  const client = await mqtt.connectAsync(url, { clientId: `tidewatch-server-${process.pid}-${Date.now()}`, reconnectPeriod: 1000 });
  return {
    client,
    publish: async (topic, payload) => {
      await client.publishAsync(topic, JSON.stringify(payload), { qos: 1 });
    },
    isReady: () => client.connected,
    close: () => client.endAsync(),
  };
}
