import { describe, expect, it } from 'vitest';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { openDb } from '../../server/db/db';
import { migrate } from '../../server/db/migrate';
import { serviceUrl } from './services';
import { emptyPostgres } from './cluster-helpers';

const pgUrl = serviceUrl('postgres');
const migrationFiles = readdirSync(join(import.meta.dirname, '../../server/db/migrations')).filter((f) => f.endsWith('.sql'));

describe.skipIf(!pgUrl)('several processes on one PostgreSQL database (issue 17)', () => {
  it('start at once on an empty database: every one migrates without error, each migration applied once', { timeout: 60_000 }, async () => {
    const store = await emptyPostgres();
    // separate pools stand in for separate processes: each has its own connections
    const dbs = await Promise.all(Array.from({ length: 6 }, () => openDb({ databaseUrl: store.url })));
    try {
      const results = await Promise.allSettled(dbs.map((db) => migrate(db)));
      expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
      const applied = results.map((r) => (r.status === 'fulfilled' ? r.value : []));
      // exactly one of them applied the migrations; the rest found them done
      expect(applied.flat().sort()).toEqual([...migrationFiles].sort());
      const rows = await dbs[0].query<{ version: string }>('SELECT version FROM schema_migrations ORDER BY version');
      expect(rows.map((r) => r.version)).toEqual([...migrationFiles].sort());
    } finally {
      await Promise.all(dbs.map((db) => db.close()));
      await store.drop();
    }
  });
});
