import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { testDrivers } from './harness';
import { markServiceUsed } from './services';
import { openDb, type Db } from '../../server/db/db';
import { migrate } from '../../server/db/migrate';
import { makeOrg, makeSensor } from './fixtures';

const freePort = () =>
  new Promise<number>((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });

/** Where the child keeps its data: a PGlite directory, or a throw-away PostgreSQL database. */
async function prepareStore(driver: 'pglite' | 'postgres') {
  if (driver === 'pglite') {
    const dir = mkdtempSync(join(tmpdir(), 'live-crash-'));
    return { env: { DATA_DIR: dir }, open: () => openDb({ dataDir: dir }), drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const admin = process.env.TEST_DATABASE_URL!;
  markServiceUsed('postgres');
  const name = `tw_crash_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  const a = new pg.Client({ connectionString: admin });
  await a.connect();
  await a.query(`CREATE DATABASE ${name}`);
  await a.end();
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return {
    env: { DATABASE_URL: url.toString(), DATA_DIR: mkdtempSync(join(tmpdir(), 'live-crash-')) },
    open: () => openDb({ databaseUrl: url.toString() }),
    drop: async () => {
      const b = new pg.Client({ connectionString: admin });
      await b.connect();
      await b.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await b.end();
    },
  };
}

describe.each(testDrivers)('crash safety on %s (DESIGN.md: an uplink is acknowledged only after commit)', (driver) => {
  it('keeps every acknowledged uplink when the server is killed with SIGKILL during a burst', { timeout: 120_000 }, async () => {
    const store = await prepareStore(driver);
    // a sensor with a known device key, written before the server starts
    let db: Db = await store.open();
    await migrate(db);
    const org = await makeOrg(db);
    // several sensors and many concurrent senders, so the server writes them in shared batches
    const sensors = [await makeSensor(db, org.id), await makeSensor(db, org.id), await makeSensor(db, org.id), await makeSensor(db, org.id)];
    await db.close();

    const port = await freePort();
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      cwd: process.cwd(),
      env: { ...process.env, ...store.env, PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: `http://127.0.0.1:${port}`, SEED_DEMO: 'false', SIMULATOR: 'false', LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const exited = new Promise((r) => child.once('exit', r));
    const base = `http://127.0.0.1:${port}`;
    for (let i = 0; ; i++) {
      const ok = await fetch(`${base}/api/health`).then((r) => r.ok, () => false);
      if (ok) break;
      if (i > 600 || child.exitCode !== null) throw new Error(`server did not start: ${stderr}`);
      await new Promise((r) => setTimeout(r, 100));
    }

    const acked: { id: string; time: number }[] = [];
    const t0 = Date.UTC(2026, 5, 1);
    let seq = 0;
    let killed = false;
    const sender = async (n: number) => {
      const sensor = sensors[n % sensors.length];
      while (!killed) {
        const time = t0 + seq++ * 1000;
        try {
          const res = await fetch(`${base}/ingest/uplink`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-device-key': sensor.deviceKey },
            body: JSON.stringify({ serial: sensor.serial, measurements: [{ time, rawDistance: 1000 + (seq % 500) }], battery: 80 }),
          });
          if (res.status === 200) acked.push({ id: sensor.id, time });
          else await res.body?.cancel();
        } catch {
          return; // the server is gone
        }
      }
    };
    const senders = Array.from({ length: 32 }, (_, n) => sender(n));
    // kill once a good number of uplinks were acknowledged, mid-burst
    while (acked.length < 150) await new Promise((r) => setTimeout(r, 5));
    child.kill('SIGKILL');
    killed = true;
    await exited;
    await Promise.all(senders);
    expect(acked.length).toBeGreaterThanOrEqual(150);

    db = await store.open();
    try {
      const rows = await db.query<{ sensor_id: string; time: number }>('SELECT sensor_id, time FROM measurements');
      const stored = new Set(rows.map((r) => `${r.sensor_id}/${r.time}`));
      const missing = acked.filter((a) => !stored.has(`${a.id}/${a.time}`));
      expect(missing).toEqual([]);
      // and the latest data moved with them (same transaction)
      for (const s of sensors) {
        const mine = acked.filter((a) => a.id === s.id).map((a) => a.time);
        const latest = (await db.query<{ latest_data: { lastMeasurement?: { time: number } } }>('SELECT latest_data FROM sensors WHERE id = $1', [s.id]))[0].latest_data;
        if (mine.length) expect(latest.lastMeasurement!.time).toBeGreaterThanOrEqual(Math.max(...mine));
      }
    } finally {
      await db.close();
      await store.drop();
    }
  });
});
