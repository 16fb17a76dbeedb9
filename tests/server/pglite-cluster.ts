import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A tar of a new, empty PGlite cluster's data directory (freshDb in harness.ts starts from it). */
    pgliteEmptyCluster?: string;
  }
}

/**
 * Global setup of the server and e2e projects: makes one new PGlite cluster and keeps a dump of its
 * data directory (no migration, no data: what PGlite.create gives). A cluster of its own is the
 * costly part of PGlite.create, seconds of initdb on a busy 2-core machine, and the server tests
 * make hundreds; loading the dump gives each the same empty cluster in a fraction of that.
 */
export default async function setup(project: TestProject) {
  const dir = mkdtempSync(join(tmpdir(), 'tw-pglite-'));
  const file = join(dir, 'empty-cluster.tar');
  const pg = await PGlite.create('memory://');
  writeFileSync(file, Buffer.from(await (await pg.dumpDataDir('none')).arrayBuffer()));
  await pg.close();
  project.provide('pgliteEmptyCluster', file);
  return () => rmSync(dir, { recursive: true, force: true });
}
