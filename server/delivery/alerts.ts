import type { Queryable } from '../db/db';
import type { SensorNotification } from '../../src/contract/notification.schema';
import type { WebhookEvent } from '../../src/contract/live.schema';
import { enqueue, enqueueMany, type EmailPayload, type OutboxRow } from './outbox';
import { alertSubject, describeAlert, type AlertEventType } from './alert-text';

export interface AlertSensor {
  id: string;
  serial: string;
  name: string;
  org_id: string | null;
}

type Rule = { email: boolean; sms: boolean };

interface OrgRow {
  name: string;
  slug: string;
  measurement_unit: string;
  notification_settings: { alertAssert: Rule; alertClear: Rule };
  default_notification_rule: Rule;
}

/** One alert event: a notification opened (triggered) or closed (cleared) for a sensor. */
export interface AlertEvent {
  type: AlertEventType;
  sensor: AlertSensor;
  n: SensorNotification;
  now: number;
}

/**
 * Queues everything an alert event sends, in the transaction that opened or closed the
 * notification: email and SMS for each member whose rule (or the organisation's default rule)
 * asks for it, when the organisation's settings for that event allow the channel; SMS only to
 * members with a mobile; meter readers never. Plus one signed webhook per integration.
 */
export const enqueueAlertDelivery = (q: Queryable, type: AlertEventType, sensor: AlertSensor, n: SensorNotification, now: number) => enqueueAlertDeliveries(q, [{ type, sensor, n, now }]);

/** Who an organisation's alert events go to: the organisations, their members (by email) and webhook integrations. */
export interface AlertAudience {
  orgs: (OrgRow & { id: string })[];
  members: { org_id: string; email: string; mobile: string | null; notification_rule: Rule | null }[];
  hooks: { org_id: string; id: string }[];
}

/**
 * The audience of the organisations `$n` (a uuid[] parameter) names, as one row of three JSON
 * columns (orgs, members, hooks; null for none), to be read as a part of a larger statement.
 */
export const alertAudienceColumns = (n: number) => `
  (SELECT json_agg(json_build_object('id', id, 'name', name, 'slug', slug, 'measurement_unit', measurement_unit, 'notification_settings', notification_settings,
     'default_notification_rule', default_notification_rule)) FROM organisations WHERE id = ANY($${n}::uuid[])) AS orgs,
  (SELECT json_agg(json_build_object('org_id', m.org_id, 'email', u.email, 'mobile', u.mobile, 'notification_rule', m.notification_rule) ORDER BY u.email)
     FROM memberships m JOIN users u ON u.id = m.user_id WHERE m.org_id = ANY($${n}::uuid[]) AND m.role BETWEEN 1 AND 3) AS members,
  (SELECT json_agg(json_build_object('org_id', org_id, 'id', id)) FROM integrations WHERE org_id = ANY($${n}::uuid[]) AND type = 'webhook') AS hooks`;

/** The audience from a row of `alertAudienceColumns`. */
export const alertAudienceOf = (row: { orgs: AlertAudience['orgs'] | null; members: AlertAudience['members'] | null; hooks: AlertAudience['hooks'] | null }): AlertAudience => ({
  orgs: row.orgs ?? [],
  members: row.members ?? [],
  hooks: row.hooks ?? [],
});

/**
 * The same for many events (an ingest batch): one read of their organisations, members and
 * webhooks (none when the caller read them already, `audience`), one insert.
 */
export async function enqueueAlertDeliveries(q: Queryable, events: AlertEvent[], audience?: AlertAudience) {
  const orgIds = [...new Set(events.map((e) => e.sensor.org_id).filter((id): id is string => !!id))];
  if (!orgIds.length) return;
  const who = audience ?? alertAudienceOf((await q.query<Parameters<typeof alertAudienceOf>[0]>(`SELECT ${alertAudienceColumns(1)}`, [orgIds]))[0]);
  await enqueueMany(q, alertDeliveryRows(events, who));
}

/** The outbox rows of alert events, in order, for their organisations' audience. */
export function alertDeliveryRows(events: AlertEvent[], { orgs: orgRows, members, hooks }: AlertAudience): OutboxRow[] {
  const orgs = new Map(orgRows.map((o) => [o.id, o]));
  const rows: OutboxRow[] = [];
  for (const { type, sensor, n, now } of events) {
    const org = sensor.org_id ? orgs.get(sensor.org_id) : undefined;
    if (!org || !sensor.org_id) continue;
    const setting = type === 'alert.triggered' ? org.notification_settings?.alertAssert : org.notification_settings?.alertClear;
    const text = `${sensor.name} (${sensor.serial}), ${org.name}: ${describeAlert(n, org.measurement_unit)}`;
    const subject = alertSubject(type, n, sensor);
    const kind = type === 'alert.triggered' ? 'alert-triggered' : 'alert-cleared';
    if (setting?.email || setting?.sms) {
      for (const m of members.filter((x) => x.org_id === sensor.org_id)) {
        const rule = m.notification_rule ?? org.default_notification_rule;
        if (setting.email && rule?.email) {
          const email: EmailPayload & AlertRefs = { kind, subject, text, path: viewPath(org.slug, sensor.serial, n), notificationId: n.id };
          rows.push({ channel: 'email', recipient: m.email.toLowerCase(), payload: email, at: now });
        }
        if (setting.sms && rule?.sms && m.mobile) {
          rows.push({ channel: 'sms', recipient: m.mobile, payload: { kind, text: `${subject}. ${describeAlert(n, org.measurement_unit)}`, notificationId: n.id }, at: now });
        }
      }
    }
    const event: Omit<WebhookEvent, 'timestamp'> = { type, organisationId: sensor.org_id, notification: n, sensor: { id: sensor.id, serial: sensor.serial, name: sensor.name } };
    for (const h of hooks.filter((x) => x.org_id === sensor.org_id)) rows.push({ channel: 'webhook', recipient: h.id, payload: { event: { ...event, timestamp: new Date(now).toISOString() } }, at: now });
  }
  return rows;
}

/** One outbox row per webhook integration of the organisation; the row id becomes the webhook-id. */
export async function enqueueWebhooks(q: Queryable, orgId: string, event: Omit<WebhookEvent, 'timestamp'>, now: number) {
  const hooks = await q.query<{ id: string }>(`SELECT id FROM integrations WHERE org_id = $1 AND type = 'webhook'`, [orgId]);
  for (const h of hooks) {
    const body: WebhookEvent = { ...event, timestamp: new Date(now).toISOString() };
    await enqueue(q, 'webhook', h.id, { event: body }, now);
  }
  return hooks.length;
}

/** Extra fields of an alert email: the app path the dispatcher turns into a link. */
export interface AlertRefs {
  path: string;
  notificationId: string;
}

/** The sensor chart around the notification (monitoring-client.md 2.8: 60 minutes either side). */
function viewPath(slug: string, serial: string, n: SensorNotification) {
  const start = n.startTime - 3_600_000;
  const end = (n.endTime ?? n.startTime) + 3_600_000;
  return `/org/${slug}/sensors/${serial}?start=${start}&end=${end}`;
}
