import { describe, expect, it } from 'vitest';
import { CHUNK_MS, planChunks } from './chunk-plan';

const DAY = 86_400_000;
const T = Date.UTC(2026, 10, 1);

describe('planChunks (monitoring-client 7: about 15 days per request)', () => {
  it('Last 30 Days (30 days and 1 ms, both ends inclusive) is two requests, not two and one of a millisecond', () => {
    const chunks = planChunks(T - 30 * DAY, T);
    expect(chunks).toEqual([
      { startTime: T - 30 * DAY, endTime: T - 15 * DAY - 1 },
      { startTime: T - 15 * DAY, endTime: T },
    ]);
  });

  it('covers the range exactly, in order, with no gap or overlap, whatever its length', () => {
    for (const ms of [0, 1, DAY, CHUNK_MS - 1, CHUNK_MS, CHUNK_MS + 1, CHUNK_MS + CHUNK_MS / 100, 2 * CHUNK_MS, 365 * DAY, 365 * DAY + 1]) {
      const chunks = planChunks(T, T + ms);
      expect(chunks[0].startTime).toBe(T);
      expect(chunks.at(-1)!.endTime).toBe(T + ms);
      for (let i = 1; i < chunks.length; i++) expect(chunks[i].startTime).toBe(chunks[i - 1].endTime + 1);
      for (const c of chunks) expect(c.endTime - c.startTime + 1).toBeLessThanOrEqual(CHUNK_MS * 1.01);
      // no request shorter than 1% of a chunk unless the whole range is
      if (chunks.length > 1) for (const c of chunks) expect(c.endTime - c.startTime + 1).toBeGreaterThanOrEqual(CHUNK_MS / 100);
    }
  });

  it('a year is 25 requests', () => {
    expect(planChunks(T - 365 * DAY, T)).toHaveLength(25);
  });
});
