import { copyFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import type { AppContext } from './context';

/**
 * Files (installation photos) in STORAGE_DIR, default DATA_DIR/storage, one folder per
 * organisation, so a file is only ever read under the organisation that owns it (DESIGN.md
 * "Files"). The gateway serves them to members; there is no public URL.
 */
export const storageDir = (ctx: Pick<AppContext, 'config'>) => resolve(ctx.config.STORAGE_DIR ?? join(ctx.config.DATA_DIR, 'storage'));

// A stored name is one path segment: no folders, no dot-dot.
const safeName = (name: string) => /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/.test(name) && basename(name) === name;

const TYPES: Record<string, string> = { png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', webp: 'image/webp' };

/** A stored file of the organisation with its content type, or undefined when there is none. */
export async function readStoredFile(ctx: Pick<AppContext, 'config'>, orgId: string, name: string): Promise<{ body: Buffer; type: string } | undefined> {
  if (!safeName(name) || !/^[0-9a-f-]{36}$/i.test(orgId)) return undefined;
  try {
    const body = await readFile(join(storageDir(ctx), orgId, name));
    return { body, type: TYPES[name.split('.').pop()!.toLowerCase()] ?? 'application/octet-stream' };
  } catch {
    return undefined;
  }
}

/** Copies the demo world's photos (server/seed/files) into the organisation's storage. */
export async function storeDemoPhotos(ctx: Pick<AppContext, 'config'>, orgId: string, names: string[]) {
  const dir = join(storageDir(ctx), orgId);
  await mkdir(dir, { recursive: true });
  for (const name of names) await copyFile(join(import.meta.dirname, 'seed', 'files', name), join(dir, name));
}

/** Writes a file into the organisation's storage (meter-reading photos, issue 14). */
export async function storeFile(ctx: Pick<AppContext, 'config'>, orgId: string, name: string, body: Uint8Array) {
  if (!safeName(name) || !/^[0-9a-f-]{36}$/i.test(orgId)) throw new Error(`unsafe stored file name ${name}`);
  const dir = join(storageDir(ctx), orgId);
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, name), body);
}

/** Removes a stored file of the organisation, if it is there. */
export async function removeStoredFile(ctx: Pick<AppContext, 'config'>, orgId: string, name: string) {
  if (!safeName(name) || !/^[0-9a-f-]{36}$/i.test(orgId)) return;
  await rm(join(storageDir(ctx), orgId, name), { force: true });
}
