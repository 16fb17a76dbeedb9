import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * `npm start` builds the client only when what the build reads has changed since the build in
 * dist/: a hash over the inputs' paths and contents is written beside the build
 * (dist/.build-inputs) and compared at the next start.
 */
export const BUILD_INPUTS = ['src', 'machines', 'workers', 'wasm-core', 'public', 'index.html', 'vite.config.ts', 'package-lock.json', 'tsconfig.json'];
/** Outputs and what no build reads: the core's compiled files, tests, anything hidden. */
const SKIP = /(?:^|\/)(?:build|node_modules|\.[^/]+)(?:\/|$)|\.test\.tsx?$/;
export const STAMP = '.build-inputs';

/** Every input file under `root` (the repository), sorted, as paths relative to it. */
function inputFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (path: string) => {
    const rel = relative(root, path).split(sep).join('/');
    if (SKIP.test(rel)) return;
    const st = statSync(path);
    if (st.isDirectory()) for (const name of readdirSync(path)) walk(join(path, name));
    else if (st.isFile()) out.push(rel);
  };
  for (const top of BUILD_INPUTS) if (existsSync(join(root, top))) walk(join(root, top));
  // a second page of the build (another Vite entry) is an HTML file at the top as well
  for (const name of readdirSync(root)) if (name.endsWith('.html') && !out.includes(name)) out.push(name);
  return out.sort();
}

/** The hash of the build's inputs: their paths and bytes. */
export function buildInputsHash(root: string): string {
  const hash = createHash('sha256');
  for (const file of inputFiles(root)) {
    hash.update(`${file}\0`);
    hash.update(readFileSync(join(root, file)));
    hash.update('\0');
  }
  return hash.digest('hex');
}

/** Whether the build in `outDir` was made from inputs with this hash (and is whole: the page and the core). */
export function buildIsCurrent(root: string, outDir: string, hash: string): boolean {
  const stamp = join(outDir, STAMP);
  return existsSync(join(outDir, 'index.html')) && existsSync(join(root, 'wasm-core/build/core.wasm')) && existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === hash;
}

function main() {
  const root = process.cwd();
  const outDir = resolve(root, process.env.VITE_OUT_DIR ?? 'dist');
  const hash = buildInputsHash(root);
  if (buildIsCurrent(root, outDir, hash)) {
    console.log(`The client build in ${relative(root, outDir) || '.'} is current (its inputs are unchanged): not rebuilding.`);
    return;
  }
  const run = spawnSync('npm', ['run', 'build'], { stdio: 'inherit', shell: process.platform === 'win32' });
  if (run.status !== 0) process.exit(run.status ?? 1);
  // the hash of the inputs as they were when the build started: an edit during the build rebuilds next time
  writeFileSync(join(outDir, STAMP), `${hash}\n`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) main();
