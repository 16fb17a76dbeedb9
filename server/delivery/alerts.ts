import type { Queryable } from '../db/db';
import type { SensorNotification } from '../../src/contract/notification.schema';
import type { WebhookEvent } from '../../src/contract/live.schema';
import { enqueue, type EmailPayload } from './outbox';
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

/**
 * Queues everything an alert event sends, in the transaction that opened or closed the
 * notification: email and SMS for each member whose rule (or the organisation's default rule)
 * asks for it, when the organisation's settings for that event allow the channel; SMS only to
 * members with a mobile; meter readers never. Plus one signed webhook per integration.
 */
export async function enqueueAlertDelivery(q: Queryable, type: AlertEventType, sensor: AlertSensor, n: SensorNotification, now: number) {
  if (!sensor.org_id) return;
  const org = (await q.query<OrgRow>('SELECT name, slug, measurement_unit, notification_settings, default_notification_rule FROM organisations WHERE id = $1', [sensor.org_id]))[0];
  if (!org) return;
  const setting = type === 'alert.triggered' ? org.notification_settings?.alertAssert : org.notification_settings?.alertClear;
  const text = `${sensor.name} (${sensor.serial}), ${org.name}: ${describeAlert(n, org.measurement_unit)}`;
  const subject = alertSubject(type, n, sensor);
  const kind = type === 'alert.triggered' ? 'alert-triggered' : 'alert-cleared';

  if (setting?.email || setting?.sms) {
    const members = await q.query<{ email: string; mobile: string | null; notification_rule: Rule | null }>(
      `SELECT u.email, u.mobile, m.notification_rule FROM memberships m JOIN users u ON u.id = m.user_id
       WHERE m.org_id = $1 AND m.role BETWEEN 1 AND 3 ORDER BY u.email`,
      [sensor.org_id],
    );
    for (const m of members) {
      const rule = m.notification_rule ?? org.default_notification_rule;
      if (setting.email && rule?.email) {
        const email: EmailPayload & AlertRefs = { kind, subject, text, path: viewPath(org.slug, sensor.serial, n), notificationId: n.id };
        await enqueue(q, 'email', m.email.toLowerCase(), email, now);
      }
      if (setting.sms && rule?.sms && m.mobile) {
        await enqueue(q, 'sms', m.mobile, { kind, text: `${subject}. ${describeAlert(n, org.measurement_unit)}`, notificationId: n.id }, now);
      }
    }
  }
  await enqueueWebhooks(q, sensor.org_id, { type, organisationId: sensor.org_id, notification: n, sensor: { id: sensor.id, serial: sensor.serial, name: sensor.name } }, now);
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
