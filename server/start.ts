import { serve } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type RequestListener, type Server, type ServerOptions, type ServerResponse } from 'node:http';
import { createSecureServer } from 'node:http2';
import { uplinkListener } from './ingest/ingest-http';
import { measurementsListener } from './gateway/measurements-http';
import type { Config } from './config';
import type { AppContext } from './context';
import { openDb, type Db } from './db/db';
import { migrate } from './db/migrate';
import { prepareMonths } from './db/measurement-partitions';
import { loadSigningKey } from './identity/keys';
import { createEmbeddedBroker } from './broker/embedded';
import { connectExternalBroker } from './broker/external';
import { loadLiveSigningKey } from './broker/live-signature';
import { createMembershipBus } from './broker/membership-bus';
import { createApp } from './http/app';
import { log as rootLog } from './log';
import { seedDemoWorld } from './seed/demo';
import { startBackground } from './background';
import { isLoopbackHostname } from './http/origin';
import { hashQueue } from './identity/hash-queue';
import { dummyHash } from './identity/passwords';

/**
 * Demo mode publishes a password and serves the mailbox (loopback only, but still): say so loudly
 * when the server can be reached from other machines.
 */
export function demoExposureWarning(config: Config): string | null {
  if (!config.DEMO_MODE || isLoopbackHostname(config.HOST)) return null;
  return [
    '!!! DEMO MODE is on and the server listens on ' + config.HOST + ', beyond this machine.',
    '!!! Demo accounts use the password published in the README' + (config.SEED_DEMO ? ' and are seeded into an empty database' : '') + '.',
    '!!! For a real deployment set DEMO_MODE=false (or DATABASE_URL, or NODE_ENV=production), or listen on HOST=127.0.0.1.',
  ].join('\n');
}

/**
 * Every uplink rewrites its sensor's row and every alert delivery its outbox row: the dead row
 * versions and index entries they leave are cleaned up by autovacuum. With it off they pile up
 * (the ingest benchmark, on a PostgreSQL with autovacuum off: the outbox's claim of undeliverable
 * rows slowed from 6.8 to 13.2 ms within a minute at 5,000 uplinks/s): say so at start. PGlite
 * (one process, no autovacuum worker) is the embedded default, not a deployment.
 */
export async function autovacuumWarning(db: Db): Promise<string | null> {
  if (db.kind !== 'postgres') return null;
  const [s] = await db.query<{ autovacuum: string; track_counts: string }>("SELECT current_setting('autovacuum') AS autovacuum, current_setting('track_counts') AS track_counts");
  if (s.autovacuum === 'on' && s.track_counts === 'on') return null;
  return `PostgreSQL's autovacuum is not running (autovacuum = ${s.autovacuum}, track_counts = ${s.track_counts}): the sensors, outbox and notifications tables will bloat and ingest will slow down. Turn both on in postgresql.conf, or VACUUM those tables regularly.`;
}

export interface RunningServer {
  ctx: AppContext;
  url: string;
  port: number;
  /** Resolves once the background jobs take work: with MQTT_URL, every ingest connection is in its shared group. */
  ready: Promise<void>;
  stop(): Promise<void>;
}

/** Starts the whole product on one port; used by main.ts, the integration tests and the e2e tests. */
export async function startServer(
  config: Config,
  opts: { db?: Db; now?: () => number; background?: boolean; /** tests: the broker's membership re-check interval */ membershipRecheckMs?: number } = {},
): Promise<RunningServer> {
  const log = rootLog.child({});
  log.level = config.LOG_LEVEL;
  const db = opts.db ?? (await openDb({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR }));
  const applied = await migrate(db);
  if (applied.length) log.info({ applied }, 'migrations applied');
  await prepareMonths(db, (opts.now ?? Date.now)());
  const key = await loadSigningKey(db);
  hashQueue.concurrency = config.HASH_CONCURRENCY;
  void dummyHash(); // ready before the first sign-in of an unknown account needs it
  const now = opts.now ?? Date.now;
  const base = { config, db, key, log, now, tokens: { issuer: '', clientId: config.APP_CLIENT_ID, idTokenTtl: config.ID_TOKEN_TTL_SECONDS, refreshTokenTtl: 30 * 86_400, now } };

  const embedded = await createEmbeddedBroker(base, { recheckMs: opts.membershipRecheckMs });
  // a membership ended on any process closes the user's live connections on every process at once
  // (on the database this process really uses: a test may hand it one while DATABASE_URL names another)
  const membership = await createMembershipBus({ databaseUrl: db.url, log, onEnded: embedded.dropMember });
  // with an external broker, browsers still use this process's /mqtt (our authorisation) and it
  // relays the broker's live topics to them; unless MQTT_WS_URL sends browsers to the broker itself
  const relay = config.MQTT_WS_URL ? undefined : embedded.relay;
  const external = config.MQTT_URL ? await connectExternalBroker(config.MQTT_URL, relay, { signingKey: await loadLiveSigningKey(db), log }) : undefined;
  if (external && relay) embedded.followWith(external);
  const ctx: AppContext = { ...base, publisher: external ?? embedded.publisher, membershipEnded: membership.ended, afterAnswer: new Set() };

  if (config.SEED_DEMO) await seedDemoWorld(ctx);

  const app = createApp(ctx);
  const tls = config.TLS_CERT_FILE && config.TLS_KEY_FILE ? { cert: readFileSync(config.TLS_CERT_FILE), key: readFileSync(config.TLS_KEY_FILE) } : undefined;
  const server = await new Promise<Server>((resolve) => {
    // device uplinks and the plain measurement page take their own listeners (ingest-http.ts,
    // measurements-http.ts); everything else, and anything they do not take or hand back, the app
    const uplinks = uplinkListener(ctx);
    const measurements = measurementsListener(ctx);
    const routed = (listener: RequestListener) => (req: IncomingMessage, res: ServerResponse) => {
      if (!uplinks(req, res) && !measurements(req, res, () => void listener(req, res))) void listener(req, res);
    };
    // with a certificate the one port speaks TLS: HTTP/2 to browsers (a page's many chunk requests
    // share one connection instead of queueing six at a time), HTTP/1.1 to the rest (WebSocket
    // upgrades on /mqtt, devices); HTTP/2's compatibility API gives the listeners the same req and res
    const createServer = (
      tls
        ? (options: ServerOptions, listener: RequestListener) => createSecureServer({ ...options, ...tls, allowHTTP1: true }, routed(listener) as never)
        : (options: ServerOptions, listener: RequestListener) => createHttpServer(options, routed(listener))
    ) as unknown as typeof createHttpServer;
    const s = serve({ fetch: app.fetch, port: config.PORT, hostname: config.HOST, createServer }, () => resolve(s as Server));
  });
  // Keep idle connections longer than a load balancer's idle timeout (60 s on the common ones), so
  // the balancer, not the server, closes them; a client never reuses a socket the server just
  // closed (ECONNRESET). Node's default is 5 s. close() still ends idle connections at once.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  server.on('upgrade', (req, socket, head) => {
    if (new URL(req.url ?? '/', 'http://x').pathname === '/mqtt') embedded.handleUpgrade(req, socket, head);
    else socket.destroy();
  });
  const port = (server.address() as AddressInfo).port;
  const url = `${tls ? 'https' : 'http'}://${config.HOST === '0.0.0.0' ? 'localhost' : config.HOST}:${port}`;
  // the issuer is the identity endpoint as the client reaches it; tokens are checked against it
  ctx.tokens.issuer = `${config.PUBLIC_URL ?? url}/identity/${config.USER_POOL_ID}`;

  const warning = demoExposureWarning(config);
  if (warning) log.warn(warning);
  const vacuum = await autovacuumWarning(db);
  if (vacuum) log.warn(vacuum);

  const background = opts.background === false ? undefined : startBackground(ctx);

  return {
    ctx,
    url,
    port,
    ready: background?.ready ?? Promise.resolve(),
    async stop() {
      await background?.stop();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections?.();
      });
      // no request can begin more of it now
      await Promise.allSettled([...(ctx.afterAnswer ?? [])]);
      await membership.close();
      await embedded.publisher.close();
      await external?.close();
      if (!opts.db) await db.close();
    },
  };
}
