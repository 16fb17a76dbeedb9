import Fuse from 'fuse.js';

/** Search (monitoring-client 5): fuzzy over name and serial, threshold 0.2, debounced 200 ms by the view. */
export const SEARCH_DEBOUNCE_MS = 200;
export const SEARCH_THRESHOLD = 0.2;

/** Returns a search over the given items; a trimmed empty query returns all of them in their order. */
export function createSensorSearch<T extends { name: string; serial: string }>(items: readonly T[]): (query: string) => T[] {
  const fuse = new Fuse(items as T[], { keys: ['name', 'serial'], threshold: SEARCH_THRESHOLD, ignoreLocation: true });
  return (query) => {
    const q = query.trim();
    if (!q) return [...items];
    return fuse.search(q).map((r) => r.item);
  };
}
