import { PGlite, types } from '@electric-sql/pglite';
import { mkdirSync } from 'node:fs';
import type { Db, Queryable } from './db';
import { handled, together } from './together';
import { queryBinary } from './pglite-binary';

// bigint and numeric come back as JS numbers on both drivers (times are epoch ms, well inside 2^53).
const parsers = {
  [types.BYTEA]: (v: string) => Buffer.from(v.slice(2), 'hex'),
  [types.INT8]: (v: string) => Number(v),
  [types.NUMERIC]: (v: string) => Number(v),
};

export async function openPglite(dataDir: string, loadDataDir?: Blob): Promise<Db> {
  if (!dataDir.startsWith('memory://')) mkdirSync(dataDir, { recursive: true });
  const pg = await PGlite.create(dataDir, { parsers, loadDataDir });
  const wrap = (q: { query: PGlite['query'] }): Queryable => ({
    async query<T>(sql: string, params?: unknown[]) {
      const res = await q.query<T>(sql, params as unknown[] | undefined);
      return res.rows;
    },
  });
  const base = wrap(pg);
  return {
    kind: 'pglite',
    query: base.query,
    queryBinary: (sql, params) => queryBinary(pg, sql, params),
    tx: (fn) =>
      pg.transaction(async (t) => {
        const lasts: Promise<unknown>[] = [];
        const q = wrap(t);
        const result = await fn({
          ...q,
          last: (sql, params) => void lasts.push(handled(q.query(sql, params))),
        });
        await together(...lasts);
        return result;
      }),
    exec: async (sql) => {
      await pg.exec(sql);
    },
    close: () => pg.close(),
  };
}
