import { Hono } from 'hono';
import type { AppContext } from '../context';
import { one, type Queryable } from '../db/db';
import { MANAGERS, ROLE, requireMember, type GatewayEnv } from '../http/auth';
import { badRequest, conflict, notFound } from '../http/errors';
import { organisationSchema, organisationSecurityUpdateSchema } from '../../src/contract/organisation.schema';
import { organisationUpdateSchema } from '../../src/contract/member.schema';
import { checkOrganisationName } from '../../src/domain/sign-up-rules';
import { slugify } from '../identity/sign-up';
import { isUniqueViolation } from '../identity/identity-users';
import { ORG_COLUMNS, toOrganisation } from './organisations.routes';

/**
 * The slug a renamed organisation gets: its current one while the name still slugs to it (a
 * case or punctuation change), else the first free of base, base-2 ... Slugs another
 * organisation used before are not free either: their old links must keep finding it.
 */
async function slugFor(q: Queryable, orgId: string, current: string, name: string): Promise<string> {
  const base = slugify(name);
  if (current === base || new RegExp(`^${base}-[0-9]+$`).test(current)) return current;
  const taken = new Set(
    (
      await q.query<{ slug: string }>(
        `SELECT slug FROM organisations WHERE id <> $1 AND (slug = $2 OR slug LIKE $3)
         UNION SELECT slug FROM organisation_slugs WHERE org_id <> $1 AND (slug = $2 OR slug LIKE $3)`,
        [orgId, base, `${base}-%`],
      )
    ).map((r) => r.slug),
  );
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}

export function orgDetailsRoutes(ctx: AppContext) {
  const r = new Hono<GatewayEnv>();

  // PUT /organisations/{orgId}: name (trimmed, the four rules), unit, notification defaults and the council file encoding; managers only
  r.put('/organisations/:orgId', async (c) => {
    const orgId = c.req.param('orgId');
    await requireMember(ctx, c, orgId, MANAGERS);
    const body = organisationUpdateSchema.parse(await c.req.json());
    const name = checkOrganisationName(body.name);
    if (!name.ok) throw badRequest(name.error.code, name.error.message);
    const callerId = c.get('caller').id;
    for (let attempt = 0; ; attempt++) {
      try {
        const row = await ctx.db.tx(async (q) => {
          const org = await one<{ slug: string }>(q, 'SELECT slug FROM organisations WHERE id = $1 FOR UPDATE', [orgId]);
          if (!org) throw notFound('ORGANISATION_NOT_FOUND', 'Organisation not found.');
          const slug = await slugFor(q, orgId, org.slug, name.value);
          await q.query(
            `UPDATE organisations SET name = $2, slug = $3, measurement_unit = $4,
               default_notification_rule = COALESCE($5::jsonb, default_notification_rule),
               notification_settings = COALESCE($6::jsonb, notification_settings),
               council_file_encoding = COALESCE($7, council_file_encoding)
             WHERE id = $1`,
            [
              orgId,
              name.value,
              slug,
              body.measurementUnit,
              body.defaultNotificationRule ? JSON.stringify(body.defaultNotificationRule) : null,
              body.notificationSettings ? JSON.stringify(body.notificationSettings) : null,
              body.councilFileEncoding ?? null,
            ],
          );
          return one<Parameters<typeof toOrganisation>[0]>(
            q,
            `SELECT ${ORG_COLUMNS}
             FROM organisations o JOIN memberships m ON m.org_id = o.id AND m.user_id = $2 WHERE o.id = $1`,
            [orgId, callerId],
          );
        });
        if (!row) throw notFound('ORGANISATION_NOT_FOUND', 'Organisation not found.');
        return c.json(organisationSchema.parse(toOrganisation(row)));
      } catch (err) {
        // a concurrent rename took the slug between our read and write: pick again
        if (!isUniqueViolation(err)) throw err;
        if (attempt >= 3) throw conflict('SLUG_TAKEN', 'Another organisation took this name at the same moment; please try again.');
      }
    }
  });
  // PUT /organisations/{orgId}/security: the owner requires two-factor authentication of the
  // organisation's managers, or no longer does. Turning it on needs the owner's own MFA on, so the
  // owner cannot lock themself out of the organisation by the switch.
  r.put('/organisations/:orgId/security', async (c) => {
    const orgId = c.req.param('orgId');
    await requireMember(ctx, c, orgId, [ROLE.OWNER]);
    const body = organisationSecurityUpdateSchema.parse(await c.req.json());
    const callerId = c.get('caller').id;
    if (body.managerMfaRequired && !(await one(ctx.db, 'SELECT 1 FROM users WHERE id = $1 AND totp_enabled', [callerId])))
      throw conflict('MFA_NOT_SET_UP', 'Turn on two-factor authentication for your own account first (Account settings): the rule applies to you too.');
    await ctx.db.query('UPDATE organisations SET manager_mfa_required = $2 WHERE id = $1', [orgId, body.managerMfaRequired]);
    const row = await one<Parameters<typeof toOrganisation>[0]>(
      ctx.db,
      `SELECT ${ORG_COLUMNS} FROM organisations o JOIN memberships m ON m.org_id = o.id AND m.user_id = $2 WHERE o.id = $1`,
      [orgId, callerId],
    );
    if (!row) throw notFound('ORGANISATION_NOT_FOUND', 'Organisation not found.');
    return c.json(organisationSchema.parse(toOrganisation(row)));
  });
  return r;
}
