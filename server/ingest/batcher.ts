import type { Db } from '../db/db';
import type { Logger } from '../log';
import { writeBatch, type Ingested, type Pending } from './batch-write';

/** At most this many uplinks share one transaction. */
export const BATCH_MAX = 256;

type Waiting = Pending & { resolve(r: Ingested): void; reject(e: unknown): void };

/** A second batch starts beside the one in flight only once that one has taken this long (a slow commit, a row lock held elsewhere). */
export const STALL_MS = 10;

/**
 * Group commit for uplinks. An uplink that arrives while the database is idle is written at once
 * (at the next turn of the event loop, with whatever else arrived in the same turn); those that
 * arrive while a batch is being written wait and go together in the next one. So a quiet server
 * adds no delay, and a busy one writes many uplinks per transaction, one commit for all, each
 * still answered only after the commit that holds it. One batch is in flight at a time, so
 * batches are as large as the rate allows; on PostgreSQL a second one starts beside it when it
 * has been in flight for STALL_MS, so a stalled commit or a row lock held elsewhere does not hold
 * up every uplink. A batch never takes an uplink of a sensor that has one in the batch in flight
 * (nor any later uplink of that sensor), so concurrent batches never wait for each other's row
 * locks and one sensor's uplinks are written in arrival order. A batch that fails as a whole (a
 * database error, not a refused uplink) is written again one uplink per transaction, so one bad
 * uplink fails alone.
 */
export class UplinkBatcher {
  private queue: Waiting[] = [];
  private inFlight: { serials: Set<string>; started: number }[] = [];
  private scheduled = false;
  private stallTimer: ReturnType<typeof setTimeout> | null = null;
  /** The largest batch written so far, and how many batches and uplinks were written (tests, bench). */
  largest = 0;
  batches = 0;
  uplinks = 0;
  private held: Promise<void> | null = null;

  constructor(
    private readonly db: Db,
    private readonly log: Logger,
    /**
     * Batches in flight at most: two on PostgreSQL (the second only after STALL_MS), one on
     * PGlite, which runs one transaction at a time. Two lanes by serial, each with a batch always
     * in flight (before 24 November), halved the batches and cost 20 to 30% more PostgreSQL CPU
     * per uplink; one batch and never a second gave a higher ack p99 (bench, quiet machine).
     */
    private readonly maxInFlight = db.kind === 'postgres' ? 2 : 1,
  ) {}

  submit(p: Pending): Promise<Ingested> {
    return new Promise((resolve, reject) => {
      this.queue.push({ ...p, resolve, reject });
      if (!this.scheduled && !this.inFlight.length) {
        this.scheduled = true;
        setImmediate(() => {
          this.scheduled = false;
          this.pump();
        });
      }
    });
  }

  /** Uplinks waiting for a batch. */
  get queued() {
    return this.queue.length;
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
      this.pump();
    });
    return release;
  }

  private pump() {
    if (this.held || !this.queue.length) return;
    const n = this.inFlight.length;
    if (n >= this.maxInFlight) return;
    // the batch in flight is not stalled (yet): its own timer looks again at STALL_MS
    if (n && performance.now() - this.inFlight[n - 1].started < STALL_MS) return;
    // the queue in order, but never an uplink of a sensor in flight nor any later one of the same sensor
    const busy = new Set<string>();
    for (const f of this.inFlight) for (const serial of f.serials) busy.add(serial);
    const batch: Waiting[] = [];
    const rest: Waiting[] = [];
    for (const w of this.queue) {
      if (batch.length < BATCH_MAX && !busy.has(w.up.serial)) batch.push(w);
      else {
        rest.push(w);
        busy.add(w.up.serial);
      }
    }
    if (!batch.length) return;
    this.queue = rest;
    const flight = { serials: new Set(batch.map((w) => w.up.serial)), started: performance.now() };
    this.inFlight.push(flight);
    this.largest = Math.max(this.largest, batch.length);
    this.batches++;
    this.uplinks += batch.length;
    if (this.maxInFlight > 1) {
      if (this.stallTimer) clearTimeout(this.stallTimer);
      this.stallTimer = setTimeout(() => {
        this.stallTimer = null;
        this.pump();
      }, STALL_MS);
    }
    void this.write(batch).finally(() => {
      this.inFlight.splice(this.inFlight.indexOf(flight), 1);
      this.pump();
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
