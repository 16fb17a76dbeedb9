import pg from 'pg';
import type { Logger } from '../log';

/** The PostgreSQL channel every process listens on. */
export const MEMBERSHIP_CHANNEL = 'tidewatch_membership_ended';
const RETRY_MS = 1_000;

export interface MembershipBus {
  /** A membership ended (removed, or made meter reader) on this process: every process closes that user's live connections to the organisation. */
  ended(userId: string, orgId: string): void;
  /** How many notices from the bus this process has acted on (tests, diagnostics). */
  received(): number;
  close(): Promise<void>;
}

/**
 * Cross-process "membership ended" (issue 17): removing a member, or making them a meter reader,
 * on process A closes their live MQTT connections on every process at once, not at the next
 * 60-second re-check. With PostgreSQL, A sends NOTIFY on one channel after the change commits and
 * each process (A included) LISTENs on its own connection and closes the user's connections to
 * that organisation. Without PostgreSQL (PGlite) there is only one process: it closes them itself.
 * The broker's periodic re-check stays as the fallback (a notice lost while a listener reconnects).
 */
export async function createMembershipBus(opts: { databaseUrl?: string; log: Logger; onEnded(userId: string, orgId: string): void }): Promise<MembershipBus> {
  let count = 0;
  const act = (userId: string, orgId: string) => {
    count++;
    opts.onEnded(userId, orgId);
  };
  if (!opts.databaseUrl) return { ended: act, received: () => count, close: async () => {} };

  const url = opts.databaseUrl;
  let listener: pg.Client | undefined;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;
  // NOTIFY goes over its own small pool: the listener's connection only listens
  const sender = new pg.Pool({ connectionString: url, max: 2 });
  sender.on('error', () => {});

  async function listen() {
    const c = new pg.Client({ connectionString: url });
    c.on('notification', (n) => {
      if (n.channel !== MEMBERSHIP_CHANNEL || !n.payload) return;
      try {
        const { userId, orgId } = JSON.parse(n.payload) as { userId?: unknown; orgId?: unknown };
        if (typeof userId === 'string' && typeof orgId === 'string') act(userId, orgId);
      } catch {
        opts.log.warn({ payload: n.payload }, 'malformed membership notice');
      }
    });
    c.on('error', (err) => {
      opts.log.warn({ err }, 'membership listener lost; reconnecting');
      void c.end().catch(() => {});
      if (listener === c) listener = undefined;
      if (!closed) retry = setTimeout(() => void listen().catch(() => {}), RETRY_MS);
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${MEMBERSHIP_CHANNEL}`);
      listener = c;
    } catch (err) {
      void c.end().catch(() => {});
      if (!closed) retry = setTimeout(() => void listen().catch(() => {}), RETRY_MS);
      throw err;
    }
  }
  await listen();

  return {
    ended(userId, orgId) {
      // this process at once; the others when the notice arrives (this one's copy closes nothing more)
      opts.onEnded(userId, orgId);
      sender.query('SELECT pg_notify($1, $2)', [MEMBERSHIP_CHANNEL, JSON.stringify({ userId, orgId })]).catch((err) => {
        opts.log.warn({ err }, 'membership notice not sent; other processes close at their re-check');
      });
    },
    received: () => count,
    async close() {
      closed = true;
      clearTimeout(retry);
      await listener?.end().catch(() => {});
      await sender.end().catch(() => {});
    },
  };
}
