import { createServer, request, type IncomingMessage } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';

/**
 * The network between a browser context and the product, as a switch the test holds: an HTTP
 * proxy of the test's own (`browser.newPage({ proxy: { server: link.proxy } })`; Playwright sends
 * loopback through a context's proxy too) that forwards every request of the context, its pages',
 * its service worker's and the browser's own on its behalf.
 *
 * - `cut()`: every connection it holds is reset, and every request that comes while it is cut is
 *   reset unanswered (and listed in `blocked`): nothing of the context reaches the server.
 * - `loseAnswers()`: requests reach the server, but the connection is reset instead of answering,
 *   as when a phone's signal goes between sending and receiving.
 * - `restore()`: requests and answers pass again.
 *
 * The browser's own switches do not guarantee this: Playwright's offline emulation
 * (`context.setOffline`) and interception (`context.route`) act through the DevTools targets of the
 * context's pages and workers, and requests the browser makes by itself (the service worker's
 * update check of its script, GET /reader/sw.js when /reader/ loads) pass both. The
 * emulation is still what tells the app it is offline (navigator.onLine, the offline and online
 * events); the link is what keeps the server out of reach.
 */
export interface NetworkLink {
  /** The proxy's address, for a context's `proxy.server`. */
  proxy: string;
  /** What the context sent while the link was cut (method and path, or CONNECT and host), oldest first. */
  readonly blocked: string[];
  cut(): void;
  loseAnswers(): void;
  restore(): void;
  close(): Promise<void>;
}

export async function startNetworkLink(): Promise<NetworkLink> {
  let mode: 'up' | 'cut' | 'lose' = 'up';
  const blocked: string[] = [];
  const sockets = new Set<Socket>();
  const track = (s: Socket) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
  };

  // plain HTTP through a proxy: the request line carries the absolute URL
  const server = createServer((req: IncomingMessage, res) => {
    const url = new URL(req.url ?? '/');
    if (mode === 'cut') {
      blocked.push(`${req.method} ${url.pathname}`);
      return void req.socket.destroy();
    }
    const headers = { ...req.headers };
    delete headers['proxy-connection'];
    const upstream = request({ host: url.hostname, port: url.port || 80, method: req.method, path: url.pathname + url.search, headers, agent: false }, (answer) => {
      if (mode !== 'up') {
        // the server has done the work; its answer never arrives
        answer.resume();
        return void req.socket.destroy();
      }
      res.writeHead(answer.statusCode ?? 502, answer.statusMessage, answer.rawHeaders);
      answer.pipe(res);
    });
    upstream.on('socket', track);
    upstream.on('error', () => req.socket.destroy());
    req.pipe(upstream);
  });
  server.on('connection', track);
  // anything tunnelled (WebSockets, https): CONNECT host:port
  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    if (mode !== 'up') {
      blocked.push(`CONNECT ${req.url}`);
      return void client.destroy();
    }
    const [host, port] = (req.url ?? '').split(':');
    const upstream = connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    track(upstream);
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

  const resetAll = () => {
    for (const s of sockets) s.destroy();
    sockets.clear();
  };
  return {
    proxy: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    blocked,
    cut() {
      mode = 'cut';
      resetAll();
    },
    loseAnswers() {
      mode = 'lose';
      resetAll();
    },
    restore() {
      mode = 'up';
    },
    close: () =>
      new Promise<void>((resolve) => {
        resetAll();
        server.close(() => resolve());
      }),
  };
}
