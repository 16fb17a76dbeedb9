import { readFileSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin, Rolldown } from 'vite';

/**
 * The monitoring app's entry evaluated a chunk at a time (issue 32). A page's module scripts are
 * evaluated in one task once every one of them has loaded: the entry's graph (React, Mantine,
 * aws-amplify, XState, zod, the sign-in page and the app's frame) was one main-thread task of 35 to
 * 45 ms on a fast machine and 100 to 190 ms on a slow one, on every page's load (benchmark 22).
 *
 * After the build, index.html's entry script becomes a small module (`assets/boot-<hash>.js`) that
 * imports the entry's chunks one by one, in the order the browser would have evaluated them (each
 * chunk's static imports first, in statement order), and yields to the browser between them
 * (`scheduler.yield`, else a message). Every chunk is still asked for by the page itself, at once:
 * the entry's static chunks keep their `modulepreload` links and the entry gets one, so nothing
 * waits on another round trip. Written at the end of the build, with its brotli and gzip forms
 * beside it, as the compression plugin writes every other file's.
 */
export function stagedEntry(html = 'index.html'): Plugin {
  let outDir = 'dist';
  /** The entry chunk's file and its static chunks in evaluation order, from the bundle. */
  let plan: { entry: string; order: string[] } | undefined;
  return {
    name: 'tidewatch:staged-entry',
    apply: 'build',
    enforce: 'post',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    generateBundle(_options, bundle) {
      const chunks = new Map(Object.values(bundle).flatMap((c) => (c.type === 'chunk' ? [[c.fileName, c] as const] : [])));
      const entry = [...chunks.values()].find((c) => c.isEntry && c.facadeModuleId?.endsWith(`/${html}`));
      if (!entry) return;
      plan = { entry: entry.fileName, order: evaluationOrder(entry, chunks) };
    },
    closeBundle() {
      if (!plan) return;
      const page = join(outDir, html);
      const text = readFileSync(page, 'utf8');
      const tag = `<script type="module" crossorigin src="/${plan.entry}"></script>`;
      if (!text.includes(tag)) throw new Error(`staged entry: ${html} has no ${tag}`);
      const source = bootSource([...plan.order, plan.entry].map((f) => `./${f.replace(/^assets\//, '')}`));
      const boot = `assets/boot-${createHash('sha256').update(source).digest('base64url').slice(0, 8)}.js`;
      const staged = text.replace(tag, `<script type="module" crossorigin src="/${boot}"></script>\n    <link rel="modulepreload" crossorigin href="/${plan.entry}">`);
      writeCompressed(join(outDir, boot), source);
      writeCompressed(page, staged);
    },
  };
}

/** The chunks an entry's static imports reach, each after its own, in import statement order (a module graph's evaluation order). */
export function evaluationOrder(entry: Rolldown.OutputChunk, chunks: ReadonlyMap<string, Rolldown.OutputChunk>): string[] {
  const order: string[] = [];
  const seen = new Set<string>([entry.fileName]);
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    chunks.get(file)?.imports.forEach(visit);
    order.push(file);
  };
  entry.imports.forEach(visit);
  return order;
}

/** The boot module: each chunk imported in turn, the browser given a turn between them. */
export function bootSource(files: string[]): string {
  return [
    '// the entry evaluated a chunk at a time, yielding between them (vite.staged-entry.ts)',
    'const turn = () => globalThis.scheduler?.yield?.() ?? new Promise((r) => { const c = new MessageChannel(); c.port1.onmessage = () => r(); c.port2.postMessage(0); });',
    `for (const f of ${JSON.stringify(files)}) { await import(f); await turn(); }`,
    '',
  ].join('\n');
}

function writeCompressed(file: string, text: string) {
  const bytes = Buffer.from(text);
  writeFileSync(file, bytes);
  writeFileSync(`${file}.br`, brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } }));
  writeFileSync(`${file}.gz`, gzipSync(bytes, { level: 9 }));
}
