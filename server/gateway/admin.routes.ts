import { Hono } from 'hono';
import type { AppContext } from '../context';
import { requireSiteAdmin, type GatewayEnv } from '../http/auth';
import { badRequest, notFound } from '../http/errors';
import { one } from '../db/db';
import { uuidParam } from '../http/input-guard';
import { MAX_TIME } from '../../src/contract/safe-text';
import { measurementErrorQuerySchema } from '../../src/contract/measurement.schema';
import type { Firmware } from '../../src/contract/sensor.schema';

interface ErrorRow {
  id: number | string;
  code: string;
  time: number;
}

export interface FirmwareRow {
  id: string;
  fw_name: string;
  fw_type: Firmware['fwType'];
  fw_version: number;
  build_type: Firmware['buildType'];
  apply_to: { hardwareVersions?: number[] } | null;
  created_at: number;
}

export const toFirmware = (f: FirmwareRow): Firmware => ({
  id: f.id,
  fwName: f.fw_name,
  fwType: f.fw_type,
  fwVersion: f.fw_version,
  buildType: f.build_type,
  createdAt: f.created_at,
  applyTo: { hardwareVersions: f.apply_to?.hardwareVersions ?? [] },
});

// The paging cursor is the last row's (time, id): stable however many errors share a millisecond.
const encodeCursor = (row: ErrorRow) => Buffer.from(`${row.time}:${row.id}`).toString('base64url');
function decodeCursor(cursor: string): { time: number; id: number } {
  const m = /^(\d{1,16}):(\d{1,16})$/.exec(Buffer.from(cursor, 'base64url').toString());
  // a time or id past what this server gives out would overflow the database's bigint
  if (!m || Number(m[1]) > MAX_TIME || Number(m[2]) > Number.MAX_SAFE_INTEGER) throw badRequest('INVALID_CURSOR', 'The paging cursor is not valid.');
  return { time: Number(m[1]), id: Number(m[2]) };
}

/** Site-admin routes: measurement errors of any sensor and the firmware catalogue. */
export function adminRoutes(ctx: AppContext) {
  const r = new Hono<GatewayEnv>();

  r.get('/admin/sensors/:sensorId/measurement-errors', async (c) => {
    requireSiteAdmin(c);
    const sensorId = uuidParam(c, 'sensorId');
    const q = measurementErrorQuerySchema.parse(c.req.query());
    const endTime = q.endTime ?? ctx.now();
    if (q.startTime > endTime) throw badRequest('INVALID_DATE_RANGE', 'The start time must not be after the end time.');
    if (!(await one(ctx.db, 'SELECT 1 FROM sensors WHERE id = $1', [sensorId]))) {
      throw notFound('SENSOR_NOT_FOUND', 'Sensor not found.');
    }
    const desc = q.order === 'desc';
    const params: unknown[] = [sensorId, q.startTime, endTime, q.limit + 1];
    let after = '';
    if (q.start) {
      const cur = decodeCursor(q.start);
      params.push(cur.time, cur.id);
      after = desc ? 'AND (time, id) < ($5, $6)' : 'AND (time, id) > ($5, $6)';
    }
    const rows = await ctx.db.query<ErrorRow>(
      `SELECT id, code, time FROM measurement_errors
       WHERE sensor_id = $1 AND time BETWEEN $2 AND $3 ${after}
       ORDER BY time ${desc ? 'DESC' : 'ASC'}, id ${desc ? 'DESC' : 'ASC'} LIMIT $4`,
      params,
    );
    const page = rows.slice(0, q.limit);
    return c.json({
      measurementErrors: page.map((e) => ({ id: String(e.id), code: e.code, time: Number(e.time) })),
      next: rows.length > q.limit ? encodeCursor(page[page.length - 1]) : null,
    });
  });

  r.get('/admin/firmware', async (c) => {
    requireSiteAdmin(c);
    const rows = await ctx.db.query<FirmwareRow>('SELECT * FROM firmware ORDER BY fw_type, fw_version DESC, created_at DESC');
    return c.json({ firmware: rows.map(toFirmware) });
  });

  return r;
}
