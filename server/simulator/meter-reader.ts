import type { AppContext } from '../context';
import { HttpError } from '../http/errors';
import { recordReading } from '../routes/record';
import { publishTask } from '../routes/live';
import { previousOf, type ReadingRow } from '../routes/store';
import { seededMeta } from '../seed/demo';
import { photo } from './meter-photo';
import { unit } from '../../src/domain/signals';
import { CANT_READ_CODES, meterReadingRecordSchema, type MeterReadingRecord } from '../../src/contract/route.schema';

/** The demo's meter reader (DESIGN.md "Demo world"). */
export const DEMO_READER_EMAIL = 'reader@demo.test';
/** Simulated time between two meters (divided by SIMULATOR_SPEED in wall time): 2 minutes. */
export const READ_INTERVAL_MS = 2 * 60_000;
/** After a pause the reader catches up, but never records more than this in one tick. */
const MAX_PER_TICK = 20;

const COMMENTS = ['Broken Lid', 'Box Cut Away', 'No Seal', 'Leaking', 'Meter Damaged', 'Base Body Box'] as const;
const CANT_READ = CANT_READ_CODES.filter((c) => c !== 'Other');

interface NextReading {
  task_id: string;
  org_id: string;
  reading: ReadingRow;
}

export interface MeterReader {
  /** Records what is due at `now` (default ctx.now()); resolves with the number of readings recorded. */
  tick(now?: number): Promise<number>;
}

/**
 * The simulated meter reader: works through the route tasks assigned to the demo reader
 * (reader@demo.test) since the demo world was seeded (the seeded ones keep their states), lowest task number first, one meter every READ_INTERVAL_MS / SIMULATOR_SPEED,
 * through the same record logic as the gateway's record call, with a photo of the meter and a
 * position by it. Runs only where the simulator runs and only while its process holds the
 * simulator lease (server/simulator/fleet.ts); the record logic's row locks make even two
 * readers at once record each meter exactly once.
 */
export function createMeterReader(ctx: Pick<AppContext, 'config' | 'db' | 'now' | 'log' | 'publisher'>): MeterReader {
  const step = READ_INTERVAL_MS / ctx.config.SIMULATOR_SPEED;
  let readerId: string | null | undefined;
  let nextAt = -Infinity;

  async function reader(): Promise<string | null> {
    if (!readerId) {
      const row = (await ctx.db.query<{ id: string }>('SELECT id FROM users WHERE email = $1', [DEMO_READER_EMAIL]))[0];
      readerId = row?.id ?? null;
    }
    return readerId;
  }

  // the seeded tasks stay as seeded, one in every state (DESIGN.md "Demo world"): only tasks made since are read
  let since: number | undefined;
  async function next(userId: string): Promise<NextReading | undefined> {
    since ??= (await seededMeta(ctx.db))?.at;
    const rows = await ctx.db.query<NextReading>(
      `SELECT t.id AS task_id, t.org_id, to_jsonb(r) AS reading
       FROM route_tasks t
       JOIN organisations o ON o.id = t.org_id AND (o.features->>'meterReading')::boolean
       JOIN memberships m ON m.org_id = t.org_id AND m.user_id = $1
       JOIN LATERAL (SELECT * FROM meter_readings x WHERE x.route_task_id = t.id AND NOT x.completed ORDER BY x.sequence, x.id LIMIT 1) r ON true
       WHERE t.assigned_to = $1 AND NOT t.exported AND t.created_at >= $2
       ORDER BY t.task_number LIMIT 1`,
      [userId, since ?? 0],
    );
    return rows[0];
  }

  return {
    async tick(now = ctx.now()) {
      if (now < nextAt) return 0;
      const userId = await reader();
      if (!userId) return 0;
      let recorded = 0;
      // catch up on what fell due since the last tick, a bounded amount at a time
      if (nextAt === -Infinity) nextAt = now;
      while (nextAt <= now && recorded < MAX_PER_TICK) {
        const n = await next(userId);
        if (!n) {
          nextAt = now + step;
          break;
        }
        try {
          // the app's path: one capture, one idempotency key (the reading's: the simulator captures each meter once)
          const body = simulatedReading(n.reading, now);
          const { replayed } = await recordReading({ ...ctx, now: () => now }, { orgId: n.org_id, taskId: n.task_id, readingId: n.reading.id, userId, body, idempotencyKey: `simulator:${n.reading.id}` });
          if (!replayed) {
            recorded++;
            await publishTask(ctx, n.org_id, n.task_id, { readingId: n.reading.id });
          }
        } catch (err) {
          // another reader got there first, or the task was exported or reassigned meanwhile: look again next time
          if (!(err instanceof HttpError)) throw err;
          ctx.log.debug({ err, readingId: n.reading.id }, 'simulated reading not recorded');
        }
        nextAt += step;
      }
      if (nextAt <= now) nextAt = now + step;
      return recorded;
    },
  };
}

/**
 * What the reader finds at a meter, decided by the reading's id: mostly a plausible value, some
 * meters that cannot be read, the odd zero, negative or high consumption, comments and service flags.
 */
export function simulatedReading(r: Pick<ReadingRow, 'id' | 'meter_info' | 'last_recorded_reading' | 'imported_prev_reading'>, now: number): MeterReadingRecord {
  let seed = 0;
  for (const ch of r.id) seed = (Math.imul(seed, 31) + ch.charCodeAt(0)) | 0;
  const u = (salt: number) => unit(seed, 14, salt);
  const { previous } = previousOf(r);
  const lat = r.meter_info.latitude;
  const lng = r.meter_info.longitude;
  const position = typeof lat === 'number' && typeof lng === 'number' ? { latitude: lat + (u(1) - 0.5) * 0.0002, longitude: lng + (u(2) - 0.5) * 0.0002, accuracy: Math.round(3 + u(3) * 12) } : null;
  const base = { recordedAt: now, position };
  if (u(4) < 0.08) {
    const code = CANT_READ[Math.floor(u(5) * CANT_READ.length)]!;
    return meterReadingRecordSchema.parse({ ...base, cantReadCode: code, notes: code === 'Dog' ? 'Dog loose on property' : null, photo: photo(seed, null) });
  }
  const roll = u(6);
  const usual = 15 + Math.floor(u(7) * 60);
  const consumption = roll < 0.05 ? 0 : roll < 0.08 ? -Math.ceil(u(8) * 12) : roll < 0.13 ? usual * 6 + Math.floor(u(9) * 300) : usual + Math.floor((u(10) - 0.5) * 10);
  const start = previous ?? 1000 + Math.floor(u(11) * 90_000);
  const value = Math.min(9_999_999, Math.max(0, start + consumption));
  const comment = u(12) < 0.1 ? COMMENTS[Math.floor(u(13) * COMMENTS.length)]! : null;
  return meterReadingRecordSchema.parse({
    ...base,
    value,
    commentCode: comment,
    serviceRequired: comment === 'Leaking' || comment === 'Meter Damaged',
    notes: comment === 'Leaking' ? 'Water pooling around the box' : null,
    photo: photo(seed, value),
  });
}
