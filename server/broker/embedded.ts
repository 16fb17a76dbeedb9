import { Aedes, type Client } from 'aedes';
import type { IncomingMessage } from 'node:http';
import { WebSocketServer, createWebSocketStream } from 'ws';
import type { Duplex } from 'node:stream';
import type { AppContext } from '../context';
import { TokenError, verifyToken } from '../identity/tokens';
import { mfaMissingSql } from '../http/mfa-rule';
import type { Publisher } from './publisher';
import type { Follower } from './external';
import { authenticateDevice, deviceMayPublish, deviceMaySubscribe, type DeviceSession } from './device-auth';
import { ingestDeviceMessage, uplinkTopicSerial } from './device-ingest';

type UserSession = { kind: 'user'; userId: string; token: string; exp: number; orgs: Set<string>; timer?: NodeJS.Timeout };
type Session = UserSession | DeviceSession;

/** How often each browser connection's membership and sign-in are checked again. */
export const MEMBERSHIP_RECHECK_MS = 60_000;

const looksLikeJwt = (s: string) => /^[\w-]+\.[\w-]+\.[\w-]+$/.test(s);
const refuse = (message: string, returnCode: number) => Object.assign(new Error(message), { returnCode }) as never;

/**
 * aedes inside the server, spoken to as MQTT over WebSocket at /mqtt.
 * Browsers: the password is the caller's ID token; they may only subscribe under orgs/{orgId}/#
 * of their organisations and may never publish. A connection ends when its token expires, and
 * when a periodic re-check finds a membership gone or the sign-in revoked.
 * Devices: username the serial, password the device key; they publish devices/{serial}/uplink
 * (QoS 1 is acknowledged only after the uplink commits) and may subscribe to devices/{serial}/#,
 * where devices/{serial}/ack carries the ingest answer (with downlinks) and /errors a refusal.
 */
export async function createEmbeddedBroker(base: Omit<AppContext, 'publisher'>, opts: { recheckMs?: number } = {}) {
  const sessions = new WeakMap<Client, Session>();
  // with an external broker: the organisations each browser connection has live topics relayed for
  let follower: Follower | undefined;
  const followedBy = new WeakMap<Client, Set<string>>();
  // device uplinks go through the same ingest path, publishing live data to this broker
  const ctx = (): AppContext => ({ ...base, publisher });

  const broker = await Aedes.createBroker({
    authenticate(client, username, password, done) {
      const secret = password?.toString() ?? '';
      if (!looksLikeJwt(secret) && username) {
        authenticateDevice(base.db, username, secret)
          .then((s) => {
            if (!s) return done(refuse('Bad device credentials', 4), false);
            sessions.set(client, s);
            done(null, true);
          })
          .catch(() => done(refuse('Server unavailable', 3), false));
        return;
      }
      verifyToken(base.db, base.key, base.tokens, secret, 'id')
        .then(async (claims) => {
          const rows = await base.db.query<{ org_id: string }>(`SELECT m.org_id FROM memberships m WHERE m.user_id = $1 AND m.role <> 4 AND NOT ${mfaMissingSql('m')}`, [claims.sub]);
          const s: UserSession = { kind: 'user', userId: claims.sub, token: secret, exp: claims.exp * 1000, orgs: new Set(rows.map((r) => r.org_id)) };
          // the same clock the token was checked against (the server's, which tests may fake)
          const ttl = Math.max(0, s.exp - (base.tokens.now?.() ?? Date.now()));
          s.timer = setTimeout(() => client.close(), Math.min(ttl, 2 ** 31 - 1));
          s.timer.unref();
          sessions.set(client, s);
          done(null, true);
        })
        .catch((err) => done(refuse(err instanceof TokenError ? err.message : 'Bad credentials', 4), false));
    },
    authorizeSubscribe(client, sub, done) {
      // a refusal is a SUBACK with 0x80 for that topic; the connection stays up
      const refused = () => done(null, null as never);
      const s = sessions.get(client);
      if (s?.kind === 'device') return deviceMaySubscribe(s, sub.topic) ? done(null, sub) : refused();
      const m = /^orgs\/([0-9a-f-]{36})\/(.+)$/.exec(sub.topic);
      if (!s || !m) return refused();
      // membership is re-read so a removed member cannot subscribe with an old session
      base.db
        .query(`SELECT 1 FROM memberships m WHERE m.user_id = $1 AND m.org_id = $2 AND m.role <> 4 AND NOT ${mfaMissingSql('m')}`, [s.userId, m[1]])
        .then(async (rows) => {
          if (!rows.length) return refused();
          // the external broker's messages for the organisation come here before the browser is told it is subscribed
          const orgs = followedBy.get(client) ?? new Set<string>();
          if (follower && !orgs.has(m[1])) {
            orgs.add(m[1]);
            followedBy.set(client, orgs);
            await follower.follow(m[1]);
          }
          done(null, sub);
        })
        .catch(() => refused());
    },
    authorizePublish(client, packet, done) {
      if (!client) return done(null);
      const s = sessions.get(client);
      const serial = uplinkTopicSerial(packet.topic);
      if (s?.kind !== 'device' || !serial || !deviceMayPublish(s, packet.topic)) return done(new Error('Clients may not publish'));
      // done() only after commit: aedes writes the PUBACK after authorizePublish succeeds
      ingestDeviceMessage(ctx(), serial, packet.payload as Buffer, { deviceKey: s.deviceKey })
        .then(async (res) => {
          if (res.ok) {
            // the device hears its ack (with queued downlinks, as HTTP answers) on devices/{serial}/ack;
            // the raw uplink is not fanned out: live data goes out on the organisation topics
            packet.payload = Buffer.from(JSON.stringify(res.ack));
            packet.topic = `devices/${serial}/ack`;
            return done(null);
          }
          await publisher.publish(`devices/${serial}/errors`, { code: res.code, message: res.message }).catch(() => {});
          done(new Error(res.message)); // MQTT 3.1.1 has no negative PUBACK: the connection closes
        })
        .catch((err: Error) => done(err));
    },
  });
  broker.on('clientDisconnect', (client) => {
    const s = sessions.get(client);
    if (s?.kind === 'user' && s.timer) clearTimeout(s.timer);
    for (const orgId of followedBy.get(client) ?? []) follower?.unfollow(orgId);
    followedBy.delete(client);
  });

  const clients = () => Object.values((broker as unknown as { clients: Record<string, Client> }).clients);

  /** Closes browser connections whose sign-in was revoked or one of whose memberships ended. */
  async function recheckMemberships() {
    const users = clients().flatMap((c) => {
      const s = sessions.get(c);
      return s?.kind === 'user' ? [{ c, s }] : [];
    });
    if (!users.length) return;
    const rows = await base.db.query<{ user_id: string; org_id: string }>(
      `SELECT m.user_id, m.org_id FROM memberships m WHERE m.user_id = ANY($1::uuid[]) AND m.role <> 4 AND NOT ${mfaMissingSql('m')}`,
      [[...new Set(users.map((u) => u.s.userId))]],
    );
    const now = new Set(rows.map((r) => `${r.user_id}/${r.org_id}`));
    for (const { c, s } of users) {
      const lost = [...s.orgs].some((o) => !now.has(`${s.userId}/${o}`));
      const revoked = await verifyToken(base.db, base.key, base.tokens, s.token, 'id').then(
        () => false,
        (err) => err instanceof TokenError,
      );
      if (lost || revoked) c.close();
    }
  }
  const recheckTimer = setInterval(() => void recheckMemberships().catch(() => {}), opts.recheckMs ?? MEMBERSHIP_RECHECK_MS);
  recheckTimer.unref();

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
        clearInterval(recheckTimer);
        for (const c of wss.clients) c.terminate();
        wss.close();
        broker.close(() => resolve());
      }),
  };

  /** Ends every connection of a user in an organisation (membership removed). */
  function dropMember(userId: string, orgId: string) {
    for (const client of clients()) {
      const s = sessions.get(client);
      if (s?.kind === 'user' && s.userId === userId && s.orgs.has(orgId)) client.close();
    }
  }

  /** Hands a live message from the external broker to this process's browsers, as it came. */
  function relay(topic: string, payload: Buffer) {
    if (broker.closed) return;
    broker.publish({ cmd: 'publish', topic, payload, qos: 0, retain: false, dup: false }, () => {});
  }

  return {
    broker,
    publisher,
    relay,
    /** With an external broker: relay an organisation's live topics only while a browser here follows them. */
    followWith(f: Follower) {
      follower = f;
    },
    dropMember,
    recheckMemberships,
    handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer) {
      wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
    },
  };
}
