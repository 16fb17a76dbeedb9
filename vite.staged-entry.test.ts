import { describe, expect, it } from 'vitest';
import type { Rolldown } from 'vite';
import { cyclicChunks, evaluationOrder, lazyOrders, type ChunkOrders } from './vite.staged-entry';

/** A bundle's chunks from `file: [static imports]`, with each chunk's dynamic imports. */
function bundle(graph: Record<string, string[]>, dynamic: Record<string, string[]> = {}): Map<string, Rolldown.OutputChunk> {
  return new Map(Object.entries(graph).map(([fileName, imports]) => [fileName, { type: 'chunk', fileName, imports, dynamicImports: dynamic[fileName] ?? [] } as unknown as Rolldown.OutputChunk]));
}

const named = (o: ChunkOrders) => Object.fromEntries(Object.entries(o.orders).map(([t, order]) => [o.files[Number(t)], order.map((i) => o.files[i])]));

describe("lazyOrders: a lazy chunk's new static chunks in the order the browser evaluates them (vite.staged-entry.ts)", () => {
  it('gives each chunk after its own imports, in import statement order, leaving out the entry\'s chunks and the lazy chunk itself', () => {
    const chunks = bundle(
      { entry: ['react'], react: [], page: ['ui', 'schemas', 'react'], ui: ['icons', 'react'], icons: [], schemas: ['zod'], zod: [] },
      { entry: ['page'] },
    );
    const evaluated = new Set(['entry', ...evaluationOrder(chunks.get('entry')!, chunks)]);
    expect(named(lazyOrders(chunks, evaluated))).toEqual({ page: ['icons', 'ui', 'zod', 'schemas'] });
  });

  it('stops before the first chunk in an import cycle: the lazy chunk\'s own import evaluates the cycle, and what reaches it, as the browser enters it', () => {
    // a imports b and b imports a; c imports b, so it comes after the cycle
    const chunks = bundle({ entry: [], page: ['leaf', 'a', 'c'], leaf: [], a: ['b'], b: ['a'], c: ['b'] }, { entry: ['page'] });
    expect([...cyclicChunks(chunks)].sort()).toEqual(['a', 'b']);
    expect(named(lazyOrders(chunks, new Set(['entry'])))).toEqual({ page: ['leaf'] });
  });

  it('gives no order to a lazy chunk with nothing new to evaluate', () => {
    const chunks = bundle({ entry: ['react'], react: [], page: ['react'] }, { entry: ['page'] });
    expect(lazyOrders(chunks, new Set(['entry', 'react']))).toEqual({ files: [], orders: {} });
  });
});
