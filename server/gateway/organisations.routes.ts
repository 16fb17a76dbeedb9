import { Hono } from 'hono';
import type { AppContext } from '../context';
import { publicOrigin } from '../http/origin';
import { MANAGERS, ROLE, requireMember, type GatewayEnv } from '../http/auth';
import { organisationListSchema, type Organisation } from '../../src/contract/organisation.schema';
import { inviteQuerySchema, inviteRequestSchema, resendInviteRequestSchema } from '../../src/contract/invitation.schema';
import { inviteMember, resendInvitation } from '../identity/invite';
import { normaliseTimeZone } from '../../src/domain/time-zone';
import { mfaMissingSql } from '../http/mfa-rule';

interface OrgRow {
  id: string;
  slug: string;
  name: string;
  role: Organisation['role'];
  measurement_unit: Organisation['measurementUnit'];
  locale: Organisation['locale'];
  features: Partial<Organisation['features']>;
  rest_api: { key: string; token: string } | null;
  radio_network_sensors: boolean;
  default_notification_rule: Organisation['defaultNotificationRule'];
  notification_settings: Organisation['notificationSettings'];
  former_slugs?: string[] | null;
  council_file_encoding?: Organisation['councilFileEncoding'];
  manager_mfa_required: boolean;
  mfa_missing: boolean;
}

/**
 * The columns of an OrgRow, over organisations `o` joined with the caller's membership `m`. (The
 * MFA columns: what the owner requires, and whether this caller lacks it here. The radio column:
 * whether any of its sensors needs the Sigfox or Myriota callbacks, found through sensors_org.)
 */
export const ORG_COLUMNS = `o.id, o.slug, o.name, m.role, o.measurement_unit, o.locale, o.features, o.rest_api,
  EXISTS (SELECT 1 FROM sensors rs WHERE rs.org_id = o.id AND rs.radio->>'type' IN ('sigfox', 'myriota')) AS radio_network_sensors,
  o.default_notification_rule, o.notification_settings, o.council_file_encoding,
  ARRAY(SELECT s.slug FROM organisation_slugs s WHERE s.org_id = o.id ORDER BY s.replaced_at DESC) AS former_slugs,
  o.manager_mfa_required, ${mfaMissingSql('m')} AS mfa_missing`;

/** A row of the caller's organisations as the contract gives it; REST credentials only for managers. */
export const toOrganisation = (r: OrgRow): Organisation => ({
  id: r.id,
  slug: r.slug,
  name: r.name,
  role: r.role,
  measurementUnit: r.measurement_unit,
  // a legacy abbreviation (NZST) would crash every client formatter: serve the IANA zone
  locale: { ...r.locale, timezone: normaliseTimeZone(r.locale?.timezone) },
  features: { isFuel: false, liveMode: false, meterReading: false, ...r.features },
  restApi: r.role === ROLE.ADMIN || r.role === ROLE.OWNER ? r.rest_api : null,
  radioNetworkSensors: r.radio_network_sensors,
  defaultNotificationRule: r.default_notification_rule,
  notificationSettings: r.notification_settings,
  formerSlugs: r.former_slugs ?? [],
  councilFileEncoding: r.council_file_encoding ?? 'UTF-8',
  managerMfaRequired: r.manager_mfa_required,
  // the organisation's data is refused (403 MFA_REQUIRED) until this caller turns MFA on
  mfaSetupNeeded: r.mfa_missing,
});

export function organisationRoutes(ctx: AppContext) {
  const r = new Hono<GatewayEnv>();

  r.get('/organisations', async (c) => {
    const rows = await ctx.db.query<OrgRow>(
      `SELECT ${ORG_COLUMNS}
       FROM memberships m JOIN organisations o ON o.id = m.org_id
       WHERE m.user_id = $1 ORDER BY lower(o.name), o.id`,
      [c.get('caller').id],
    );
    return c.json(organisationListSchema.parse({ organisations: rows.map(toOrganisation) }));
  });

  r.post('/organisations/:orgId/invite', async (c) => {
    const orgId = c.req.param('orgId');
    await requireMember(ctx, c, orgId, MANAGERS);
    const { resend } = inviteQuerySchema.parse(c.req.query());
    const origin = publicOrigin(ctx, c.req.url);
    const inviterId = c.get('caller').id;
    const json = await c.req.json();
    if (resend === 'true') return c.json(await resendInvitation(ctx, orgId, inviterId, resendInviteRequestSchema.parse(json).email, origin));
    return c.json(await inviteMember(ctx, orgId, inviterId, inviteRequestSchema.parse(json), origin));
  });
  return r;
}
