import { createHmac, randomBytes } from 'node:crypto';

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

/**
 * POSTs one event. The integration's own headers go first so they cannot replace the signature
 * headers. Resolves on a 2xx answer; throws with the status otherwise (the dispatcher retries).
 */
export async function postWebhook(target: WebhookTarget, id: string, body: string, nowMs: number, fetchImpl: typeof fetch = fetch) {
  const ts = Math.floor(nowMs / 1000);
  const headers = new Headers();
  for (const h of target.headers) headers.set(h.key, h.value);
  headers.set('content-type', 'application/json');
  headers.set('user-agent', 'Tidewatch-Webhooks/1');
  headers.set('webhook-id', id);
  headers.set('webhook-timestamp', String(ts));
  headers.set('webhook-signature', signWebhook(target.secret, id, ts, body));
  const res = await fetchImpl(target.url, { method: 'POST', headers, body, redirect: 'manual', signal: AbortSignal.timeout(10_000) });
  await res.body?.cancel().catch(() => {});
  if (res.status < 200 || res.status > 299) throw new Error(`HTTP ${res.status}`);
}
