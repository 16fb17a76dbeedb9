import { readFileSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin, Rolldown } from 'vite';
import { CHUNK_ORDER_ID } from './src/shared/preload-helper';

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
 *
 * A lazy chunk's graph is evaluated the same way. The browser evaluates a dynamic import's new
 * chunks in one task (a section's code with its libraries and schemas: 60 to 70 ms of the sensors
 * page's load); index.html gets, as JSON the preload helper reads (`src/shared/preload-helper.ts`),
 * each dynamically imported chunk's new static chunks in evaluation order (`lazyOrders`), and the
 * helper imports them one at a time, yielding between them, before the chunk itself.
 */
export function stagedEntry(html = 'index.html'): Plugin {
  let outDir = 'dist';
  /** The entry chunk's file and its static chunks in evaluation order, from the bundle. */
  let plan: { entry: string; order: string[]; lazy: ChunkOrders } | undefined;
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
      const order = evaluationOrder(entry, chunks);
      plan = { entry: entry.fileName, order, lazy: lazyOrders(chunks, new Set([entry.fileName, ...order])) };
    },
    closeBundle() {
      if (!plan) return;
      const page = join(outDir, html);
      const text = readFileSync(page, 'utf8');
      const tag = `<script type="module" crossorigin src="/${plan.entry}"></script>`;
      if (!text.includes(tag)) throw new Error(`staged entry: ${html} has no ${tag}`);
      const source = bootSource([...plan.order, plan.entry].map((f) => `./${f.replace(/^assets\//, '')}`));
      const boot = `assets/boot-${createHash('sha256').update(source).digest('base64url').slice(0, 8)}.js`;
      // JSON, never run as script: no Content-Security-Policy allowance needed ("<" escaped, so no "</script>" can end it early)
      const orders = `<script type="application/json" id="${CHUNK_ORDER_ID}">${JSON.stringify(plan.lazy).replace(/</g, '\\u003c')}</script>`;
      const staged = text.replace(tag, `${orders}\n    <script type="module" crossorigin src="/${boot}"></script>\n    <link rel="modulepreload" crossorigin href="/${plan.entry}">`);
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

/** Each dynamically imported chunk's new static chunks in evaluation order: `files` names them, `orders` maps a target's index to theirs. */
export interface ChunkOrders {
  files: string[];
  orders: Record<string, number[]>;
}

/**
 * For each chunk a dynamic import reaches: the chunks its static imports reach that `evaluated`
 * (the entry's) does not hold, each after its own imports, in import statement order: the order
 * in which the browser evaluates them when the chunk is imported. Only the part before the first
 * chunk in an import cycle is given: a cycle's chunks run in the order the browser enters the cycle
 * (a chunk imported ahead of it could find another's bindings not yet made), so the chunk's own
 * import evaluates them, and any chunk after them in the order, which reaches one of them.
 */
export function lazyOrders(chunks: ReadonlyMap<string, Rolldown.OutputChunk>, evaluated: ReadonlySet<string>): ChunkOrders {
  const cyclic = cyclicChunks(chunks);
  const files: string[] = [];
  const index = new Map<string, number>();
  const id = (f: string) => {
    let i = index.get(f);
    if (i === undefined) index.set(f, (i = files.push(f) - 1));
    return i;
  };
  const orders: Record<string, number[]> = {};
  const targets = new Set([...chunks.values()].flatMap((c) => c.dynamicImports.filter((f) => chunks.has(f))));
  for (const target of [...targets].sort()) {
    const order: string[] = [];
    const seen = new Set<string>([target]);
    const visit = (file: string) => {
      if (seen.has(file) || evaluated.has(file)) return;
      seen.add(file);
      chunks.get(file)?.imports.forEach(visit);
      order.push(file);
    };
    chunks.get(target)!.imports.forEach(visit);
    const firstCyclic = order.findIndex((f) => cyclic.has(f));
    const staged = firstCyclic < 0 ? order : order.slice(0, firstCyclic);
    if (staged.length > 0) orders[id(target)] = staged.map(id);
  }
  return { files, orders };
}

/** The chunks in an import cycle (Tarjan's strongly connected components of more than one chunk, or a chunk importing itself). */
export function cyclicChunks(chunks: ReadonlyMap<string, Rolldown.OutputChunk>): Set<string> {
  const cyclic = new Set<string>();
  const low = new Map<string, number>();
  const num = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  let next = 0;
  const connect = (v: string) => {
    num.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of chunks.get(v)?.imports ?? []) {
      if (!chunks.has(w)) continue;
      if (!num.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, num.get(w)!));
    }
    if (low.get(v) === num.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || chunks.get(v)!.imports.includes(v)) component.forEach((c) => cyclic.add(c));
    }
  };
  for (const v of chunks.keys()) if (!num.has(v)) connect(v);
  return cyclic;
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
