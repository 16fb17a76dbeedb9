/** Webhook and delivery retries: quick at first, then hourly, for at least a day (issue 6). */
export const RETRY_DELAYS_MS = [5_000, 30_000, 120_000, 600_000, 1_800_000, 3_600_000];
export const RETRY_HOURLY_MS = 3_600_000;
/** After this long since the delivery was queued, a failing delivery is marked failed. */
export const GIVE_UP_AFTER_MS = 26 * 3_600_000;

/**
 * When to try again after the given number of failed attempts, or undefined to give up
 * (the next attempt would fall past GIVE_UP_AFTER_MS from when the delivery was queued).
 */
export function nextAttemptAt(failedAttempts: number, createdAt: number, now: number): number | undefined {
  const delay = RETRY_DELAYS_MS[failedAttempts - 1] ?? RETRY_HOURLY_MS;
  const at = now + delay;
  return at - createdAt > GIVE_UP_AFTER_MS ? undefined : at;
}
