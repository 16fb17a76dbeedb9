import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the receiver recorded. */
export interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A running receiver: its URL, what it recorded, its mode, and close(). */
export type WebhookReceiver = Awaited<ReturnType<typeof startWebhookReceiver>>;

/**
 * A real webhook receiver on 127.0.0.1:0 at `path`, recording every request it processes. It can
 * be set down (503, nothing recorded) or flaky (recorded, but answering 500, as a receiver that
 * processed the event and then failed). The server delivery suites and the browser webhooks test
 * all deliver to it.
 */
export async function startWebhookReceiver(path = '/hooks/tidewatch') {
  const received: ReceivedWebhook[] = [];
  let mode: 'down' | 'up' | 'flaky' = 'up';
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      if (mode === 'down') return res.writeHead(503).end();
      received.push({ headers: req.headers, body });
      res.writeHead(mode === 'flaky' ? 500 : 204).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`,
    received,
    set: (m: typeof mode) => (mode = m),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
