import { randomBytes, randomUUID } from 'node:crypto';
import type { Queryable } from '../db/db';
import { DEMO_ACCOUNTS, DEMO_INVITATION, DEMO_ORGS, type AccountKey, type OrgKey } from './demo-people';

const DAY = 86_400_000;

/** Inserts the two organisations; Riverbend Water gets REST API credentials. */
export async function insertOrgs(q: Queryable, anchor: number): Promise<Record<OrgKey, string>> {
  const ids = {} as Record<OrgKey, string>;
  for (const [i, o] of DEMO_ORGS.entries()) {
    ids[o.key] = randomUUID();
    const restApi = o.restApi ? { key: randomBytes(15).toString('base64url'), token: randomBytes(24).toString('hex') } : null;
    await q.query(
      `INSERT INTO organisations (id, slug, name, features, rest_api, created_at) VALUES ($1, $2, $3, $4, $5, $6)`,
      [ids[o.key], o.slug, o.name, JSON.stringify(o.features), restApi && JSON.stringify(restApi), anchor - (400 - i * 30) * DAY],
    );
  }
  return ids;
}

/** Inserts the five accounts (already hashed), their memberships and rules, and the pending invitation. */
export async function insertPeople(q: Queryable, orgs: Record<OrgKey, string>, hashes: string[], anchor: number): Promise<Record<AccountKey, string>> {
  const ids = {} as Record<AccountKey, string>;
  for (const [i, a] of DEMO_ACCOUNTS.entries()) {
    ids[a.key] = randomUUID();
    await q.query(
      `INSERT INTO users (id, email, name, mobile, password_hash, status, email_verified, is_site_admin, profile_created, created_at)
       VALUES ($1, $2, $3, $4, $5, 'CONFIRMED', true, $6, true, $7)`,
      [ids[a.key], a.email, a.name, a.mobile, hashes[i], a.isSiteAdmin, anchor - (390 - i * 20) * DAY],
    );
    for (const [org, role] of Object.entries(a.roles) as [OrgKey, number][]) {
      const rule = a.rules?.[org];
      await q.query(`INSERT INTO memberships (org_id, user_id, role, notification_rule, created_at) VALUES ($1, $2, $3, $4, $5)`, [
        orgs[org],
        ids[a.key],
        role,
        rule ? JSON.stringify(rule) : null,
        anchor - (380 - i * 20) * DAY,
      ]);
    }
  }
  const inv = DEMO_INVITATION;
  const at = anchor - inv.daysAgo * DAY;
  await q.query(
    `INSERT INTO invitations (id, org_id, email, name, role, invited_by, last_invite_at, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $7)`,
    [randomUUID(), orgs[inv.org], inv.email, inv.name, inv.role, ids[inv.invitedBy], at],
  );
  return ids;
}
