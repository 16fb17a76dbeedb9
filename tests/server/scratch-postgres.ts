import { randomUUID } from 'node:crypto';
import pg from 'pg';

/** A throw-away database: where it is, and how to drop it. */
export interface ScratchDatabase {
  url: string;
  drop(): Promise<void>;
}

/**
 * A new, empty database on the PostgreSQL server of `adminUrl` (nothing opened on it), named
 * `<prefix>_<random>`: its URL and `drop()`, which ends whatever still holds it. For the
 * server suites (through cluster-helpers' emptyPostgres) and the benchmarks; no test framework here.
 */
export async function scratchPostgres(adminUrl: string, prefix: string): Promise<ScratchDatabase> {
  const name = `${prefix}_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  const a = new pg.Client({ connectionString: adminUrl });
  await a.connect();
  try {
    await a.query(`CREATE DATABASE ${name}`);
  } finally {
    await a.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const b = new pg.Client({ connectionString: adminUrl });
      await b.connect();
      try {
        await b.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await b.end();
      }
    },
  };
}
