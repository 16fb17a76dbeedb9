import { randomUUID } from 'node:crypto';
import type { Queryable } from '../db/db';
import { together } from '../db/together';
import { prepared } from '../db/prepared';
import type { SensorNotification } from '../../src/contract/notification.schema';
import type { LiveNotificationMessage } from '../../src/contract/live.schema';
import type { AlarmPlan } from '../alarms/engine';
import type { OpenRow } from '../alarms/notifications';
import { alertDeliveryRows, type AlertAudience } from '../delivery/alerts';
import type { OutboxRow } from '../delivery/outbox';
import type { SensorRow } from './uplink-rules';

const CLOSE_SQL = prepared(
  `UPDATE notifications n SET end_time = GREATEST(n.start_time, u.e) FROM unnest($1::uuid[], $2::bigint[]) AS u(id, e)
   WHERE n.id = u.id AND n.end_time IS NULL RETURNING n.id`,
);
const OPEN_SQL = prepared(
  `INSERT INTO notifications (id, org_id, sensor_id, type, condition_key, start_time, end_time, meta, created_at)
   SELECT * FROM jsonb_to_recordset($1::jsonb) AS u(id uuid, org_id uuid, sensor_id uuid, type text, condition_key text, start_time bigint, end_time bigint, meta jsonb, created_at bigint)
   ON CONFLICT (sensor_id, condition_key) WHERE end_time IS NULL AND endless = false DO NOTHING RETURNING id`,
);

interface Change {
  into: LiveNotificationMessage[];
  event: 'opened' | 'closed';
  sensor: SensorRow & { org_id: string };
  n: SensorNotification;
  now: number;
  /** A close of a notification that was open before the batch (otherwise it is one of the batch's own rows). */
  existing: boolean;
}

/**
 * The notifications a batch opens and closes, applied in order per uplink as the alarm engine
 * plans them, then written with two statements; their deliveries go with the batch's last statement. A notification
 * opened and closed inside the batch is inserted already closed. As with one uplink at a time, a
 * notification ended elsewhere meanwhile, or already open, changes nothing and sends nothing.
 */
export class AlarmWrites {
  private changes: Change[] = [];
  private closes = new Map<string, number>();
  private rows = new Map<string, { id: string; org_id: string; sensor_id: string; type: string; condition_key: string; start_time: number; end_time: number | null; meta: unknown; created_at: number }>();

  /** Applies one uplink's plan to its sensor's open notifications (keyed by condition). */
  apply(sensor: SensorRow & { org_id: string }, plan: AlarmPlan, open: Map<string, OpenRow>, now: number, into: LiveNotificationMessage[]) {
    for (const { row, at } of plan.close) {
      const end = Math.max(row.start_time, at);
      const mine = this.rows.get(row.id);
      if (mine) mine.end_time = end;
      else this.closes.set(row.id, end);
      open.delete(row.condition_key);
      const n: SensorNotification = { id: row.id, sensorId: sensor.id, startTime: row.start_time, endTime: end, endless: false, meta: row.meta as SensorNotification['meta'] };
      this.changes.push({ into, event: 'closed', sensor, n, now, existing: !mine });
    }
    for (const c of plan.open) {
      const id = randomUUID();
      this.rows.set(id, { id, org_id: sensor.org_id, sensor_id: sensor.id, type: c.meta.type, condition_key: c.key, start_time: c.at, end_time: null, meta: c.meta, created_at: now });
      open.set(c.key, { id, type: c.meta.type, condition_key: c.key, start_time: c.at, meta: c.meta });
      const n: SensorNotification = { id, sensorId: sensor.id, startTime: c.at, endTime: null, endless: false, meta: c.meta as SensorNotification['meta'] };
      this.changes.push({ into, event: 'opened', sensor, n, now, existing: false });
    }
  }

  /**
   * Writes the batch's notification changes; returns the outbox rows of those that took effect
   * (their alert deliveries to `audience`), for the caller to insert with its last statement.
   */
  async write(q: Queryable, audience: AlertAudience): Promise<OutboxRow[]> {
    if (!this.changes.length) return [];
    // issued together (one round trip on PostgreSQL), run in this order: the closes before the opens
    const none = Promise.resolve<{ id: string }[]>([]);
    const [closedRows, insertedRows] = await together(
      this.closes.size ? q.query<{ id: string }>(CLOSE_SQL, [[...this.closes.keys()], [...this.closes.values()]]) : none,
      this.rows.size ? q.query<{ id: string }>(OPEN_SQL, [JSON.stringify([...this.rows.values()])]) : none,
    );
    const closed = new Set(closedRows.map((r) => r.id));
    const inserted = new Set(insertedRows.map((r) => r.id));
    const done = this.changes.filter((c) => (c.existing ? closed : inserted).has(c.n.id));
    for (const c of done) c.into.push({ event: c.event, serial: c.sensor.serial, sensorName: c.sensor.name, notification: c.n });
    return alertDeliveryRows(
      done.map((c) => ({ type: c.event === 'opened' ? 'alert.triggered' : 'alert.cleared', sensor: c.sensor, n: c.n, now: c.now })),
      audience,
    );
  }
}
