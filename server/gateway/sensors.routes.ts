import { Hono } from 'hono';
import type { AppContext } from '../context';
import { MANAGERS, requireMember, type GatewayEnv } from '../http/auth';
import { badRequest } from '../http/errors';
import { addSensorRequestSchema, type Sensor } from '../../src/contract/sensor.schema';
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

const INVALID_CLAIM = () => badRequest('INVALID_CLAIM_CODE', SIGN_UP_MESSAGES.claimCodeInvalid);

export function sensorRoutes(ctx: AppContext) {
  const r = new Hono<GatewayEnv>();

  r.get('/organisations/:orgId/sensors', async (c) => {
    const orgId = c.req.param('orgId');
    await requireMember(ctx, c, orgId);
    const rows = await ctx.db.query<SensorDbRow>('SELECT * FROM sensors WHERE org_id = $1 ORDER BY lower(name), serial', [orgId]);
    return c.json({ sensors: rows.map(toSensor) });
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
