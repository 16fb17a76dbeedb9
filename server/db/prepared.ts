const preparedNames = new Map<string, string>();

/**
 * Marks a statement that runs many times a second (the ingest batch's): on PostgreSQL it becomes
 * a named prepared statement on each connection, parsed and planned once instead of on every run.
 * Returns the SQL unchanged; PGlite runs it as any other.
 */
export function prepared(sql: string): string {
  if (!preparedNames.has(sql)) preparedNames.set(sql, `tw_${preparedNames.size}`);
  return sql;
}

/** The prepared statement name of a statement marked by `prepared`, if it is one. */
export const preparedName = (sql: string) => preparedNames.get(sql);
