import type { Config } from '../config';
import { HttpError } from './errors';

/** Heavy work a request may hold a share of: a measurement page, a route import, a long reading list. */
export interface FairShareLimits {
  /** Heavy calls one user runs at once; more wait their turn (HEAVY_PER_USER). */
  perUser: number;
  /** Heavy calls one organisation runs at once, all its members together (HEAVY_PER_ORG). */
  perOrg: number;
  /** Calls one user may have waiting; past it the answer is 429 (a loop of requests gains nothing). */
  waitingPerUser: number;
  /** Above this resident memory (bytes) heavy work is refused with 503 instead of growing (MEMORY_CEILING_MB). */
  memoryCeiling: number;
}

/** Retry-After seconds of the refusals: a queue full now is likely to have room in a second; memory takes longer. */
export const BUSY_RETRY_AFTER_S = 1;
export const MEMORY_RETRY_AFTER_S = 5;

export const tooBusy = () =>
  new HttpError(429, 'TOO_MANY_REQUESTS', 'Too many large requests at once from this account; try again in a moment.', { 'Retry-After': String(BUSY_RETRY_AFTER_S) });
export const overMemory = () =>
  new HttpError(503, 'SERVER_BUSY', 'The server is busy; try again in a moment.', { 'Retry-After': String(MEMORY_RETRY_AFTER_S) });

interface Waiter {
  user: string;
  org: string;
  start: () => void;
}

/**
 * Fair shares of heavy work (OWASP API4): each user runs at most `perUser` heavy calls at once and
 * each organisation at most `perOrg`; the rest wait in arrival order, a waiter starting as soon as
 * both its user and its organisation have room (a user's waiting calls hold no place from other
 * users, of its organisation or another). A user with `waitingPerUser` calls already waiting is refused with 429,
 * and above the memory ceiling heavy work is refused with 503, both with Retry-After.
 */
export class FairShare {
  private readonly runningByUser = new Map<string, number>();
  private readonly runningByOrg = new Map<string, number>();
  private readonly waitingByUser = new Map<string, number>();
  private readonly queue: Waiter[] = [];

  constructor(
    private readonly limits: FairShareLimits,
    private readonly memoryUsed: () => number = () => process.memoryUsage.rss(),
  ) {}

  /** Runs `work` within the caller's share; refuses (throws HttpError 429 or 503) when it cannot. */
  async run<T>(user: string, org: string, work: () => Promise<T>): Promise<T> {
    const release = await this.acquire(user, org);
    try {
      return await work();
    } finally {
      release();
    }
  }

  /** A slot for heavy work, resolved when there is room: call the returned function when done. */
  acquire(user: string, org: string): Promise<() => void> {
    if (this.memoryUsed() > this.limits.memoryCeiling) return Promise.reject(overMemory());
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      dec(this.runningByUser, user);
      dec(this.runningByOrg, org);
      this.startWaiters();
    };
    if (this.hasRoom(user, org) && !this.waitingByUser.has(user)) {
      this.take(user, org);
      return Promise.resolve(release);
    }
    if ((this.waitingByUser.get(user) ?? 0) >= this.limits.waitingPerUser) return Promise.reject(tooBusy());
    inc(this.waitingByUser, user);
    return new Promise((resolve) => {
      this.queue.push({ user, org, start: () => resolve(release) });
      this.startWaiters(); // a waiter ahead of it may be held by its own user's limit, not this one
    });
  }

  /** Heavy calls running and waiting now (for tests and logs). */
  get load() {
    return { running: sum(this.runningByUser), waiting: this.queue.length };
  }

  private hasRoom(user: string, org: string) {
    return (this.runningByUser.get(user) ?? 0) < this.limits.perUser && (this.runningByOrg.get(org) ?? 0) < this.limits.perOrg;
  }

  private take(user: string, org: string) {
    inc(this.runningByUser, user);
    inc(this.runningByOrg, org);
  }

  private startWaiters() {
    for (let i = 0; i < this.queue.length; ) {
      const w = this.queue[i];
      if (!this.hasRoom(w.user, w.org)) {
        i++;
        continue;
      }
      this.queue.splice(i, 1);
      dec(this.waitingByUser, w.user);
      this.take(w.user, w.org);
      w.start();
    }
  }
}

const inc = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);
const dec = (m: Map<string, number>, k: string) => {
  const n = (m.get(k) ?? 0) - 1;
  if (n > 0) m.set(k, n);
  else m.delete(k);
};
const sum = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);

const shares = new WeakMap<object, FairShare>();

/** The process's one FairShare for a configuration (the app's routes and the direct listeners share it). */
export function fairShareOf(config: Pick<Config, 'HEAVY_PER_USER' | 'HEAVY_PER_ORG' | 'HEAVY_WAITING_PER_USER' | 'MEMORY_CEILING_MB'>): FairShare {
  let share = shares.get(config);
  if (!share) {
    share = new FairShare({
      perUser: config.HEAVY_PER_USER,
      perOrg: config.HEAVY_PER_ORG,
      waitingPerUser: config.HEAVY_WAITING_PER_USER,
      memoryCeiling: config.MEMORY_CEILING_MB * 1024 * 1024,
    });
    shares.set(config, share);
  }
  return share;
}
