/** One thin query layer over PGlite (embedded) and PostgreSQL (node-postgres): same SQL, same results. */
export type Row = Record<string, unknown>;

export interface Queryable {
  /** Runs one statement with $1.. parameters and returns its rows. */
  query<T = Row>(sql: string, params?: unknown[]): Promise<T[]>;
  /**
   * PGlite only (server/db/pglite-binary.ts): one statement, outside any transaction of the
   * caller's, with its results in PostgreSQL's binary format: bytea columns as Buffers rather than
   * text. node-postgres cannot receive binary results (pg-protocol parses every field as text).
   */
  queryBinary?<T = Row>(sql: string, params?: unknown[]): Promise<T[]>;
}

/** What a transaction's function gets: its statements, and a way to send the last one with the commit. */
export interface TxQueryable extends Queryable {
  /**
   * Runs the transaction's last statement: on PostgreSQL it goes out with the COMMIT in one round
   * trip (its rows are not returned). Its error fails the transaction, as a query's would: the
   * transaction rolls back and tx() rejects with it. Nothing may be queried after it.
   */
  last(sql: string, params?: unknown[]): void;
}

export interface Db extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** PostgreSQL's connection string (a LISTEN connection of its own needs it); none for PGlite. */
  readonly url?: string;
  /** Runs fn in one transaction; it commits when fn resolves and rolls back when it throws. */
  tx<T>(fn: (q: TxQueryable) => Promise<T>): Promise<T>;
  /** Runs a script of several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
  close(): Promise<void>;
}

/** First row or undefined. */
export async function one<T = Row>(q: Queryable, sql: string, params?: unknown[]): Promise<T | undefined> {
  const rows = await q.query<T>(sql, params);
  return rows[0];
}

export interface OpenOptions {
  databaseUrl?: string;
  dataDir?: string; // PGlite directory; 'memory://' for a throw-away database
  /** PGlite: start from this dump of a data directory (PGlite's dumpDataDir) instead of a new cluster. */
  loadDataDir?: Blob;
}

/** Opens PostgreSQL when a URL is given, otherwise PGlite in dataDir. */
export async function openDb(opts: OpenOptions): Promise<Db> {
  if (opts.databaseUrl) {
    const { openPostgres } = await import('./postgres');
    return openPostgres(opts.databaseUrl);
  }
  const { openPglite } = await import('./pglite');
  return openPglite(opts.dataDir ?? 'memory://', opts.loadDataDir);
}
