/** About 15 days per request (monitoring-client.md 7): a year is 25 chunks. */
export const CHUNK_MS = 15 * 86_400_000;
/** Chunk requests in flight at once (spec: 6 fetched concurrently). */
export const IN_FLIGHT = 6;
/** Chunk requests are grouped 10 at a time (spec): a group finishes before the next starts. */
export const GROUP = 10;

export interface TimeRange {
  startTime: number;
  endTime: number; // inclusive, as the endpoint reads it
}

/**
 * Splits [start, end] (inclusive) into consecutive, non-overlapping chunks of chunkMs. A tail shorter
 * than 1% of a chunk joins the chunk before it rather than being a request of its own: Last 30 Days
 * is 30 days and 1 ms inclusive, which would otherwise end in a request for one millisecond.
 */
export function planChunks(startTime: number, endTime: number, chunkMs = CHUNK_MS): TimeRange[] {
  const out: TimeRange[] = [];
  for (let s = startTime; s <= endTime; s += chunkMs) out.push({ startTime: s, endTime: Math.min(s + chunkMs - 1, endTime) });
  const tail = out.at(-1);
  if (out.length > 1 && tail && tail.endTime - tail.startTime + 1 < chunkMs / 100) {
    out.pop();
    out[out.length - 1].endTime = tail.endTime;
  }
  return out;
}

/**
 * Runs tasks in groups of `group`, with at most `inFlight` running at once inside a group.
 * Stops starting new tasks after the first failure and rejects with it.
 */
export async function runGrouped<T>(items: T[], task: (item: T) => Promise<void>, group = GROUP, inFlight = IN_FLIGHT): Promise<void> {
  for (let g = 0; g < items.length; g += group) {
    const batch = items.slice(g, g + group);
    let next = 0;
    let failed = false;
    const worker = async () => {
      while (!failed && next < batch.length) {
        const item = batch[next++];
        try {
          await task(item);
        } catch (err) {
          failed = true;
          throw err;
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(inFlight, batch.length) }, worker));
  }
}
