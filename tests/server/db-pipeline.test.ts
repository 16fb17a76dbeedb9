import { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { freshDb, testDrivers } from './harness';
import { serviceUrl } from './services';
import type { Db } from '../../server/db/db';
import { together } from '../../server/db/together';

// On PostgreSQL the pool runs node-postgres in pipeline mode: a transaction's BEGIN goes out with
// its first statements, statements issued together go out at once, and the last one goes with
// the COMMIT (server/db/postgres.ts). The ingest batch relies on all of it; so must everything
// else that runs in a transaction. Same rules on PGlite, which runs them one at a time.
describe.each(testDrivers)('transactions with statements sent together on %s', (driver) => {
  let db: Db;
  let drop: () => Promise<void>;
  const rows = async () => (await db.query<{ n: number }>('SELECT n FROM pipeline_probe ORDER BY at')).map((r) => r.n);
  beforeAll(async () => {
    ({ db, drop } = await freshDb(driver));
    await db.exec('CREATE TABLE pipeline_probe (at serial PRIMARY KEY, n int NOT NULL CHECK (n >= 0))');
  });
  afterAll(() => drop?.());

  it('runs statements issued together in the order issued, inside the transaction', async () => {
    const seen = await db.tx(async (q) => {
      const [, , inside] = await together(
        q.query('INSERT INTO pipeline_probe (n) VALUES (1)'),
        q.query('INSERT INTO pipeline_probe (n) VALUES (2)'),
        q.query<{ n: number }>('SELECT n FROM pipeline_probe ORDER BY at'),
      );
      q.last('INSERT INTO pipeline_probe (n) VALUES (3)');
      return inside.map((r) => r.n);
    });
    expect(seen).toEqual([1, 2]);
    expect(await rows()).toEqual([1, 2, 3]);
  });

  it.runIf(driver === 'postgres')('sends the statements issued in one turn in one write: the BEGIN with the first ones, the last with the COMMIT', async () => {
    // writes to PostgreSQL's port from here on (the pool's connections; nothing else in this test writes there)
    const port = Number(new URL(serviceUrl('postgres')!).port || 5432);
    await db.query('SELECT 1'); // a pooled connection is open and idle: the transaction opens none
    const sockets = Socket.prototype as unknown as Record<'_write' | '_writev', () => void>;
    const writes = [vi.spyOn(sockets, '_write'), vi.spyOn(sockets, '_writev')];
    const sent = () => writes.flatMap((w) => w.mock.contexts as unknown as Socket[]).filter((socket) => socket.remotePort === port).length;
    let afterFirst = 0;
    let all = 0;
    try {
      await db.tx(async (q) => {
        await together(q.query('INSERT INTO pipeline_probe (n) VALUES (8)'), q.query('SELECT n FROM pipeline_probe'));
        afterFirst = sent();
        await q.query('SELECT count(*) FROM pipeline_probe');
        q.last('DELETE FROM pipeline_probe WHERE n = 8');
      });
      all = sent();
    } finally {
      for (const w of writes) w.mockRestore();
    }
    expect(afterFirst).toBe(1); // BEGIN and the two statements
    expect(all).toBe(3); // then the one alone, then the last with the COMMIT
  });

  it('a failing last statement rolls the whole transaction back and rejects with its error', async () => {
    const err = await db
      .tx(async (q) => {
        await q.query('INSERT INTO pipeline_probe (n) VALUES (4)');
        q.last('INSERT INTO pipeline_probe (n) VALUES (-1)');
        return 'committed';
      })
      .catch((e: Error) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toMatch(/check constraint/);
    expect(await rows()).toEqual([1, 2, 3]);
  });

  it('a failing statement among several issued together fails the transaction once all have settled', async () => {
    const err = await db
      .tx(async (q) => {
        await together(q.query('INSERT INTO pipeline_probe (n) VALUES (5)'), q.query('INSERT INTO pipeline_probe (n) VALUES (-2)'), q.query('INSERT INTO pipeline_probe (n) VALUES (6)'));
        return 'committed';
      })
      .catch((e: Error) => e);
    expect((err as Error).message).toMatch(/check constraint/);
    expect(await rows()).toEqual([1, 2, 3]);
  });

  it('a transaction whose function throws commits nothing, and the connections stay usable', async () => {
    await expect(
      db.tx(async (q) => {
        await q.query('INSERT INTO pipeline_probe (n) VALUES (7)');
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    // every pooled connection after the failures above: many transactions at once, all committed
    await Promise.all(Array.from({ length: 40 }, (_, i) => db.tx(async (q) => q.last('INSERT INTO pipeline_probe (n) VALUES ($1)', [100 + i]))));
    const after = await rows();
    expect(after.slice(0, 3)).toEqual([1, 2, 3]);
    expect(after.slice(3).sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, i) => 100 + i));
  });
});
