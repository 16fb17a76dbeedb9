import Fuse from 'fuse.js';

/** Search (monitoring-client 5): fuzzy over name and serial, threshold 0.2, debounced 200 ms by the view. */
export const SEARCH_DEBOUNCE_MS = 200;
export const SEARCH_THRESHOLD = 0.2;

/**
 * The data worker's search over a whole fleet: the positions (in the given order) of the items
 * matching a query, or null for a trimmed empty query (all of them).
 */
export function createIndexedSearch<T extends { name: string; serial: string }>(items: readonly T[]): (query: string) => number[] | null {
  const fuse = new Fuse(items as T[], { keys: ['name', 'serial'], threshold: SEARCH_THRESHOLD, ignoreLocation: true });
  return (query) => {
    const q = query.trim();
    if (!q) return null;
    // best match first, as createSensorSearch answers
    return fuse.search(q).map((r) => r.refIndex);
  };
}

/** Returns a search over the given items; a trimmed empty query returns all of them in their order. */
export function createSensorSearch<T extends { name: string; serial: string }>(items: readonly T[]): (query: string) => T[] {
  const fuse = new Fuse(items as T[], { keys: ['name', 'serial'], threshold: SEARCH_THRESHOLD, ignoreLocation: true });
  return (query) => {
    const q = query.trim();
    if (!q) return [...items];
    return fuse.search(q).map((r) => r.item);
  };
}
