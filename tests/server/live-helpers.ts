import mqtt from 'mqtt';
import type { TestServer } from './harness';

/** An mqtt.js client over WebSocket to the test server's /mqtt, as a browser connects. */
export function connectWs(s: { url: string }, password: string, opts: mqtt.IClientOptions = {}) {
  return mqtt.connectAsync(`${s.url.replace(/^http/, 'ws')}/mqtt`, {
    username: 'web',
    password,
    reconnectPeriod: 0,
    connectTimeout: 5_000,
    protocolVersion: 4,
    ...opts,
  });
}

/** Collects the messages of a client as parsed JSON, with a way to wait for the next one matching. */
export function collect(client: mqtt.MqttClient) {
  const messages: { topic: string; body: Record<string, unknown> }[] = [];
  const waiters: { pred: (m: { topic: string; body: Record<string, unknown> }) => boolean; resolve: (m: { topic: string; body: Record<string, unknown> }) => void }[] = [];
  client.on('message', (topic, payload) => {
    const m = { topic, body: JSON.parse(payload.toString()) };
    messages.push(m);
    for (const w of [...waiters]) if (w.pred(m)) {
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve(m);
    }
  });
  return {
    messages,
    next(pred: (m: { topic: string; body: Record<string, unknown> }) => boolean = () => true, ms = 5_000) {
      const seen = messages.find(pred);
      if (seen) return Promise.resolve(seen);
      return new Promise<{ topic: string; body: Record<string, unknown> }>((resolve, reject) => {
        const t = setTimeout(() => reject(new Error('no matching MQTT message')), ms);
        waiters.push({ pred, resolve: (m) => (clearTimeout(t), resolve(m)) });
      });
    },
  };
}

/** POSTs an uplink over HTTP as a device would. */
export function sendUplink(s: Pick<TestServer, 'url'>, deviceKey: string, body: unknown) {
  return fetch(`${s.url}/ingest/uplink`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Device-Key': deviceKey }, body: JSON.stringify(body) });
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
