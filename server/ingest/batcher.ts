import type { Db } from '../db/db';
import type { Logger } from '../log';
import { writeBatch, type Ingested, type Pending } from './batch-write';

/** At most this many uplinks share one transaction. */
export const BATCH_MAX = 256;

type Waiting = Pending & { resolve(r: Ingested): void; reject(e: unknown): void };

/**
 * Group commit for uplinks. An uplink that arrives while the database is idle is written at once
 * (at the next turn of the event loop, with whatever else arrived in the same turn); those that
 * arrive while batches are being written wait and go together in the next one. So a quiet server
 * adds no delay, and a busy one writes many uplinks per transaction, one commit for all, each
 * still answered only after the commit that holds it. A batch that fails as a whole (a database
 * error, not a refused uplink) is written again one uplink per transaction, so one bad uplink
 * fails alone.
 */
export class UplinkBatcher {
  private queue: Waiting[] = [];
  private inFlight = 0;
  private scheduled = false;
  /** The largest batch written so far (for tests and the benchmark's notes). */
  largest = 0;

  constructor(
    private readonly db: Db,
    private readonly log: Logger,
    /** Batches written at once: PostgreSQL overlaps them on its pool; PGlite runs one transaction at a time. */
    private readonly concurrency = db.kind === 'postgres' ? 2 : 1,
  ) {}

  submit(p: Pending): Promise<Ingested> {
    return new Promise((resolve, reject) => {
      this.queue.push({ ...p, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => {
          this.scheduled = false;
          this.pump();
        });
      }
    });
  }

  private pump() {
    while (this.inFlight < this.concurrency && this.queue.length) {
      const batch = this.queue.splice(0, BATCH_MAX);
      this.inFlight++;
      this.largest = Math.max(this.largest, batch.length);
      void this.write(batch).finally(() => {
        this.inFlight--;
        this.pump();
      });
    }
  }

  private async write(batch: Waiting[]) {
    try {
      const results = await this.db.tx((q) => writeBatch(q, batch));
      results.forEach((r, i) => (r instanceof Error ? batch[i].reject(r) : batch[i].resolve(r)));
    } catch (err) {
      if (batch.length === 1) return batch[0].reject(err);
      this.log.warn({ err, uplinks: batch.length }, 'uplink batch failed; writing its uplinks one by one');
      for (const item of batch) await this.write([item]);
    }
  }
}

const batchers = new WeakMap<Db, UplinkBatcher>();

/** The process's batcher for a database (one per Db, so every transport shares it). */
export function batcherFor(db: Db, log: Logger): UplinkBatcher {
  let b = batchers.get(db);
  if (!b) batchers.set(db, (b = new UplinkBatcher(db, log)));
  return b;
}
