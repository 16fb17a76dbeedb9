// Benchmark (issue 6): the live data path of a real server process. Sustained ingest rate with
// acknowledgement latency (HTTP POST /ingest/uplink, many sensors, many connections), and
// uplink-to-subscriber latency (an mqtt.js client over WebSocket at /mqtt), on PostgreSQL (when
// BENCH_DATABASE_URL or TEST_DATABASE_URL names a server to create a database on) and on PGlite.
// Target: at least 2,000 uplinks per second on PostgreSQL with p99 acknowledgement under 100 ms.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mqtt from 'mqtt';
import pg from 'pg';
import { openDb } from '../server/db/db';
import { migrate } from '../server/db/migrate';
import { hashDeviceKey } from '../server/ingest/uplink';
import { issueTokens } from '../server/identity/tokens';
import { loadSigningKey } from '../server/identity/keys';
import type { BenchRow } from './bench-kit';

const SENSORS = 400;
const CONCURRENCY = Number(process.env.BENCH_INGEST_CONCURRENCY ?? 64);
const SECONDS = Number(process.env.BENCH_INGEST_SECONDS ?? 8);
const LATENCY_SAMPLES = 300;
const TARGET_RATE = 2000;
const TARGET_P99_MS = 100;

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

const freePort = () =>
  new Promise<number>((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });

const PUBLIC_URL = 'http://bench.local';

/** CPU seconds (user + system) used so far by the given processes, from /proc (Linux). */
function cpuSeconds(pids: number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    try {
      const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      ticks += Number(f[11]) + Number(f[12]);
    } catch {
      /* gone */
    }
  }
  return ticks / 100;
}

const postgresPids = () => {
  try {
    return readdirSync('/proc')
      .filter((d) => /^\d+$/.test(d))
      .filter((d) => {
        try {
          return readFileSync(`/proc/${d}/comm`, 'utf8').trim() === 'postgres';
        } catch {
          return false;
        }
      })
      .map(Number);
  } catch {
    return [];
  }
};

interface World {
  env: Record<string, string>;
  token: string;
  sensors: { serial: string; key: string }[];
  orgId: string;
  userId: string;
  drop(): Promise<void>;
}

/** A database with one organisation, one member and SENSORS sensors, before the server starts. */
async function prepare(driver: 'postgres' | 'pglite', adminUrl?: string): Promise<World> {
  let env: Record<string, string>;
  let drop: () => Promise<void>;
  const dir = mkdtempSync(join(tmpdir(), 'bench-ingest-'));
  if (driver === 'postgres') {
    const name = `tw_bench_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
    const a = new pg.Client({ connectionString: adminUrl });
    await a.connect();
    await a.query(`CREATE DATABASE ${name}`);
    await a.end();
    const url = new URL(adminUrl!);
    url.pathname = `/${name}`;
    env = { DATABASE_URL: url.toString(), DATA_DIR: dir };
    drop = async () => {
      const b = new pg.Client({ connectionString: adminUrl });
      await b.connect();
      await b.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await b.end();
      rmSync(dir, { recursive: true, force: true });
    };
  } else {
    env = { DATA_DIR: dir };
    drop = async () => rmSync(dir, { recursive: true, force: true });
  }
  const db = await openDb({ databaseUrl: env.DATABASE_URL, dataDir: dir });
  await migrate(db);
  // the server verifies with the stored key and PUBLIC_URL's issuer: mint the subscriber's token now,
  // since a PGlite directory cannot be opened while the server holds it
  const key = await loadSigningKey(db);
  const orgId = randomUUID();
  const userId = randomUUID();
  const now = Date.now();
  await db.query(`INSERT INTO organisations (id, slug, name, created_at) VALUES ($1, $2, 'Bench Water', $3)`, [orgId, `bench-${orgId.slice(0, 6)}`, now]);
  await db.query(`INSERT INTO users (id, email, name, password_hash, email_verified, profile_created, created_at) VALUES ($1, 'bench@bench.test', 'Bench', 'x', true, true, $2)`, [userId, now]);
  await db.query('INSERT INTO memberships (org_id, user_id, role, created_at) VALUES ($1, $2, 1, $3)', [orgId, userId, now]);
  const sensors = Array.from({ length: SENSORS }, (_, i) => ({ id: randomUUID(), serial: (0x10000000 + i).toString(16).toUpperCase(), key: randomUUID() }));
  for (const s of sensors) {
    await db.query(
      `INSERT INTO sensors (id, serial, claim_code, device_key_hash, org_id, name, sensor_type, display_info, alarms, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, 'LS1', '{"offsetMeasurement":3000,"minLevel":100,"maxLevel":2900,"referenceLines":[]}',
               '{"0":{"type":"THRESHOLD_INCREASING","threshold":2800,"enabled":true},"1":{"type":"DELTA_INCREASING","threshold":500,"enabled":true}}', $7)`,
      [s.id, s.serial, randomUUID(), hashDeviceKey(s.key), orgId, `Bench ${s.serial}`, now],
    );
  }
  const tokens = { issuer: `${PUBLIC_URL}/identity/local_demo`, clientId: 'tidewatch-web', idTokenTtl: 3600, refreshTokenTtl: 86_400 };
  const { IdToken } = await issueTokens(db, key, tokens, { id: userId, email: 'bench@bench.test', name: 'Bench', email_verified: true, is_site_admin: false });
  await db.close();
  return { env: { ...env, PUBLIC_URL }, token: IdToken, sensors, orgId, userId, drop };
}

async function startChild(env: Record<string, string>): Promise<{ child: ChildProcess; base: string; port: number }> {
  const port = await freePort();
  const prof = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  const child = spawn(process.execPath, [...prof, '--import', 'tsx', 'server/main.ts'], {
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', SEED_DEMO: 'false', SIMULATOR: 'false', LOG_LEVEL: 'error', DB_POOL_SIZE: '24' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (await fetch(`${base}/api/health`).then((r) => r.ok, () => false)) break;
    if (i > 900 || child.exitCode !== null) throw new Error('bench server did not start');
    await new Promise((r) => setTimeout(r, 100));
  }
  return { child, base, port };
}

/** One uplink over a keep-alive connection; resolves with the acknowledgement latency in ms. */
function post(agent: Agent, port: number, key: string, body: string): Promise<number> {
  const t = performance.now();
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/ingest/uplink', method: 'POST', agent, headers: { 'content-type': 'application/json', 'x-device-key': key, 'content-length': Buffer.byteLength(body) } }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 200 ? resolve(performance.now() - t) : reject(new Error(`HTTP ${res.statusCode}`))));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const uplinkBody = (serial: string, time: number, i: number) =>
  JSON.stringify({ serial, measurements: [{ time, rawDistance: 1000 + ((i * 37) % 400) }], battery: 80, signalLevel: 18, linkQuality: 'GOOD' });

async function sustained(world: World, port: number, serverPid: number) {
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const start = Date.UTC(2026, 0, 1);
  const seq = new Array(world.sensors.length).fill(0);
  const lat: number[] = [];
  let errors = 0;
  let n = 0;
  const until = performance.now() + SECONDS * 1000;
  const warmUntil = performance.now() + 1000; // the first second warms the pool and JIT, not counted
  let counted = 0;
  let countStart = 0;
  let cpu0 = { server: 0, pg: 0, bench: 0 };
  const cpuNow = () => ({ server: cpuSeconds([serverPid]), pg: cpuSeconds(postgresPids()), bench: cpuSeconds([process.pid]) });
  const worker = async () => {
    while (performance.now() < until) {
      const i = n++ % world.sensors.length;
      const s = world.sensors[i];
      try {
        const ms = await post(agent, port, s.key, uplinkBody(s.serial, start + seq[i]++ * 60_000, n));
        if (performance.now() >= warmUntil) {
          if (!countStart) {
            countStart = performance.now();
            cpu0 = cpuNow();
          }
          lat.push(ms);
          counted++;
        }
      } catch {
        errors++;
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const seconds = (performance.now() - countStart) / 1000;
  const cpu1 = cpuNow();
  agent.destroy();
  // CPU ms per uplink of each party: what the rate would be on an otherwise idle machine
  const per = (k: keyof typeof cpu0) => ((cpu1[k] - cpu0[k]) * 1000) / counted;
  return { rate: counted / seconds, p50: pct(lat, 50), p99: pct(lat, 99), errors, count: counted, cpu: { server: per('server'), pg: per('pg'), bench: per('bench') } };
}

async function toSubscriber(world: World, base: string, port: number, token: string) {
  const client = await mqtt.connectAsync(`${base.replace('http', 'ws')}/mqtt`, { username: 'bench', password: token, reconnectPeriod: 0, protocolVersion: 4 });
  await client.subscribeAsync(`orgs/${world.orgId}/#`);
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const waiting = new Map<string, (t: number) => void>();
  client.on('message', (_topic, payload) => {
    const m = JSON.parse(payload.toString()) as { serial?: string; measurements?: { time: number }[] };
    const key = `${m.serial}/${m.measurements?.[0]?.time}`;
    waiting.get(key)?.(performance.now());
  });
  const lat: number[] = [];
  const start = Date.UTC(2027, 0, 1);
  for (let i = 0; i < LATENCY_SAMPLES; i++) {
    const s = world.sensors[i % world.sensors.length];
    const time = start + i * 60_000;
    const got = new Promise<number>((r) => waiting.set(`${s.serial}/${time}`, r));
    const t = performance.now();
    await post(agent, port, s.key, uplinkBody(s.serial, time, i));
    lat.push((await got) - t);
  }
  agent.destroy();
  await client.endAsync();
  return { p50: pct(lat, 50), p95: pct(lat, 95) };
}

async function measure(driver: 'postgres' | 'pglite', adminUrl?: string): Promise<BenchRow[]> {
  const world = await prepare(driver, adminUrl);
  const { child, base, port } = await startChild(world.env);
  try {
    const latency = await toSubscriber(world, base, port, world.token);
    const rate = await sustained(world, port, child.pid!);
    const label = driver === 'postgres' ? 'PostgreSQL' : 'PGlite';
    const rows: BenchRow[] = [
      {
        bench: `ingest ${label}`,
        what: `sustained uplinks/s over ${SECONDS - 1} s, ${CONCURRENCY} connections, ${SENSORS} sensors (ms per uplink vs the ${TARGET_RATE}/s budget)`,
        ours: 1000 / rate.rate,
        baseline: 1000 / TARGET_RATE,
        target: driver === 'postgres' ? { kind: 'cost', value: 1 } : null,
        note: `${rate.rate.toFixed(0)} uplinks/s, ${rate.count} acked, ${rate.errors} errors; CPU ms per uplink: server ${rate.cpu.server.toFixed(3)}, postgres ${driver === 'postgres' ? rate.cpu.pg.toFixed(3) : '-'}, load generator ${rate.cpu.bench.toFixed(3)}`,
      },
      {
        bench: `ingest ${label}`,
        what: `acknowledgement latency p99 under that load (vs ${TARGET_P99_MS} ms)`,
        ours: rate.p99,
        baseline: TARGET_P99_MS,
        target: driver === 'postgres' ? { kind: 'cost', value: 1 } : null,
        note: `p50 ${rate.p50.toFixed(1)} ms`,
      },
    ];
    {
      rows.push({ bench: `live ${label}`, what: `uplink to MQTT subscriber p50 / p95 over ${LATENCY_SAMPLES} uplinks`, ours: latency.p50, baseline: latency.p95, target: null, note: `p50 ${latency.p50.toFixed(1)} ms, p95 ${latency.p95.toFixed(1)} ms` });
    }
    return rows;
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    await world.drop();
  }
}

export async function run(): Promise<BenchRow[]> {
  const adminUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  const rows: BenchRow[] = [];
  if (adminUrl) rows.push(...(await measure('postgres', adminUrl)));
  else console.error('ingest.bench: set BENCH_DATABASE_URL (or TEST_DATABASE_URL) to measure PostgreSQL');
  rows.push(...(await measure('pglite')));
  return rows;
}

if (process.argv[1]?.endsWith('ingest.bench.ts')) console.table(await run());
