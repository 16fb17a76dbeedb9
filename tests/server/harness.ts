import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { inject } from 'vitest';
import { loadConfig, type Config } from '../../server/config';
import { openDb, type Db } from '../../server/db/db';
import { startServer, type RunningServer } from '../../server/start';
import { issueTokens } from '../../server/identity/tokens';
import { serviceUrl } from './services';
import { emptyPostgres } from './cluster-helpers';

/** Drivers every server test runs on: PGlite always, PostgreSQL when TEST_DATABASE_URL is set (loudly skipped otherwise). */
export const testDrivers: ('pglite' | 'postgres')[] = serviceUrl('postgres') ? ['pglite', 'postgres'] : ['pglite'];

let emptyCluster: Blob | undefined;
/** The dump of a new PGlite cluster the project's global setup made (pglite-cluster.ts), if it made one. */
function pgliteEmptyCluster(): Blob | undefined {
  const file = inject('pgliteEmptyCluster');
  if (file && !emptyCluster) emptyCluster = new Blob([readFileSync(file)]);
  return emptyCluster;
}

/** A fresh, empty database of the given driver; PostgreSQL gets a throw-away database of its own. */
export async function freshDb(driver: 'pglite' | 'postgres'): Promise<{ db: Db; drop(): Promise<void> }> {
  if (driver === 'pglite') {
    const db = await openDb({ dataDir: 'memory://', loadDataDir: pgliteEmptyCluster() });
    return { db, drop: () => db.close() };
  }
  const pgdb = await emptyPostgres();
  const db = await openDb({ databaseUrl: pgdb.url });
  return {
    db,
    async drop() {
      await db.close();
      await pgdb.drop();
    },
  };
}

export interface TestServer extends RunningServer {
  /** Calls the gateway as the given user (or unsigned with token null). */
  api(path: string, init?: RequestInit & { token?: string | null; json?: unknown }): Promise<Response>;
  /** Mints an ID token for a user id, as sign-in would. */
  tokenFor(userId: string): Promise<string>;
  close(): Promise<void>;
}

/** Starts the real server on a free port over a fresh database of the driver. */
export async function startTestServer(
  driver: 'pglite' | 'postgres',
  env: Record<string, string> = {},
  opts: { now?: () => number; background?: boolean } = {},
): Promise<TestServer> {
  const { db, drop } = await freshDb(driver);
  // a shared uplink group of its own: a test server with background jobs and MQTT_URL never takes another's uplinks
  // the memory ceiling is the process's: server test files share a worker process (isolate: false),
  // whose resident memory is theirs together, so a test server refuses heavy work for memory only
  // when its test asks for a ceiling (fair-share.test.ts)
  const config: Config = loadConfig({ PORT: '0', HOST: '127.0.0.1', SEED_DEMO: 'false', SIMULATOR: 'false', LOG_LEVEL: 'warn', MQTT_INGEST_GROUP: `test-${randomUUID()}`, MEMORY_CEILING_MB: '1048576', ...env });
  const server = await startServer(config, { db, background: opts.background ?? false, now: opts.now });
  const tokenFor = async (userId: string) => {
    const u = (await db.query<{ id: string; email: string; name: string; email_verified: boolean; is_site_admin: boolean }>('SELECT * FROM users WHERE id = $1', [userId]))[0];
    if (!u) throw new Error(`no user ${userId}`);
    return (await issueTokens(db, server.ctx.key, server.ctx.tokens, u)).IdToken;
  };
  return {
    ...server,
    tokenFor,
    api(path, init = {}) {
      const headers = new Headers(init.headers);
      if (init.token) headers.set('Authorization', init.token);
      let body = init.body;
      if (init.json !== undefined) {
        headers.set('Content-Type', 'application/json');
        body = JSON.stringify(init.json);
      }
      return fetch(`${server.url}/api${path}`, { ...init, headers, body });
    },
    async close() {
      await server.stop();
      await drop();
    },
  };
}
