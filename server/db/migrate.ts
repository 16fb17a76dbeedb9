import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Db } from './db';

const dir = join(import.meta.dirname, 'migrations');
const LOCK = 727_001; // advisory lock: several server processes may start at once on PostgreSQL

/**
 * Applies every migration file not yet applied, in name order, in one transaction under an
 * advisory lock. Everything, even creating schema_migrations, happens under the lock: two
 * processes racing `CREATE TABLE IF NOT EXISTS` both pass the check and the second dies on
 * pg_type's unique index.
 */
export async function migrate(db: Db, opts: { /** tests: stop after this file (e.g. '013_radar_settings.sql') */ upTo?: string } = {}): Promise<string[]> {
  const applied: string[] = [];
  await db.tx(async (q) => {
    await q.query('SELECT pg_advisory_xact_lock($1)', [LOCK]);
    await q.query('CREATE TABLE IF NOT EXISTS schema_migrations (version text PRIMARY KEY, applied_at bigint NOT NULL)');
    const done = new Set((await q.query<{ version: string }>('SELECT version FROM schema_migrations')).map((r) => r.version));
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.sql')).sort()) {
      if (done.has(file)) continue;
      if (opts.upTo !== undefined && file > opts.upTo) break;
      for (const stmt of splitSql(readFileSync(join(dir, file), 'utf8'))) await q.query(stmt);
      await q.query('INSERT INTO schema_migrations (version, applied_at) VALUES ($1, $2)', [file, Date.now()]);
      applied.push(file);
    }
  });
  return applied;
}

/** Splits a migration script on semicolons at line ends (our migrations keep no $$ bodies). */
function splitSql(sql: string): string[] {
  return sql
    .split(/;\s*$/m)
    .map((s) => s.replace(/^\s*--.*$/gm, '').trim())
    .filter(Boolean);
}
