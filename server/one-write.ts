import type { Writable } from 'node:stream';

const corked = new WeakSet<Writable>();

/**
 * What is written to `stream` for the rest of this turn of the event loop leaves in one write when
 * the turn ends (cork now, uncork on the next tick). On loopback each write is a system call that
 * also does the receiver's TCP work and wakes it, so a batch's many small writes cost more than
 * one: the ingest connection's acks and PUBACKs, a transaction's statements to PostgreSQL.
 */
export function oneWriteThisTurn(stream: Writable) {
  if (corked.has(stream)) return;
  corked.add(stream);
  stream.cork();
  process.nextTick(() => {
    if (corked.delete(stream)) stream.uncork();
  });
}

/** Writes at once what this turn corked on `stream` (before it is destroyed, which would drop it). */
export function writeNow(stream: Writable) {
  if (corked.delete(stream)) stream.uncork();
}
