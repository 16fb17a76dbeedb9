import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config';
import { startServer, type RunningServer } from '../../server/start';
import { createDispatcher } from '../../server/delivery/dispatcher';
import { createOfflineScheduler } from '../../server/scheduler/offline';
import { enqueue } from '../../server/delivery/outbox';
import { createTaskTimeoutJob } from '../../server/scheduler/task-timeout';
import { randomUUID } from 'node:crypto';
import { createFleet } from '../../server/simulator/fleet';
import { seedDemoWorld } from '../../server/seed/demo';
import { serviceUrl } from './services';
import { emptyPostgres } from './cluster-helpers';
import { makeOrg, makeSensor } from './fixtures';
import { sleep } from './live-helpers';

const pgUrl = serviceUrl('postgres');

/** Two server processes (separate pools) on one empty PostgreSQL database, background jobs driven by the test. */
async function twoProcesses() {
  const store = await emptyPostgres();
  const config = loadConfig({ DATABASE_URL: store.url, PUBLIC_URL: 'https://tidewatch.example', PORT: '0', HOST: '127.0.0.1', SIMULATOR: 'false', LOG_LEVEL: 'warn' });
  const servers: RunningServer[] = await Promise.all([startServer(config, { background: false }), startServer(config, { background: false })]);
  return {
    servers,
    async close() {
      await Promise.all(servers.map((s) => s.stop()));
      await store.drop();
    },
  };
}

describe.skipIf(!pgUrl)('background jobs in several processes on one PostgreSQL database (issue 17)', () => {
  it('the outbox dispatchers of two processes deliver every row exactly once', { timeout: 60_000 }, async () => {
    const { servers, close } = await twoProcesses();
    try {
      const db = servers[0].ctx.db;
      const ids = new Set<string>();
      for (let i = 0; i < 60; i++) ids.add(await enqueue(db, 'email', `r${i}@test.local`, { subject: `m${i}`, text: 'x' }, Date.now() - 1000));
      const sent: { by: number; to: string }[] = [];
      // a slow sender, so both processes are claiming while the other delivers
      const dispatchers = servers.map((s, by) =>
        createDispatcher(s.ctx, { email: { send: async (to) => (await sleep(5), void sent.push({ by, to })), close: () => {} } }),
      );
      for (let round = 0; round < 10 && sent.length < ids.size; round++) await Promise.all(dispatchers.flatMap((d) => [d.runOnce(), d.runOnce()]));
      expect(sent).toHaveLength(60);
      expect(new Set(sent.map((s) => s.to)).size).toBe(60);
      expect(new Set(sent.map((s) => s.by)).size).toBe(2); // both took part
      const rows = await db.query<{ status: string; attempts: number }>('SELECT status, attempts FROM outbox');
      expect(rows.every((r) => r.status === 'sent' && r.attempts === 1)).toBe(true);
    } finally {
      await close();
    }
  });

  it('the offline checks of two processes open one SENSOR_OFFLINE per overdue sensor', { timeout: 60_000 }, async () => {
    const { servers, close } = await twoProcesses();
    try {
      const db = servers[0].ctx.db;
      const org = await makeOrg(db);
      for (let i = 0; i < 20; i++) {
        const s = await makeSensor(db, org.id);
        await db.query(`UPDATE sensors SET latest_data = '{"lastSeen": 1000}'::jsonb WHERE id = $1`, [s.id]);
      }
      const schedulers = servers.map((s) => createOfflineScheduler(s.ctx));
      const counts = await Promise.all(schedulers.flatMap((s) => [s.runOnce()]));
      expect(counts.reduce((a, b) => a + b, 0)).toBe(20);
      const rows = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM notifications WHERE type = 'SENSOR_OFFLINE'`);
      expect(rows[0].n).toBe(20);
      expect(await Promise.all(schedulers.map((s) => s.runOnce()))).toEqual([0, 0]);
    } finally {
      await close();
    }
  });

  it('the remote-task time-outs of two processes time each dispatched task out once', { timeout: 60_000 }, async () => {
    const { servers, close } = await twoProcesses();
    try {
      const db = servers[0].ctx.db;
      const org = await makeOrg(db);
      for (let i = 0; i < 15; i++) {
        const s = await makeSensor(db, org.id);
        await db.query(`INSERT INTO downlink_tasks (id, sensor_id, type, status, created_at, dispatched_at) VALUES ($1, $2, 'REBOOT', 'Dispatched', 0, 0)`, [randomUUID(), s.id]);
      }
      const jobs = servers.map((s) => createTaskTimeoutJob(s.ctx));
      const counts = await Promise.all(jobs.map((j) => j.runOnce()));
      expect(counts.reduce((a, b) => a + b, 0)).toBe(15);
      const rows = await db.query<{ status: string; n: number }>(`SELECT status, count(*)::int AS n FROM downlink_tasks GROUP BY status`);
      expect(rows).toEqual([{ status: 'Timeout', n: 15 }]);
    } finally {
      await close();
    }
  });

  it('one simulator fleet: a holder that dies without letting go (as kill -9) loses the lease when it expires, and another process takes it', { timeout: 120_000 }, async () => {
    const { servers, close } = await twoProcesses();
    try {
      await seedDemoWorld(servers[0].ctx, { historyDays: 1 });
      const [a, b] = servers.map((s) => createFleet(s.ctx));
      const t = Date.now();
      await a.tick(t);
      expect(a.serials()).toHaveLength(9);
      await b.tick(t + 1);
      expect(b.serials()).toEqual([]);
      // A stops ticking and never releases; its lease (90 s, renewed at each 30 s sync) still holds
      await b.tick(t + 60_000);
      expect(b.serials()).toEqual([]);
      await b.tick(t + 91_000);
      expect(b.serials()).toHaveLength(9);
      // were A to come back, it finds the lease taken and simulates nothing
      await a.tick(t + 92_000);
      expect(a.serials()).toEqual([]);
      await b.release();
    } finally {
      await close();
    }
  });
});
