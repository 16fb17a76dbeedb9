/// <reference lib="webworker" />
// The page's MQTT client (src/shared/live-link.ts): mqtt.js evaluates, connects and parses packets
// here, off the page's main thread; the page gets each message's topic and text.
import { openMqttClient, type LiveClient } from '../src/shared/live-connection';
import type { LinkReply, LinkRequest } from '../src/shared/live-link-protocol';

let client: Promise<LiveClient> | undefined;
const reply = (m: LinkReply) => postMessage(m);

addEventListener('message', (e: MessageEvent<LinkRequest>) => {
  const m = e.data;
  if (m.type === 'open') {
    client = openMqttClient(m.url, m.token, {
      connect: () => reply({ type: 'connect' }),
      close: () => reply({ type: 'close' }),
      message: (topic, text) => reply({ type: 'message', topic, text }),
    });
    return;
  }
  // requests that come while mqtt.js loads wait for it, in order
  void client?.then((c) => {
    if (m.type === 'subscribe') c.subscribe(m.filter, (refused) => reply({ type: 'subscribed', id: m.id, refused }));
    else if (m.type === 'unsubscribe') c.unsubscribe(m.filter);
    else if (m.type === 'reconnect') c.reconnect(m.token);
  });
});
