import { afterAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hostname } from 'node:os';
import mqtt from 'mqtt';
import { testDrivers } from './harness';
import { markServiceUsed, serviceUrl } from './services';
import { emptyPostgres } from './cluster-helpers';
import { INGEST_CONNECTIONS } from '../../server/broker/external-ingest';
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
  const pgdb = await emptyPostgres();
  return {
    env: { DATABASE_URL: pgdb.url, DATA_DIR: mkdtempSync(join(tmpdir(), 'live-crash-')) },
    open: () => openDb({ databaseUrl: pgdb.url }),
    drop: pgdb.drop,
  };
}

/** Every server this file starts, killed when the file ends even if a test timed out mid-way (no orphan stays on the broker). */
const children = new Set<ChildProcess>();
afterAll(() => {
  for (const c of children) if (c.exitCode === null && !c.signalCode) c.kill('SIGKILL');
});

/** The real server in a child process (server/main.ts), up and answering /api/health. */
async function startChild(env: Record<string, string | undefined>, port: number) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: process.cwd(),
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: `http://127.0.0.1:${port}`, SEED_DEMO: 'false', SIMULATOR: 'false', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  children.add(child);
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise((r) => child.once('exit', r));
  for (let i = 0; ; i++) {
    const ok = await fetch(`http://127.0.0.1:${port}/api/health`).then((r) => r.ok, () => false);
    if (ok) break;
    if (i > 600 || child.exitCode !== null) throw new Error(`server did not start: ${stderr}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return { child, exited };
}

const mqttUrl = serviceUrl('mqtt');

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
    const { child, exited } = await startChild(store.env, port);
    const base = `http://127.0.0.1:${port}`;

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

  it.skipIf(!mqttUrl)(
    'over an external broker, keeps every acknowledged uplink through SIGKILL, and stores every uplink the broker took once the server is back',
    { timeout: 180_000 },
    async () => {
      markServiceUsed('mqtt');
      const store = await prepareStore(driver);
      let db: Db = await store.open();
      await migrate(db);
      const org = await makeOrg(db);
      // one device per sensor with one uplink in flight, so a sensor's ack is its last uplink's
      const sensors: Awaited<ReturnType<typeof makeSensor>>[] = [];
      for (let i = 0; i < 24; i++) sensors.push(await makeSensor(db, org.id));
      await db.close();
      const port = await freePort();
      // a shared group of its own, so no other server on the broker (another suite, a stale session) takes its uplinks
      const group = `crash-${driver}-${port}`;
      const env = { ...store.env, MQTT_URL: mqttUrl!, MQTT_INGEST_GROUP: group };
      const ingestIds = Array.from({ length: INGEST_CONNECTIONS }, (_, i) => `${group}-${hostname()}-${port}-${i}`);
      const devices = await Promise.all(sensors.map((s) => mqtt.connectAsync(mqttUrl!, { clientId: `crash-dev-${s.serial}`, reconnectPeriod: 0, clean: true })));
      let server = await startChild(env, port);
      try {
        const acks = new Map<string, () => void>();
        for (const d of devices) {
          d.on('message', (topic) => acks.get(topic.split('/')[1])?.());
          await d.subscribeAsync(`devices/${d.options.clientId!.slice('crash-dev-'.length)}/ack`, { qos: 0 });
        }
        const ackOf = (serial: string) => new Promise<void>((r) => acks.set(serial, r));
        const t0 = Date.UTC(2026, 6, 1);
        /** Uplinks the broker took from the devices (PUBACK), and those the server acknowledged after commit. */
        const taken: { id: string; time: number }[] = [];
        const acked: { id: string; time: number }[] = [];
        const inFlight = new Map<string, { id: string; time: number }>();
        let killed = false;
        let crashed!: () => void;
        const crash = new Promise<void>((r) => (crashed = r));
        const device = async (n: number) => {
          const s = sensors[n];
          for (let k = 0; !killed; k++) {
            const up = { id: s.id, time: t0 + k * 60_000 };
            const acked1 = ackOf(s.serial);
            await devices[n].publishAsync(`devices/${s.serial}/uplink`, JSON.stringify({ deviceKey: s.deviceKey, measurements: [{ time: up.time, rawDistance: 1000 + k }] }), { qos: 1 });
            taken.push(up);
            inFlight.set(s.serial, up);
            if ((await Promise.race([acked1.then(() => 'ack'), crash.then(() => 'crash')])) === 'crash') return;
            inFlight.delete(s.serial);
            acked.push(up);
          }
        };
        // the server's shared subscription is in place once a probe uplink is acknowledged
        // (until then the broker has no one to give an uplink to, and drops it)
        for (let j = 1; ; j++) {
          const probe = ackOf(sensors[0].serial);
          await devices[0].publishAsync(`devices/${sensors[0].serial}/uplink`, JSON.stringify({ deviceKey: sensors[0].deviceKey, measurements: [{ time: t0 - j * 60_000, rawDistance: 999 }] }), { qos: 1 });
          if (await Promise.race([probe.then(() => true), new Promise((r) => setTimeout(() => r(false), 500))])) break;
        }
        const running = sensors.map((_, n) => device(n));
        while (acked.length < 150) await new Promise((r) => setTimeout(r, 5));
        server.child.kill('SIGKILL');
        killed = true;
        await server.exited;
        crashed();
        await Promise.all(running);
        expect(acked.length).toBeGreaterThanOrEqual(150);

        const storedNow = async () => {
          const rows = await db.query<{ sensor_id: string; time: number }>('SELECT sensor_id, time FROM measurements');
          return new Set(rows.map((r) => `${r.sensor_id}/${r.time}`));
        };
        db = await store.open();
        const atCrash = await storedNow();
        expect(acked.filter((a) => !atCrash.has(`${a.id}/${a.time}`))).toEqual([]);
        await db.close();

        // the same server comes back (same client ids: its persistent sessions); the broker delivers
        // again what was never acknowledged to it, so each uplink it took is acked and stored
        // (in flight and not committed at the crash: never acknowledged to the broker, so it must come again)
        const again = [...inFlight.entries()].filter(([, up]) => !atCrash.has(`${up.id}/${up.time}`)).map(([serial]) => ackOf(serial));
        server = await startChild(env, port);
        // a redelivery that never comes shows up below as a missing uplink, not as a test timeout
        await Promise.race([Promise.all(again), new Promise((r) => setTimeout(r, 60_000))]);
        console.info(`crash over the broker: ${acked.length} acked, ${taken.length} taken by the broker, ${again.length} in flight and uncommitted at the kill`);
        server.child.kill('SIGTERM');
        await server.exited;
        db = await store.open();
        const stored = await storedNow();
        expect(taken.filter((a) => !stored.has(`${a.id}/${a.time}`))).toEqual([]);
        await db.close();
      } finally {
        if (server.child.exitCode === null) {
          server.child.kill('SIGKILL');
          await server.exited;
        }
        await Promise.all(devices.map((d) => d.endAsync()));
        // drop the server's persistent sessions, so no later uplink is queued for them
        for (const clientId of ingestIds) await (await mqtt.connectAsync(mqttUrl!, { clientId, clean: true, reconnectPeriod: 0 })).endAsync();
        await store.drop();
      }
    },
  );
});
