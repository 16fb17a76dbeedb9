import { isIP } from 'node:net';
import type { AppContext } from '../context';
import { createEmailSender, type EmailMessage, type EmailSender } from './email';
import { smsProviderFromConfig, type SmsProvider } from './sms';
import { postWebhook, webhookId, type WebhookTarget } from './webhook';
import { checkedAddresses, checkedLookup, systemResolver, webhookUrlProblem, WEBHOOK_TARGET_MESSAGE, type Resolver } from './webhook-target';
import { nextAttemptAt } from './backoff';

/** A claimed row is hidden from other dispatchers this long (a crashed process's rows come back after it); OUTBOX_LEASE_MS. */
export const LEASE_MS = 120_000;
const BATCH = 25;
/** Rows of channels with no provider configured, kept in one statement at most this many at a time. */
const KEEP_BATCH = 500;

interface OutboxRow {
  id: string;
  channel: 'email' | 'sms' | 'webhook';
  recipient: string;
  payload: Record<string, unknown>;
  attempts: number;
  created_at: number;
}

type Outcome = { status: 'sent' } | { status: 'kept' } | { status: 'retry'; error: string } | { status: 'failed'; error: string };

export interface DispatcherOptions {
  now?: () => number;
  pollMs?: number;
  email?: EmailSender;
  sms?: SmsProvider;
  /** Name resolution for webhooks (tests pass a stub); every connection uses the addresses it checked. */
  resolve?: Resolver;
  /** How long a claimed row is leased (default: the configured OUTBOX_LEASE_MS, else LEASE_MS). */
  leaseMs?: number;
}

/**
 * Delivers the outbox. Rows are claimed with FOR UPDATE SKIP LOCKED and leased by moving their
 * next attempt forward, so several server processes on one PostgreSQL never deliver a row at the
 * same time; PGlite is one process and one connection, so there it simply runs in turn.
 * Delivery is at least once: a webhook receiver de-duplicates on the constant webhook-id.
 */
export function createDispatcher(ctx: AppContext, opts: DispatcherOptions = {}) {
  const now = opts.now ?? ctx.now;
  const ownEmail = opts.email ? undefined : createEmailSender(ctx.config);
  const email = opts.email ?? ownEmail;
  const sms = opts.sms ?? smsProviderFromConfig(ctx.config);
  const resolve = opts.resolve ?? systemResolver;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<number> | undefined;
  let stopped = false;

  async function claim(): Promise<OutboxRow[]> {
    const t = now();
    return ctx.db.query<OutboxRow>(
      `UPDATE outbox SET next_attempt_at = $2 WHERE id IN (
         SELECT id FROM outbox WHERE status = 'pending' AND next_attempt_at <= $1
         ORDER BY next_attempt_at LIMIT $3 FOR UPDATE SKIP LOCKED)
       RETURNING id, channel, recipient, payload, attempts, created_at`,
      [t, t + (opts.leaseMs ?? ctx.config.OUTBOX_LEASE_MS ?? LEASE_MS), BATCH],
    );
  }

  /**
   * Keeps the due rows of the channels with no provider configured (email without SMTP, SMS
   * without a provider): readable at /dev/mailbox, nothing to deliver. One statement for up to
   * KEEP_BATCH rows, where claiming and settling them one by one took a statement a row: with an
   * alert stream's email rows at hundreds a second, a pass was bursts of hundreds of statements
   * that took PostgreSQL CPU and pool connections from the ingest every 1 to 2 s (the ingest
   * benchmark over MQTT at 5,000 uplinks/s). SKIP LOCKED, as the claim: several processes never
   * keep the same row twice.
   */
  async function keepUndeliverable(): Promise<number> {
    const channels = [...(email ? [] : ['email']), ...(sms ? [] : ['sms'])];
    if (!channels.length) return 0;
    const t = now();
    const rows = await ctx.db.query(
      `UPDATE outbox SET status = 'kept', attempts = attempts + 1, sent_at = $1, last_error = NULL WHERE id IN (
         SELECT id FROM outbox WHERE status = 'pending' AND next_attempt_at <= $1 AND channel = ANY($2::text[])
         ORDER BY next_attempt_at LIMIT $3 FOR UPDATE SKIP LOCKED)
       RETURNING id`,
      [t, channels, KEEP_BATCH],
    );
    return rows.length;
  }

  async function deliver(row: OutboxRow): Promise<Outcome> {
    try {
      if (row.channel === 'email') {
        if (!email) return { status: 'kept' };
        await email.send(row.recipient, row.payload as unknown as EmailMessage);
        return { status: 'sent' };
      }
      if (row.channel === 'sms') {
        if (!sms) return { status: 'kept' };
        await sms.send(row.recipient, String(row.payload.text ?? ''));
        return { status: 'sent' };
      }
      const hook = (
        await ctx.db.query<WebhookTarget>(`SELECT url, headers, secret FROM integrations WHERE id = $1`, [row.recipient])
      )[0];
      if (!hook) return { status: 'failed', error: 'The webhook integration was removed.' };
      const allowPrivate = ctx.config.WEBHOOK_ALLOW_PRIVATE_NETWORKS;
      try {
        const problem = webhookUrlProblem(hook.url, allowPrivate);
        if (problem) return { status: 'failed', error: problem };
        if (!allowPrivate) {
          // a literal IP never reaches the lookup hook: it is checked here, and it cannot change
          const host = new URL(hook.url).hostname.replace(/^\[|\]$/g, '');
          if (isIP(host)) await checkedAddresses(host, resolve, false);
        }
        await postWebhook(hook, webhookId(row.id), JSON.stringify(row.payload.event), now(), { lookup: checkedLookup(resolve, allowPrivate) });
      } catch (err) {
        const message = (err as Error).message;
        // an internal target is refused for good; a name that does not resolve may come back
        return message.startsWith(WEBHOOK_TARGET_MESSAGE) ? { status: 'failed', error: message } : { status: 'retry', error: message || String(err) };
      }
      return { status: 'sent' };
    } catch (err) {
      return { status: 'retry', error: (err as Error).message || String(err) };
    }
  }

  async function settle(row: OutboxRow, outcome: Outcome) {
    const t = now();
    if (outcome.status === 'sent' || outcome.status === 'kept') {
      await ctx.db.query(`UPDATE outbox SET status = $2, attempts = attempts + 1, sent_at = $3, last_error = NULL WHERE id = $1`, [row.id, outcome.status, t]);
      return;
    }
    const attempts = row.attempts + 1;
    const at = outcome.status === 'retry' ? nextAttemptAt(attempts, row.created_at, t) : undefined;
    if (at === undefined) {
      ctx.log.warn({ id: row.id, channel: row.channel, attempts, error: outcome.error }, 'delivery failed for good');
      await ctx.db.query(`UPDATE outbox SET status = 'failed', attempts = $2, last_error = $3 WHERE id = $1`, [row.id, attempts, outcome.error]);
    } else {
      await ctx.db.query(`UPDATE outbox SET attempts = $2, last_error = $3, next_attempt_at = $4 WHERE id = $1`, [row.id, attempts, outcome.error, at]);
    }
  }

  /** Delivers everything due now; resolves with how many rows it handled. */
  async function runOnce(): Promise<number> {
    if (running) return running;
    running = (async () => {
      let handled = 0;
      for (;;) {
        const kept = await keepUndeliverable();
        // claimed once none of them is left due, so a claim does not take them one by one
        const rows = kept < KEEP_BATCH ? await claim() : [];
        await Promise.all(rows.map(async (r) => settle(r, await deliver(r))));
        handled += kept + rows.length;
        if ((rows.length < BATCH && kept < KEEP_BATCH) || stopped) return handled;
      }
    })().finally(() => (running = undefined));
    return running;
  }

  const tick = () => {
    runOnce()
      .catch((err) => ctx.log.error({ err }, 'outbox dispatch failed'))
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, opts.pollMs ?? 1000);
      });
  };

  return {
    runOnce,
    start() {
      stopped = false;
      timer = setTimeout(tick, 0);
      return this;
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running?.catch(() => {});
      ownEmail?.close();
    },
  };
}
