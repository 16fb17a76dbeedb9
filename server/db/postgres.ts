import type { Writable } from 'node:stream';
import pg from 'pg';
import type { Db, Queryable } from './db';
import { handled, together } from './together';
import { preparedName } from './prepared';
import { oneWriteThisTurn } from '../one-write';

pg.types.setTypeParser(20, (v) => Number(v)); // int8
pg.types.setTypeParser(1700, (v) => Number(v)); // numeric

export async function openPostgres(url: string): Promise<Db> {
  // Pipeline mode (node-postgres 8.23): a statement issued while the one before is still running
  // is written at once instead of waiting for its answer. PostgreSQL still runs them one after
  // another in the order written, each with its own Sync (an error ends that statement only; in a
  // transaction it aborts the rest, as always). A transaction's BEGIN goes out with its first
  // statements, and its last statement with the COMMIT (tx below), so the ingest batch takes 4
  // round trips instead of 8: on a busy server each round trip also waits for the event loop.
  const pool = new pg.Pool({ connectionString: url, max: Number(process.env.DB_POOL_SIZE ?? 16), pipeline: true });
  pool.on('error', () => {}); // an idle client's error surfaces on its next query
  await pool.query('select 1');
  const query: Queryable['query'] = async (sql, params) => (await pool.query(sql, params as unknown[])).rows;
  return {
    kind: 'postgres',
    url,
    query,
    async tx(fn) {
      const client = await pool.connect();
      // the statements issued in one turn (the BEGIN with the first ones, the last with the COMMIT)
      // leave in one write: node-postgres writes each statement on its own otherwise
      const stream = (client as unknown as { connection: { stream: Writable } }).connection.stream;
      const run = async (sql: string, params?: unknown[]) => {
        oneWriteThisTurn(stream);
        const name = preparedName(sql);
        return (await (name ? client.query({ name, text: sql, values: params as unknown[] }) : client.query(sql, params as unknown[]))).rows;
      };
      const lasts: Promise<unknown>[] = [];
      try {
        // not awaited: it goes out with fn's first statement (pipeline mode), and is checked before the COMMIT
        oneWriteThisTurn(stream);
        const begin = handled(client.query('BEGIN'));
        const result = await fn({ query: run, last: (sql, params) => void lasts.push(handled(run(sql, params))) });
        await begin;
        // the last statement and the COMMIT in one round trip; if it failed, PostgreSQL answers this COMMIT with a rollback
        oneWriteThisTurn(stream);
        await together(...lasts, client.query('COMMIT'));
        return result;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => {});
        throw err;
      } finally {
        client.release();
      }
    },
    exec: async (sql) => {
      await pool.query(sql);
    },
    close: () => pool.end(),
  };
}
