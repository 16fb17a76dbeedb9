/// <reference lib="webworker" />
// The page's MQTT client (src/shared/live-link.ts): mqtt.js evaluates, connects and parses packets
// here, off the page's main thread; the page gets each message's topic and text.
import mqtt, { type MqttClient } from 'mqtt';
import type { LinkReply, LinkRequest } from '../src/shared/live-link-protocol';

let client: MqttClient | undefined;
const reply = (m: LinkReply) => postMessage(m);

addEventListener('message', (e: MessageEvent<LinkRequest>) => {
  const m = e.data;
  if (m.type === 'open') {
    client = mqtt.connect(m.url, { username: 'jwt', password: m.token, reconnectPeriod: 0, resubscribe: false, protocolVersion: 4, connectTimeout: 10_000 });
    client.on('connect', () => reply({ type: 'connect' }));
    client.on('close', () => reply({ type: 'close' }));
    client.on('error', () => {}); // a failed connect ends in 'close', which retries
    client.on('message', (topic, payload) => reply({ type: 'message', topic, text: payload.toString() }));
  } else if (m.type === 'subscribe') {
    client?.subscribe(m.filter, { qos: 0 }, (err, granted) => reply({ type: 'subscribed', id: m.id, refused: !!err || !!granted?.some((g) => g.qos === 128) }));
  } else if (m.type === 'unsubscribe') {
    client?.unsubscribe(m.filter);
  } else if (m.type === 'reconnect' && client) {
    client.options.password = m.token;
    client.reconnect();
  }
});
