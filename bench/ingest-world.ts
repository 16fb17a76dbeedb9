// Set-up for the ingest benchmark: a database with one organisation and many sensors, the server
// as a child process, and CPU accounting per party from /proc (Linux).
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openDb } from '../server/db/db';
import { migrate } from '../server/db/migrate';
import { partitionPass } from '../server/db/measurement-partitions';
import { hashDeviceKey } from '../server/ingest/uplink';
import { issueTokens } from '../server/identity/tokens';
import { loadSigningKey } from '../server/identity/keys';
import { serverNodeArgs } from './bench-kit';
import { scratchPostgres, type ScratchDatabase } from '../tests/server/scratch-postgres';

export const PUBLIC_URL = 'http://bench.local';
/** The server's connections carry this name, so its own PostgreSQL backends can be told apart. */
export const APP_NAME = 'tidewatch-bench-server';

export const freePort = () =>
  new Promise<number>((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });

/** CPU seconds (user + system) used so far by each process, from /proc/<pid>/stat. */
export function cpuOf(pids: number[]): Map<number, number> {
  const out = new Map<number, number>();
  for (const pid of pids) {
    try {
      const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      out.set(pid, (Number(f[11]) + Number(f[12])) / 100);
    } catch {
      /* gone */
    }
  }
  return out;
}
/** The pids of the processes with this command name (the machine's broker, say). */
export function pidsNamed(comm: string): number[] {
  return readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .filter((d) => {
      try {
        return readFileSync(`/proc/${d}/comm`, 'utf8').trim() === comm;
      } catch {
        return false;
      }
    })
    .map(Number);
}
export const sumCpu = (m: Map<number, number>) => [...m.values()].reduce((a, b) => a + b, 0);

/** CPU seconds the whole machine has been busy (all cores), from /proc/stat. */
export function machineBusy(): number {
  const [, ...f] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).map(Number);
  return (f[0] + f[1] + f[2] + f[5] + f[6] + f[7]) / 100; // user nice system irq softirq steal
}

export interface World {
  driver: 'postgres' | 'pglite';
  env: Record<string, string>;
  token: string;
  orgId: string;
  sensors: { id: string; serial: string; key: string }[];
  /** PostgreSQL: a connection to the bench database (for downlink tasks and checks). */
  pg?: pg.Client;
  /** Opens the database once the server has stopped (PGlite's directory is the server's while it runs). */
  open(): ReturnType<typeof openDb>;
  drop(): Promise<void>;
}

/** A database with one organisation, one member and `count` sensors with alarms, before the server starts. */
export async function prepareWorld(driver: 'postgres' | 'pglite', count: number, adminUrl?: string): Promise<World> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-ingest-'));
  let env: Record<string, string> = { DATA_DIR: dir };
  let scratch: ScratchDatabase | undefined;
  let url: URL | undefined;
  if (driver === 'postgres') {
    scratch = await scratchPostgres(adminUrl!, 'tw_bench');
    url = new URL(scratch.url);
    const serverUrl = new URL(url);
    serverUrl.searchParams.set('application_name', APP_NAME);
    // BENCH_INGEST_TRACE: the server's backends time their WAL writes and fsyncs (pg_stat_wal);
    // BENCH_INGEST_PG_OPTIONS: more settings for them (say auto_explain's, to log the plans they run)
    const options = [process.env.BENCH_INGEST_TRACE ? '-c track_wal_io_timing=on' : '', process.env.BENCH_INGEST_PG_OPTIONS ?? ''].filter(Boolean).join(' ');
    if (options) serverUrl.searchParams.set('options', options);
    env = { ...env, DATABASE_URL: serverUrl.toString() };
  }
  const open = () => openDb({ databaseUrl: url?.toString(), dataDir: dir });
  const db = await open();
  await migrate(db);
  // the partition job's pass, as a running deployment has had it: this month and the next ones exist.
  // Without it the server's first pass (5 s after its start, inside the first run) created them,
  // then moved every row written so far out of the default partition and CLUSTERed that month,
  // under locks every ingest batch waits for: a stall of the benchmark's making in each first run
  await partitionPass(db, Date.now());
  const key = await loadSigningKey(db);
  const orgId = randomUUID();
  const userId = randomUUID();
  const now = Date.now();
  await db.query(`INSERT INTO organisations (id, slug, name, created_at) VALUES ($1, $2, 'Bench Water', $3)`, [orgId, `bench-${orgId.slice(0, 6)}`, now]);
  await db.query(`INSERT INTO users (id, email, name, password_hash, email_verified, profile_created, created_at) VALUES ($1, 'bench@bench.test', 'Bench', 'x', true, true, $2)`, [userId, now]);
  await db.query('INSERT INTO memberships (org_id, user_id, role, created_at) VALUES ($1, $2, 1, $3)', [orgId, userId, now]);
  const sensors = Array.from({ length: count }, (_, i) => ({ id: randomUUID(), serial: (0x10000000 + i).toString(16).toUpperCase(), key: randomUUID() }));
  // level = 3000 - rawDistance (mm): threshold alarm at 2800 mm, rapid rise of 500 mm within the hour
  await db.query(
    `INSERT INTO sensors (id, serial, claim_code, device_key_hash, org_id, name, sensor_type, display_info, alarms, created_at)
     SELECT id, serial, gen_random_uuid()::text, hash, $4, 'Bench ' || serial, 'LS1', '{"offsetMeasurement":3000,"minLevel":100,"maxLevel":2900,"referenceLines":[]}',
            '{"0":{"type":"THRESHOLD_INCREASING","threshold":2800,"enabled":true},"1":{"type":"DELTA_INCREASING","threshold":500,"enabled":true}}', $5
     FROM unnest($1::uuid[], $2::text[], $3::text[]) AS u(id, serial, hash)`,
    [sensors.map((s) => s.id), sensors.map((s) => s.serial), sensors.map((s) => hashDeviceKey(s.key)), orgId, now],
  );
  if (driver === 'pglite') {
    // the bench cannot reach PGlite while the server holds it: queue downlinks for every tenth sensor now
    await db.query(
      `INSERT INTO downlink_tasks (id, sensor_id, type, params, created_at) SELECT gen_random_uuid(), id, 'SensorConfig', '{"measurementInterval":5}', $2 FROM unnest($1::uuid[]) id`,
      [sensors.filter((_, i) => i % 10 === 0).map((s) => s.id), now],
    );
  }
  const tokens = { issuer: `${PUBLIC_URL}/identity/local_demo`, clientId: 'tidewatch-web', idTokenTtl: 3600, refreshTokenTtl: 86_400 };
  const { IdToken } = await issueTokens(db, key, tokens, { id: userId, email: 'bench@bench.test', name: 'Bench', email_verified: true, is_site_admin: false });
  await db.close();
  let client: pg.Client | undefined;
  if (url) {
    client = new pg.Client({ connectionString: url.toString() });
    await client.connect();
  }
  return {
    driver,
    env: { ...env, PUBLIC_URL },
    token: IdToken,
    orgId,
    sensors,
    pg: client,
    open,
    async drop() {
      await client?.end();
      await scratch?.drop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The real server (`server/main.ts`) in a child process on a free port. */
/** What the server's group-commit batcher has written so far. */
export interface BatchStats {
  batches: number;
  uplinks: number;
  largest: number;
}

export async function startServer(env: Record<string, string>): Promise<{ child: ChildProcess; base: string; port: number; stop(): Promise<void>; stats(): Promise<BatchStats> }> {
  const port = await freePort();
  const prof = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  // bench/ingest-server.ts starts the product's server as server/main.ts does, and reports batch stats over IPC
  const child = spawn(process.execPath, [...prof, ...serverNodeArgs(), '--import', 'tsx', 'bench/ingest-server.ts'], {
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', SEED_DEMO: 'false', SIMULATOR: 'false', LOG_LEVEL: 'error' },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const ready = new Promise<void>((r) => child.once('message', () => r()));
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (await fetch(`${base}/api/health`).then((r) => r.ok, () => false)) break;
    if (i > 900 || child.exitCode !== null) throw new Error('bench server did not start');
    await new Promise((r) => setTimeout(r, 100));
  }
  await ready;
  const stop = async () => {
    if (child.exitCode !== null) return;
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  };
  const stats = () =>
    new Promise<BatchStats>((resolve) => {
      child.once('message', (m) => resolve(m as BatchStats));
      child.send('stats');
    });
  return { child, base, port, stop, stats };
}
