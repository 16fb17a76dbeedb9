import { Hono, type Context } from 'hono';
import { z } from 'zod';
import type { AppContext } from '../context';
import type { Queryable } from '../db/db';
import { MANAGERS, ROLE, requireMember, type GatewayEnv } from '../http/auth';
import { badRequest, conflict, notFound } from '../http/errors';
import { topics } from '../broker/publisher';
import { readStoredFile } from '../storage';
import { toSensor, type SensorDbRow } from './sensors.routes';
import { FUEL_PHOTOS, type FuelInstall, type TankPreset } from '../../src/contract/sensor.schema';
import type { LiveSensorSettingsMessage } from '../../src/contract/live.schema';
import { checkSensorUpdate, isSatellite, type SensorUpdate } from '../../src/domain/sensor-update';
import { SETUP_RULES } from '../../src/domain/setup-messages';
import { hasVolumeConversion } from '../../src/domain/forecast-alarm';
import { judgeForecastSoon } from '../alarms/forecast';

const uuid = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);
const sensorPath = z.object({ orgId: z.string(), sensorId: uuid });
const photoPath = sensorPath.extend({ photo: z.enum(FUEL_PHOTOS) });

/** Setup is for admins and owners, and site admins whatever their role (DESIGN.md "Sensor setup"). */
export async function requireSetup(ctx: AppContext, c: Context<GatewayEnv>, orgId: string) {
  const all = [ROLE.MEMBER, ROLE.ADMIN, ROLE.OWNER, ROLE.METER_READER];
  return requireMember(ctx, c, orgId, c.get('caller').isSiteAdmin ? all : MANAGERS);
}

function pathOf<T extends z.ZodType>(schema: T, c: Context<GatewayEnv>): z.infer<T> {
  const p = schema.safeParse(c.req.param());
  if (!p.success) throw notFound('SENSOR_NOT_FOUND', 'Sensor not found.');
  return p.data;
}

async function sensorRow(q: Queryable, orgId: string, sensorId: string, lock = false) {
  const row = (await q.query<SensorDbRow>(`SELECT * FROM sensors WHERE id = $1 AND org_id = $2${lock ? ' FOR UPDATE' : ''}`, [sensorId, orgId]))[0];
  if (!row) throw notFound('SENSOR_NOT_FOUND', 'Sensor not found.');
  return row;
}

const same = (a: unknown, b: unknown) => JSON.stringify(sortKeys(a)) === JSON.stringify(sortKeys(b));
const sortKeys = (v: unknown): unknown =>
  Array.isArray(v) ? v.map(sortKeys) : v && typeof v === 'object' ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, sortKeys((v as Record<string, unknown>)[k])])) : v;

/** The unique index a violation names: both drivers put it in the message. */
const violated = (err: unknown, index: string) => (err as { code?: string })?.code === '23505' && String((err as Error).message).includes(index);

/** Applies a checked save; the columns not in the body keep their values. */
async function applyUpdate(q: Queryable, row: SensorDbRow, u: SensorUpdate) {
  const sets: string[] = [];
  const params: unknown[] = [row.id];
  const set = (col: string, value: unknown, json = false) => {
    params.push(json ? JSON.stringify(value) : value);
    sets.push(`${col} = $${params.length}${json ? '::jsonb' : ''}`);
  };
  if (u.name !== undefined) set('name', u.name);
  if (u.displayInfo) set('display_info', { ...u.displayInfo, referenceLines: u.displayInfo.referenceLines.map((r) => ({ ...r, color: r.color.toUpperCase() })) }, true);
  if (u.conversionConfigs) set('conversion_configs', u.conversionConfigs, true);
  if (u.latitude !== undefined && u.longitude !== undefined) {
    set('latitude', u.latitude);
    set('longitude', u.longitude);
  }
  if (u.integration) set('integration', u.integration.pointId ? u.integration : { commissioningStatus: u.integration.commissioningStatus }, true);
  if (u.alarms) set('alarms', u.alarms, true);
  if (u.forecastAlarm) set('forecast_alarm', u.forecastAlarm, true);
  // the forecast alarm is judged again at once with new settings, a new tank or a new offset (server/alarms/forecast.ts)
  if (u.forecastAlarm || u.conversionConfigs || u.displayInfo) sets.push('forecast_checked_at = NULL');
  if (!sets.length) return row;
  return (await q.query<SensorDbRow>(`UPDATE sensors SET ${sets.join(', ')} WHERE id = $1 RETURNING *`, params))[0];
}

/** Sensor setup: the one save call, tank presets, the fuel installation record and its photos (sensor-setup 7). */
export function sensorSetupRoutes(ctx: AppContext) {
  const r = new Hono<GatewayEnv>();

  r.put('/organisations/:orgId/sensors/:sensorId', async (c) => {
    const { orgId, sensorId } = pathOf(sensorPath, c);
    await requireSetup(ctx, c, orgId);
    const body: unknown = await c.req.json();
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest('INVALID_REQUEST', 'The body must be a sensor object.');
    const saved = await ctx.db
      .tx(async (q) => {
        const row = await sensorRow(q, orgId, sensorId, true);
        const checked = checkSensorUpdate(toSensor(row), body);
        if (!checked.ok) {
          const first = checked.problems[0];
          throw badRequest(first.code, first.message);
        }
        const u = checked.value;
        // alarms are edited here only for the satellite radio; the others change them by remote task
        if (u.alarms && !isSatellite(toSensor(row))) {
          if (!same(u.alarms, row.alarms ?? {})) throw badRequest('ALARMS_NOT_EDITABLE', SETUP_RULES.ALARMS_NOT_EDITABLE);
          delete u.alarms;
        }
        if (u.forecastAlarm && (u.forecastAlarm.emptyWithinDays !== null || u.forecastAlarm.fullWithinDays !== null)) {
          const conversion = u.conversionConfigs ?? row.conversion_configs ?? [];
          if (!hasVolumeConversion({ conversionConfigs: conversion })) throw badRequest('FORECAST_NEEDS_VOLUME', SETUP_RULES.FORECAST_NEEDS_VOLUME);
        }
        if (u.name !== undefined && u.name !== row.name) {
          const taken = await q.query('SELECT 1 FROM sensors WHERE org_id = $1 AND lower(name) = lower($2) AND id <> $3', [orgId, u.name, row.id]);
          if (taken.length) throw conflict('SENSOR_NAME_EXISTS_IN_ORGANISATION', SETUP_RULES.SENSOR_NAME_EXISTS_IN_ORGANISATION);
        }
        if (u.integration?.pointId) {
          const taken = await q.query("SELECT 1 FROM sensors WHERE integration->>'pointId' = $1 AND id <> $2", [u.integration.pointId, row.id]);
          if (taken.length) throw conflict('INTEGRATION_POINT_ID_ALREADY_IN_USE', SETUP_RULES.INTEGRATION_POINT_ID_ALREADY_IN_USE);
        }
        return applyUpdate(q, row, u);
      })
      .catch((err: unknown) => {
        // two saves racing past the checks above: the unique indexes decide
        if (violated(err, 'sensors_org_name')) throw conflict('SENSOR_NAME_EXISTS_IN_ORGANISATION', SETUP_RULES.SENSOR_NAME_EXISTS_IN_ORGANISATION);
        if (violated(err, 'sensors_point_id')) throw conflict('INTEGRATION_POINT_ID_ALREADY_IN_USE', SETUP_RULES.INTEGRATION_POINT_ID_ALREADY_IN_USE);
        throw err;
      });
    const sensor = toSensor(saved);
    // a changed forecast alarm (or tank) is judged now, not at the next periodic pass
    if (saved.forecast_alarm && saved.forecast_checked_at === null) judgeForecastSoon(ctx, sensor.id);
    const msg: LiveSensorSettingsMessage = { sensorId: sensor.id, sensor };
    await ctx.publisher.publish(topics.settings(orgId, sensor.id), msg).catch((err) => ctx.log.warn({ err }, 'publish failed'));
    return c.json({ sensor });
  });

  r.get('/organisations/:orgId/tank-presets', async (c) => {
    const orgId = c.req.param('orgId');
    await requireSetup(ctx, c, orgId);
    const rows = await ctx.db.query<TankPreset & { safe_fill_level: number | null }>(
      'SELECT id::text, manufacturer, model, shape, width, height, length, diameter, safe_fill_level FROM tank_presets WHERE org_id IS NULL OR org_id = $1 ORDER BY manufacturer, model',
      [orgId],
    );
    return c.json({ presets: rows.map(({ safe_fill_level, ...p }) => ({ ...p, safeFillLevel: safe_fill_level })) });
  });

  const fuelInstall = async (c: Context<GatewayEnv>) => {
    const { orgId, sensorId } = pathOf(sensorPath, c);
    await requireSetup(ctx, c, orgId);
    await sensorRow(ctx.db, orgId, sensorId);
    const row = (await ctx.db.query<Record<string, unknown>>(
      `SELECT f.*, p.manufacturer, p.model FROM fuel_installations f LEFT JOIN tank_presets p ON p.id = f.preset_id WHERE f.sensor_id = $1`,
      [sensorId],
    ))[0];
    if (!row) return c.json({ fuelInstall: null });
    const photo = (which: string, file: unknown) => (file ? `/organisations/${orgId}/sensors/${sensorId}/fuel-install/photos/${which}` : null);
    const fuel: FuelInstall = {
      time: Number(row.time),
      fuelType: row.fuel_type as FuelInstall['fuelType'],
      shape: String(row.shape),
      width: row.width as number | null,
      height: row.height as number | null,
      length: row.length as number | null,
      diameter: row.diameter as number | null,
      safeFillLevel: row.safe_fill_level as number | null,
      monitorHeight: row.monitor_height as number | null,
      dipReading: row.dip_reading as number | null,
      presetId: (row.preset_id as string | null) ?? null,
      preset: row.manufacturer ? { manufacturer: String(row.manufacturer), model: String(row.model) } : null,
      certPlateImageURL: photo('certPlate', row.cert_plate_image_url),
      closeImageURL: photo('close', row.close_image_url),
      farImageURL: photo('far', row.far_image_url),
    };
    return c.json({ fuelInstall: fuel });
  };
  r.get('/organisations/:orgId/sensors/:sensorId/fuel-install', fuelInstall);
  r.get('/organisations/:orgId/sensors/:sensorId/fuel-install/', fuelInstall);

  // Photos come only through the gateway, to members of the organisation that owns the sensor.
  r.get('/organisations/:orgId/sensors/:sensorId/fuel-install/photos/:photo', async (c) => {
    const { orgId, sensorId, photo } = pathOf(photoPath, c);
    await requireSetup(ctx, c, orgId);
    const column = { certPlate: 'cert_plate_image_url', close: 'close_image_url', far: 'far_image_url' }[photo];
    const row = (await ctx.db.query<{ name: string | null }>(
      `SELECT f.${column} AS name FROM fuel_installations f JOIN sensors s ON s.id = f.sensor_id WHERE f.sensor_id = $1 AND s.org_id = $2`,
      [sensorId, orgId],
    ))[0];
    const file = row?.name ? await readStoredFile(ctx, orgId, row.name) : undefined;
    if (!file) throw notFound('PHOTO_NOT_FOUND', 'Photo not found.');
    return c.body(new Uint8Array(file.body), 200, { 'Content-Type': file.type, 'Cache-Control': 'private, max-age=3600' });
  });

  return r;
}
