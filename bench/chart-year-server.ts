// Benchmark 6's server process: the product's own server (server/start.ts, as main.ts starts it)
// in a process of its own, as in a deployment, so the browser automation and the benchmark's own
// Node-side client do not share its heap and event loop (in one process Playwright's objects
// doubled what each of the server's full garbage collections had to mark). The floor, the
// endpoint's own queries, runs here: in the server's process, on its database. Requests come
// over IPC as { id, op, ... } and are answered { id, result } or { id, error }.
import { loadConfig } from '../server/config';
import { startServer } from '../server/start';
import { issueTokens } from '../server/identity/tokens';
import { makeSensor } from '../tests/server/fixtures';
import { endpointQueries } from './chart-page';
import { Session } from 'node:inspector/promises';
import { writeFileSync } from 'node:fs';

export type YearServerRequest =
  | { op: 'floor'; sensorId: string; start: number; end: number }
  | { op: 'query'; sql: string; params?: unknown[] }
  | { op: 'token'; email: string }
  | { op: 'makeSensor'; orgId: string; serial: string; name: string }
  /** V8's CPU profile of this process between profileStart and profileStop (written to `file`). */
  | { op: 'profileStart' }
  | { op: 'profileStop'; file: string };

// the benchmark died without stopping us (a signal, a crash): its IPC channel closes, and no server
// is left behind, even one still starting
const running: { server?: Awaited<ReturnType<typeof startServer>> } = {};
const shutDown = () => void (running.server?.stop() ?? Promise.resolve()).then(() => process.exit(0), () => process.exit(1));
process.on('disconnect', shutDown);
process.on('SIGTERM', shutDown);
const server = await startServer(loadConfig(), { background: false });
running.server = server;
if (!process.connected) shutDown();
const db = server.ctx.db;
let inspector: Session | undefined;

async function handle(m: YearServerRequest): Promise<unknown> {
  switch (m.op) {
    case 'floor':
      return endpointQueries(db, m.sensorId, m.start, m.end);
    case 'query':
      return db.query(m.sql, m.params);
    case 'token': {
      const [user] = await db.query<{ id: string; email: string; name: string; email_verified: boolean; is_site_admin: boolean }>('SELECT * FROM users WHERE email = $1', [m.email]);
      return (await issueTokens(db, server.ctx.key, server.ctx.tokens, user)).IdToken;
    }
    case 'makeSensor':
      return makeSensor(db, m.orgId, { serial: m.serial, name: m.name });
    case 'profileStart':
      inspector ??= new Session();
      inspector.connect();
      await inspector.post('Profiler.enable');
      await inspector.post('Profiler.setSamplingInterval', { interval: 100 });
      await inspector.post('Profiler.start');
      return null;
    case 'profileStop': {
      const { profile } = await inspector!.post('Profiler.stop');
      writeFileSync(m.file, JSON.stringify(profile));
      inspector!.disconnect();
      return m.file;
    }
  }
}

process.on('message', (msg) => {
  const { id, ...m } = msg as YearServerRequest & { id: number };
  handle(m as YearServerRequest).then(
    (result) => process.send!({ id, result }),
    (err: Error) => process.send!({ id, error: err.message }),
  );
});
if (process.connected) process.send!({ ready: server.url, kind: db.kind });
