import { Hono } from 'hono';
import type { AppContext } from '../context';
import { MANAGERS, requireMember, type GatewayEnv } from '../http/auth';
import { badRequest, notFound } from '../http/errors';
import { serverTimer } from '../http/server-timing';
import { addSensorRequestSchema, type Sensor } from '../../src/contract/sensor.schema';
import { SENSOR_LIST_VIEWS, SUMMARY_FIELDS, sensorListQuerySchema } from '../../src/contract/sensor-summary.schema';
import { SIGN_UP_MESSAGES, checkClaimCode, checkSerial } from '../../src/domain/sign-up-rules';

/** A sensors row as SELECT * gives it. */
export interface SensorDbRow {
  id: string;
  serial: string;
  org_id: string | null;
  name: string;
  sensor_type: string;
  latitude: number | null;
  longitude: number | null;
  radio: Sensor['radio'];
  config: Sensor['config'];
  display_info: Partial<Sensor['displayInfo']> | null;
  conversion_configs: Sensor['conversionConfigs'] | null;
  alarms: Sensor['alarms'] | null;
  bounds_filter: Sensor['boundsFilter'] | null;
  range_config: Sensor['rangeConfig'] | null;
  pending_config: Record<string, unknown> | null;
  integration: Sensor['integration'] | null;
  latest_data: Sensor['latestData'];
  latest_boot_info: Sensor['latestBootInfo'];
}

/** Row to the contract's Sensor: what GET .../sensors answers for each sensor. */
export function toSensor(row: SensorDbRow): Sensor {
  return {
    id: row.id,
    serial: row.serial,
    name: row.name,
    sensorType: row.sensor_type,
    organisationId: row.org_id ?? '',
    latitude: row.latitude,
    longitude: row.longitude,
    radio: row.radio,
    alarms: row.alarms ?? {},
    conversionConfigs: row.conversion_configs ?? [],
    displayInfo: { referenceLines: [], ...row.display_info },
    config: row.config,
    boundsFilter: row.bounds_filter ?? undefined,
    rangeConfig: row.range_config ?? undefined,
    pendingConfig: row.pending_config,
    integration: row.integration ?? undefined,
    latestData: row.latest_data,
    latestBootInfo: row.latest_boot_info,
  };
}

/**
 * The compact list's rows, built as JSON text by the database in one statement (no per-sensor
 * work in Node): one array per sensor in SUMMARY_FIELDS' order, sorted as the full list is. The
 * jsonb values go through as stored; the client checks each one.
 */
export const SUMMARY_SQL = `SELECT coalesce(json_agg(json_build_array(
    id, serial, name, latitude, longitude,
    config->'schedulerEnabled',
    latest_data->'lastSeen', latest_data->'alertAsserted', latest_data->'offlineAsserted', latest_data->'battery',
    latest_data->'lastMeasurement'->'time', latest_data->'lastMeasurement'->'rawDistance',
    display_info->'offsetMeasurement', display_info->'minLevel', display_info->'maxLevel',
    conversion_configs->0
  ) ORDER BY lower(name), serial), '[]')::text AS rows
  FROM sensors WHERE org_id = $1`;

/** The query of GET .../sensors, or a 400 naming what is wrong with it. */
function listQuery(raw: Record<string, string>) {
  const parsed = sensorListQuerySchema.safeParse(raw);
  if (!parsed.success) throw badRequest('INVALID_QUERY', `view must be ${SENSOR_LIST_VIEWS.map((v) => `"${v}"`).join(' or ')} (or left out for the full records), not "${raw.view}".`);
  return parsed.data;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const INVALID_CLAIM = () => badRequest('INVALID_CLAIM_CODE', SIGN_UP_MESSAGES.claimCodeInvalid);

export function sensorRoutes(ctx: AppContext) {
  const r = new Hono<GatewayEnv>();

  r.get('/organisations/:orgId/sensors', async (c) => {
    const orgId = c.req.param('orgId');
    const timer = serverTimer();
    await requireMember(ctx, c, orgId);
    const { view } = listQuery(c.req.query());
    timer.mark('auth');
    if (view === 'summary') {
      const [{ rows }] = await ctx.db.query<{ rows: string }>(SUMMARY_SQL, [orgId]);
      timer.mark('db');
      timer.set(c);
      c.header('Cache-Control', 'no-store');
      return c.body(`{"fields":${JSON.stringify(SUMMARY_FIELDS)},"rows":${rows}}`, 200, { 'Content-Type': 'application/json; charset=UTF-8' });
    }
    const rows = await ctx.db.query<SensorDbRow>('SELECT * FROM sensors WHERE org_id = $1 ORDER BY lower(name), serial', [orgId]);
    timer.mark('db');
    const body = { sensors: rows.map(toSensor) };
    timer.set(c);
    return c.json(body);
  });

  // One sensor's full record: the client holds the compact list and reads this when a sensor is opened.
  r.get('/organisations/:orgId/sensors/:sensorId', async (c) => {
    const { orgId, sensorId } = c.req.param();
    await requireMember(ctx, c, orgId);
    if (!UUID.test(sensorId)) throw notFound('SENSOR_NOT_FOUND', 'Sensor not found.');
    const row = (await ctx.db.query<SensorDbRow>('SELECT * FROM sensors WHERE id = $1 AND org_id = $2', [sensorId, orgId]))[0];
    if (!row) throw notFound('SENSOR_NOT_FOUND', 'Sensor not found.');
    return c.json({ sensor: toSensor(row) });
  });

  // Claims an unclaimed sensor for the organisation: admins and owners only, once ever.
  r.post('/organisations/:orgId/add-sensor', async (c) => {
    const orgId = c.req.param('orgId');
    await requireMember(ctx, c, orgId, MANAGERS);
    const body = addSensorRequestSchema.parse(await c.req.json());
    const serial = checkSerial(body.serial);
    if (!serial.ok) throw badRequest(serial.error.code, serial.error.message);
    const claimCode = checkClaimCode(body.claimCode);
    if (!claimCode.ok) throw INVALID_CLAIM();
    const sensor = await ctx.db.tx(async (q) => {
      // the row lock plus "org_id IS NULL" make two concurrent claims of one sensor impossible
      const row = (await q.query<SensorDbRow & { claim_code: string }>('SELECT * FROM sensors WHERE serial = $1 FOR UPDATE', [serial.value]))[0];
      if (!row || row.org_id !== null || row.claim_code !== claimCode.value) throw INVALID_CLAIM();
      const claimed = await q.query<SensorDbRow>('UPDATE sensors SET org_id = $2, claimed_at = $3 WHERE id = $1 AND org_id IS NULL RETURNING *', [
        row.id,
        orgId,
        ctx.now(),
      ]);
      if (!claimed[0]) throw INVALID_CLAIM();
      return toSensor(claimed[0]);
    });
    return c.json({ sensor });
  });

  return r;
}
