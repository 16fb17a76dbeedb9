import { createHmac, randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { isReservedWebhookHeader } from '../../src/contract/live.schema';

/** A new Standard Webhooks signing secret: 'whsec_' + base64 of 24 random bytes. */
export const newWebhookSecret = () => `whsec_${randomBytes(24).toString('base64')}`;

/** The Standard Webhooks signature header value: "v1,<base64 HMAC-SHA256 of id.timestamp.body>". */
export function signWebhook(secret: string, id: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`).digest('base64')}`;
}

export interface WebhookTarget {
  url: string;
  headers: { key: string; value: string }[];
  secret: string;
}

/** The webhook-id of an outbox row: constant across retries so receivers can de-duplicate on it. */
export const webhookId = (outboxId: string) => `msg_${outboxId.replace(/-/g, '')}`;

export interface PostOptions {
  /** How the connection finds its address: `checkedLookup` so that only checked addresses are reached. */
  lookup?: LookupFunction;
  timeoutMs?: number;
}

/**
 * POSTs one event. The integration's own headers go first so they cannot replace the signature
 * headers, and reserved names (Host, Content-Length and the like) are never taken from it. Resolves on a 2xx answer; throws with the status otherwise (the dispatcher retries).
 * node:http rather than fetch: its `lookup` hook is what ties the connection to the checked address,
 * a literal IP included (checked by the caller, and it cannot change), and it follows no redirects.
 */
export async function postWebhook(target: WebhookTarget, id: string, body: string, nowMs: number, opts: PostOptions = {}) {
  const ts = Math.floor(nowMs / 1000);
  const headers = new Headers();
  // reserved names are refused at save; a row saved before that rule is left out, never sent
  for (const h of target.headers) if (!isReservedWebhookHeader(h.key)) headers.set(h.key, h.value);
  // reserved too (refused at save): the signed body is JSON, and the sender names itself
  headers.set('content-type', 'application/json');
  headers.set('user-agent', 'Tidewatch-Webhooks/1');
  headers.set('webhook-id', id);
  headers.set('webhook-timestamp', String(ts));
  headers.set('webhook-signature', signWebhook(target.secret, id, ts, body));
  const url = new URL(target.url);
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  const status = await new Promise<number>((resolve, reject) => {
    const req = send(url, {
      method: 'POST',
      headers: { ...Object.fromEntries(headers), 'content-length': String(Buffer.byteLength(body)) },
      lookup: opts.lookup,
      agent: false, // a fresh connection each time: no pooled socket outlives its check
      signal: AbortSignal.timeout(opts.timeoutMs ?? 10_000),
    });
    req.on('response', (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end(body);
  });
  if (status < 200 || status > 299) throw new Error(`HTTP ${status}`);
}
