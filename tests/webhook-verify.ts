import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Standard Webhooks verification as a receiver does it, with the secret the settings show and
 * independent of the server's signer: HMAC-SHA256 of `id.timestamp.body` under the secret's
 * base64 key, matched against any `v1,` entry of the space-separated webhook-signature header.
 * The server delivery suites and the browser webhooks test all check signatures through it.
 */
export function verifiesWebhook(secret: string, headers: Record<string, string | string[] | undefined>, body: string) {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(`${headers['webhook-id']}.${headers['webhook-timestamp']}.${body}`).digest();
  return String(headers['webhook-signature'] ?? '')
    .split(' ')
    .some((part) => {
      const [v, sig] = part.split(',');
      const got = Buffer.from(sig ?? '', 'base64');
      return v === 'v1' && got.length === expected.length && timingSafeEqual(got, expected);
    });
}
