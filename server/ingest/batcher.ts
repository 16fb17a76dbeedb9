import type { Db } from '../db/db';
import type { Logger } from '../log';
import { writeBatch, type Ingested, type Pending } from './batch-write';

/** At most this many uplinks share one transaction. */
export const BATCH_MAX = 256;

type Waiting = Pending & { resolve(r: Ingested): void; reject(e: unknown): void };

/**
 * Group commit for uplinks. An uplink that arrives while the database is idle is written at once
 * (at the next turn of the event loop, with whatever else arrived in the same turn); those that
 * arrive while a batch is being written wait and go together in the next one. So a quiet server
 * adds no delay, and a busy one writes many uplinks per transaction, one commit for all, each
 * still answered only after the commit that holds it. Sensors are spread over a few lanes by
 * serial, one batch in flight per lane: batches of different lanes never wait for each other's
 * row locks, and one sensor's uplinks are written in arrival order. A batch that fails as a
 * whole (a database error, not a refused uplink) is written again one uplink per transaction,
 * so one bad uplink fails alone.
 */
export class UplinkBatcher {
  private lanes: { queue: Waiting[]; busy: boolean; scheduled: boolean }[];
  /** The largest batch written so far, and how many batches and uplinks were written (tests, bench). */
  largest = 0;
  batches = 0;
  uplinks = 0;
  private held: Promise<void> | null = null;

  constructor(
    private readonly db: Db,
    private readonly log: Logger,
    /** PostgreSQL overlaps the lanes' transactions on its pool; PGlite runs one transaction at a time. */
    lanes = db.kind === 'postgres' ? 2 : 1,
  ) {
    this.lanes = Array.from({ length: lanes }, () => ({ queue: [], busy: false, scheduled: false }));
  }

  submit(p: Pending): Promise<Ingested> {
    let h = 0;
    for (let i = 0; i < p.up.serial.length; i++) h = (h * 31 + p.up.serial.charCodeAt(i)) | 0;
    const lane = this.lanes[Math.abs(h) % this.lanes.length];
    return new Promise((resolve, reject) => {
      lane.queue.push({ ...p, resolve, reject });
      if (!lane.scheduled && !lane.busy) {
        lane.scheduled = true;
        setImmediate(() => {
          lane.scheduled = false;
          this.pump(lane);
        });
      }
    });
  }

  /** Uplinks waiting for a batch. */
  get queued() {
    return this.lanes.reduce((n, l) => n + l.queue.length, 0);
  }

  /**
   * Starts no new batch until the returned function is called; uplinks keep queueing (tests use
   * it to see how many arrive together without timing anything).
   */
  hold(): () => void {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    this.held = held;
    void held.then(() => {
      if (this.held === held) this.held = null;
      for (const lane of this.lanes) this.pump(lane);
    });
    return release;
  }

  private pump(lane: UplinkBatcher['lanes'][number]) {
    if (this.held || lane.busy || !lane.queue.length) return;
    const batch = lane.queue.splice(0, BATCH_MAX);
    lane.busy = true;
    this.largest = Math.max(this.largest, batch.length);
    this.batches++;
    this.uplinks += batch.length;
    void this.write(batch).finally(() => {
      lane.busy = false;
      this.pump(lane);
    });
  }

  private async write(batch: Waiting[], retried = false): Promise<void> {
    try {
      const results = await this.db.tx((q) => writeBatch(q, batch));
      results.forEach((r, i) => (r instanceof Error ? batch[i].reject(r) : batch[i].resolve(r)));
    } catch (err) {
      // a month partition attached while this batch was routing a row to the default partition
      // (server/db/measurement-partitions.ts): the same batch again routes it to the new month
      if (!retried && isPartitionRace(err)) return this.write(batch, true);
      if (batch.length === 1) return batch[0].reject(err);
      this.log.warn({ err, uplinks: batch.length }, 'uplink batch failed; writing its uplinks one by one');
      for (const item of batch) await this.write([item]);
    }
  }
}

/** PostgreSQL's check_violation on the default partition of `measurements`: its constraint changed under the batch. */
function isPartitionRace(err: unknown): boolean {
  const e = err as { code?: string; table?: string } | null;
  return e?.code === '23514' && e.table === 'measurements_default';
}

const batchers = new WeakMap<Db, UplinkBatcher>();

/** The process's batcher for a database (one per Db, so every transport shares it). */
export function batcherFor(db: Db, log: Logger): UplinkBatcher {
  let b = batchers.get(db);
  if (!b) batchers.set(db, (b = new UplinkBatcher(db, log)));
  return b;
}
