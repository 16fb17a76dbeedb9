/**
 * Awaits statements issued together (on PostgreSQL they go out in one round trip and run in the
 * order issued) and rejects with the first error only once all have settled, so none is still
 * running when a transaction rolls back.
 */
export async function together<T extends readonly unknown[]>(...ps: { [K in keyof T]: Promise<T[K]> }): Promise<T> {
  const settled = await Promise.allSettled(ps);
  for (const s of settled) if (s.status === 'rejected') throw s.reason;
  return settled.map((s) => (s as PromiseFulfilledResult<unknown>).value) as unknown as T;
}

/** The promise, with a handler attached now: it is awaited later (by together()), maybe after it has failed. */
export const handled = <T>(p: Promise<T>): Promise<T> => (p.catch(() => {}), p);
