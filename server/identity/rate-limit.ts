/**
 * A light per-client limit for the unsigned sign-up calls (each /signup costs a scrypt run).
 * Kept in memory per instance on purpose: it only blunts floods; correctness never depends on it.
 */
export function fixedWindowLimiter(limit: number, windowMs: number, now: () => number) {
  const windows = new Map<string, { start: number; count: number }>();
  return (key: string): boolean => {
    const t = now();
    if (windows.size > 10_000) for (const [k, w] of windows) if (t - w.start >= windowMs) windows.delete(k);
    const w = windows.get(key);
    if (!w || t - w.start >= windowMs) {
      windows.set(key, { start: t, count: 1 });
      return true;
    }
    w.count += 1;
    return w.count <= limit;
  };
}
