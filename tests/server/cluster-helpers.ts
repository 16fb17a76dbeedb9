import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { markServiceUsed } from './services';

/** A throw-away, empty PostgreSQL database (nothing opened on it): a test opens it, or several pools race on it. */
export async function emptyPostgres(): Promise<{ url: string; drop(): Promise<void> }> {
  const admin = process.env.TEST_DATABASE_URL!;
  markServiceUsed('postgres');
  const name = `tw_cluster_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  const a = new pg.Client({ connectionString: admin });
  await a.connect();
  await a.query(`CREATE DATABASE ${name}`);
  await a.end();
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const b = new pg.Client({ connectionString: admin });
      await b.connect();
      await b.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await b.end();
    },
  };
}
