import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Password hashing (scrypt, 128 MiB, a few hundred ms of CPU) is the one expensive thing an
 * unsigned caller can make us do, so it runs here: at most `concurrency` at once, each client
 * (address) at most half of them, and when a slot frees the next client in turn goes first
 * (round robin), so a flood from one address waits behind itself while everyone else's
 * sign-in starts at once. A client with too much already waiting is refused outright.
 */
export class HashQueueFull extends Error {}

const who = new AsyncLocalStorage<string>();

/** Runs fn with every hash inside it counted against this client. */
export const asClient = <T>(client: string, fn: () => Promise<T>) => who.run(client, fn);

interface Job {
  start: () => void;
}

export const MAX_WAITING_PER_CLIENT = 32;

class FairQueue {
  concurrency = 2;
  private running = new Map<string, number>();
  private total = 0;
  private waiting = new Map<string, Job[]>(); // insertion order is the round-robin order

  private perClient() {
    return Math.max(1, Math.floor(this.concurrency / 2));
  }

  async run<T>(fn: () => Promise<T>): Promise<T> {
    const client = who.getStore() ?? 'server';
    if (this.total >= this.concurrency || (this.running.get(client) ?? 0) >= this.perClient()) {
      const list = this.waiting.get(client) ?? [];
      if (list.length >= MAX_WAITING_PER_CLIENT) throw new HashQueueFull('Too many password checks waiting for this client.');
      await new Promise<void>((start) => {
        list.push({ start });
        this.waiting.set(client, list);
      });
    } else this.take(client);
    try {
      return await fn();
    } finally {
      this.release(client);
    }
  }

  private take(client: string) {
    this.total += 1;
    this.running.set(client, (this.running.get(client) ?? 0) + 1);
  }

  private release(client: string) {
    this.total -= 1;
    const n = (this.running.get(client) ?? 1) - 1;
    if (n) this.running.set(client, n);
    else this.running.delete(client);
    this.next();
  }

  /** Starts waiting jobs while there is room, visiting clients in turn. */
  private next(): void {
    for (const [client, list] of this.waiting) {
      if (this.total >= this.concurrency) return;
      if ((this.running.get(client) ?? 0) >= this.perClient()) continue;
      const job = list.shift()!;
      // move the client to the back of the turn order (or drop it when it has nothing left)
      this.waiting.delete(client);
      if (list.length) this.waiting.set(client, list);
      this.take(client);
      job.start();
      return this.next();
    }
  }
}

export const hashQueue = new FairQueue();
