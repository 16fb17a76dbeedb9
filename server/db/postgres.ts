import pg from 'pg';
import type { Db, Queryable } from './db';
import { preparedName } from './prepared';

pg.types.setTypeParser(20, (v) => Number(v)); // int8
pg.types.setTypeParser(1700, (v) => Number(v)); // numeric

export async function openPostgres(url: string): Promise<Db> {
  const pool = new pg.Pool({ connectionString: url, max: Number(process.env.DB_POOL_SIZE ?? 16) });
  pool.on('error', () => {}); // an idle client's error surfaces on its next query
  await pool.query('select 1');
  const query: Queryable['query'] = async (sql, params) => (await pool.query(sql, params as unknown[])).rows;
  return {
    kind: 'postgres',
    url,
    query,
    async tx(fn) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await fn({
          query: async (sql, params) => {
            const name = preparedName(sql);
            return (await (name ? client.query({ name, text: sql, values: params as unknown[] }) : client.query(sql, params as unknown[]))).rows;
          },
        });
        await client.query('COMMIT');
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
