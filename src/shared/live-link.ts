import type { LinkReply, LinkRequest } from './live-link-protocol';
import { openMqttClient, type LiveClient, type OpenLiveClient } from './live-connection';

/**
 * The page's MQTT client in a worker of its own (workers/live-link.worker.ts): mqtt.js is a third
 * of a megabyte whose evaluation was one main-thread task of 48 to 70 ms as the notifications
 * page's live feed opened (benchmark 22), and its packet parsing ran there too. The page keeps the
 * connection's logic (live-connection.ts: counted subscriptions, reconnects, the duplicate check)
 * and hears each message's topic and text. Ending the client ends the worker. Where workers are
 * not (Node), mqtt.js runs in this thread.
 */
export const openLinkedClient: OpenLiveClient = async (url, token, on) => {
  if (typeof Worker === 'undefined') return openMqttClient(url, token, on);
  const worker = new Worker(new URL('../../workers/live-link.worker.ts', import.meta.url), { type: 'module', name: 'live' });
  const send = (m: LinkRequest) => worker.postMessage(m);
  const pending = new Map<number, (refused: boolean) => void>();
  let nextId = 0;
  let connected = false;
  let ended = false;
  /** The worker's script failed to load or run: the client is down for good, and says so on each reconnect (the connection's retries go on). */
  let dead = false;
  worker.addEventListener('message', (e: MessageEvent<LinkReply>) => {
    if (ended) return;
    const m = e.data;
    if (m.type === 'connect') {
      connected = true;
      on.connect();
    } else if (m.type === 'close') {
      connected = false;
      on.close();
    } else if (m.type === 'message') on.message(m.topic, m.text);
    else if (m.type === 'subscribed') {
      pending.get(m.id)?.(m.refused);
      pending.delete(m.id);
    }
  });
  worker.addEventListener('error', () => {
    if (ended || dead) return;
    dead = true;
    connected = false;
    on.close();
  });
  send({ type: 'open', url, token });
  const client: LiveClient = {
    get connected() {
      return connected;
    },
    subscribe(filter, done) {
      const id = nextId++;
      pending.set(id, done);
      send({ type: 'subscribe', filter, id });
    },
    unsubscribe: (filter) => send({ type: 'unsubscribe', filter }),
    reconnect(fresh) {
      if (dead) setTimeout(() => !ended && on.close(), 0);
      else send({ type: 'reconnect', token: fresh });
    },
    end() {
      ended = true;
      connected = false;
      worker.terminate();
    },
  };
  return client;
};
