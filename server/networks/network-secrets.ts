import { randomBytes } from 'node:crypto';
import type { Queryable } from '../db/db';

export const NETWORKS = ['sigfox', 'myriota'] as const;
export type Network = (typeof NETWORKS)[number];

/** The header a network's callback sends the organisation's secret in (Sigfox: a custom callback header). */
export const SECRET_HEADER_NAME = 'X-Tidewatch-Secret';
export const SECRET_HEADER = SECRET_HEADER_NAME.toLowerCase();

/** 32 random bytes, URL-safe (Myriota's destination takes the secret in its URL). */
export const newSecret = () => randomBytes(32).toString('base64url');

/** The organisation whose secret for the network this is, or undefined. */
export async function orgOfSecret(q: Queryable, network: Network, secret: string | undefined): Promise<string | undefined> {
  // only what newSecret makes can match: anything else (NUL bytes, a huge header) never reaches the database
  if (!secret || !/^[A-Za-z0-9_-]{1,200}$/.test(secret)) return undefined;
  return (await q.query<{ org_id: string }>('SELECT org_id FROM network_secrets WHERE network = $1 AND secret = $2', [network, secret]))[0]?.org_id;
}

/** The organisation's secret per network, made on first read. */
export async function secretsOf(q: Queryable, orgId: string, now: number): Promise<Record<Network, { secret: string; updatedAt: number }>> {
  for (const network of NETWORKS) {
    await q.query('INSERT INTO network_secrets (org_id, network, secret, updated_at) VALUES ($1, $2, $3, $4) ON CONFLICT (org_id, network) DO NOTHING', [orgId, network, newSecret(), now]);
  }
  const rows = await q.query<{ network: Network; secret: string; updated_at: number }>('SELECT network, secret, updated_at FROM network_secrets WHERE org_id = $1', [orgId]);
  return Object.fromEntries(rows.map((r) => [r.network, { secret: r.secret, updatedAt: Number(r.updated_at) }])) as Record<Network, { secret: string; updatedAt: number }>;
}

/** A new secret for the network; the old one stops working with this statement's commit. */
export async function regenerateSecret(q: Queryable, orgId: string, network: Network, now: number): Promise<string> {
  const secret = newSecret();
  await q.query(
    `INSERT INTO network_secrets (org_id, network, secret, updated_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (org_id, network) DO UPDATE SET secret = EXCLUDED.secret, updated_at = EXCLUDED.updated_at`,
    [orgId, network, secret, now],
  );
  return secret;
}
