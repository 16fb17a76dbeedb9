import { Aedes, type Client } from 'aedes';
import type { IncomingMessage } from 'node:http';
import { WebSocketServer, createWebSocketStream } from 'ws';
import type { Duplex } from 'node:stream';
import type { AppContext } from '../context';
import { TokenError, verifyToken } from '../identity/tokens';
import type { Publisher } from './publisher';

type Session = { userId: string; exp: number; orgs: Set<string>; timer?: NodeJS.Timeout };

/**
 * aedes inside the server, spoken to by browsers as MQTT over WebSocket at /mqtt.
 * The password is the caller's ID token; clients may only subscribe under orgs/{orgId}/# of
 * their organisations and may never publish there. A connection ends when its token expires.
 */
export async function createEmbeddedBroker(ctx: Omit<AppContext, 'publisher'>) {
  const sessions = new WeakMap<Client, Session>();
  const broker = await Aedes.createBroker({
    authenticate(client, _username, password, done) {
      const token = password?.toString() ?? '';
      verifyToken(ctx.db, ctx.key, ctx.tokens, token, 'id')
        .then(async (claims) => {
          const rows = await ctx.db.query<{ org_id: string }>('SELECT org_id FROM memberships WHERE user_id = $1 AND role <> 4', [claims.sub]);
          const s: Session = { userId: claims.sub, exp: claims.exp * 1000, orgs: new Set(rows.map((r) => r.org_id)) };
          const ttl = Math.max(0, s.exp - Date.now());
          s.timer = setTimeout(() => client.close(), Math.min(ttl, 2 ** 31 - 1));
          s.timer.unref();
          sessions.set(client, s);
          done(null, true);
        })
        .catch((err) => {
          const e = Object.assign(new Error(err instanceof TokenError ? err.message : 'Bad credentials'), { returnCode: 4 });
          done(e as never, false);
        });
    },
    authorizeSubscribe(client, sub, done) {
      const s = sessions.get(client);
      const m = /^orgs\/([0-9a-f-]{36})\/(.+)$/.exec(sub.topic);
      if (!s || !m) return done(new Error('Subscription refused'));
      // membership is re-read so a removed member cannot subscribe with an old session
      ctx.db
        .query('SELECT 1 FROM memberships WHERE user_id = $1 AND org_id = $2 AND role <> 4', [s.userId, m[1]])
        .then((rows) => (rows.length ? done(null, sub) : done(new Error('Subscription refused'))))
        .catch(() => done(new Error('Subscription refused')));
    },
    authorizePublish(client, _packet, done) {
      if (client) return done(new Error('Clients may not publish'));
      done(null);
    },
  });
  broker.on('clientDisconnect', (client) => {
    const s = sessions.get(client);
    if (s?.timer) clearTimeout(s.timer);
  });

  const wss = new WebSocketServer({ noServer: true });
  wss.on('connection', (socket, req) => {
    const stream = createWebSocketStream(socket);
    stream.on('error', () => socket.terminate());
    broker.handle(stream as never, req);
  });

  const publisher: Publisher = {
    publish: (topic, payload) =>
      new Promise((resolve, reject) =>
        broker.publish(
          { cmd: 'publish', topic, payload: Buffer.from(JSON.stringify(payload)), qos: 0, retain: false, dup: false },
          (err) => (err ? reject(err) : resolve()),
        ),
      ),
    isReady: () => !broker.closed,
    close: () =>
      new Promise<void>((resolve) => {
        for (const c of wss.clients) c.terminate();
        wss.close();
        broker.close(() => resolve());
      }),
  };

  /** Ends every connection of a user in an organisation (membership removed). */
  function dropMember(userId: string, orgId: string) {
    for (const client of Object.values((broker as unknown as { clients: Record<string, Client> }).clients)) {
      const s = sessions.get(client);
      if (s?.userId === userId && s.orgs.has(orgId)) client.close();
    }
  }

  return {
    broker,
    publisher,
    dropMember,
    handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer) {
      wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
    },
  };
}
