import { Hono } from 'hono';
import type { AppContext } from '../context';
import { MANAGERS, requireMember, type GatewayEnv } from '../http/auth';
import { badRequest, notFound } from '../http/errors';
import { serverTimer } from '../http/server-timing';
import { streamedBody } from '../http/static-files';
import type { Db } from '../db/db';
import { addSensorRequestSchema, type Sensor } from '../../src/contract/sensor.schema';
import { SENSOR_CHANGE_OVERLAP_MS, SENSOR_LIST_VIEWS, SUMMARY_FIELDS, SUMMARY_MAX_LIMIT, sensorListQuerySchema } from '../../src/contract/sensor-summary.schema';
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
  forecast_alarm?: Sensor['forecastAlarm'];
  forecast_checked_at?: number | null;
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
    // beyond the spec, only once set (the spec's record is unchanged for sensors without one)
    ...(row.forecast_alarm ? { forecastAlarm: row.forecast_alarm } : {}),
  };
}

/** One sensor's compact row: its values in SUMMARY_FIELDS' order, jsonb values as stored (the client checks each one). */
const SUMMARY_ROW = `json_build_array(
    id, serial, name, latitude, longitude,
    config->'schedulerEnabled',
    latest_data->'lastSeen', latest_data->'alertAsserted', latest_data->'offlineAsserted', latest_data->'battery',
    latest_data->'lastMeasurement'->'time', latest_data->'lastMeasurement'->'rawDistance',
    display_info->'offsetMeasurement', display_info->'minLevel', display_info->'maxLevel',
    conversion_configs->0
  )`;

/**
 * The compact list's rows, built as JSON text by the database in one statement: one array per
 * sensor in SUMMARY_FIELDS' order, sorted as the full list is. The jsonb values go through as
 * stored; the client checks each one. The whole list is not sent from this (wholeSummaryList
 * streams it); the benchmark's plan and the tests compare with it.
 */
export const SUMMARY_SQL = `SELECT coalesce(json_agg(${SUMMARY_ROW} ORDER BY lower(name), serial), '[]')::text AS rows
  FROM sensors WHERE org_id = $1`;

/**
 * The whole compact list row by row, each row's JSON text built by the database, in the list's
 * order: the index sensors_list_order (org_id, lower(name), serial) gives that order without a
 * sort, so the first rows come at once.
 */
export const SUMMARY_ROWS_SQL = `SELECT ${SUMMARY_ROW}::text AS r FROM sensors WHERE org_id = $1 ORDER BY lower(name), serial`;

/** Rows the whole list's cursor reads at a time: each batch is sent (and compressed) while the next is built. */
export const SUMMARY_FETCH_ROWS = 5_000;

const utf8 = new TextEncoder();

/**
 * GET .../sensors?view=summary's whole list as a stream, the same JSON as one statement would give
 * (`{"fields","rows","cursor"}`): a cursor over SUMMARY_ROWS_SQL in one read-only, repeatable-read
 * transaction (one snapshot, as one statement has), its rows sent in batches of `perFetch` while
 * the database builds the next. The cursor (the next refresh's `since`) is the clock at the
 * transaction's first statement, less the overlap. Resolves once the first batch is read, so a
 * failure before it is an ordinary error answer; a failure after it ends the stream with an error
 * (the client sees a broken answer, never a short list).
 */
export function wholeSummaryList(db: Db, orgId: string, perFetch = SUMMARY_FETCH_ROWS): Promise<ReadableStream<Uint8Array>> {
  return new Promise((resolve, reject) => {
    let stopped = false;
    let started = false;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        db.tx(async (q) => {
          await q.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY');
          // the index's order, never a sort: a sort builds every row before the first is sent (the
          // planner picks one for a cursor at 10,000 sensors, the first rows then waiting 0.4 s)
          await q.query('SET LOCAL enable_sort = off');
          const [at] = await q.query<{ cursor: string | number }>(
            `SELECT (extract(epoch FROM statement_timestamp()) * 1000)::bigint - ${SENSOR_CHANGE_OVERLAP_MS} AS cursor`,
          );
          await q.query(`DECLARE summary_list NO SCROLL CURSOR FOR ${SUMMARY_ROWS_SQL}`, [orgId]);
          const fetch = `FETCH ${perFetch} FROM summary_list`;
          let rows = await q.query<{ r: string }>(fetch);
          started = true;
          resolve(body);
          controller.enqueue(utf8.encode(`{"fields":${JSON.stringify(SUMMARY_FIELDS)},"rows":[`));
          let first = true;
          while (rows.length > 0 && !stopped) {
            controller.enqueue(utf8.encode((first ? '' : ',') + rows.map((x) => x.r).join(',')));
            first = false;
            if (rows.length < perFetch) break;
            rows = await q.query<{ r: string }>(fetch);
          }
          if (!stopped) controller.enqueue(utf8.encode(`],"cursor":${Number(at!.cursor)}}`));
        }).then(
          () => {
            if (!stopped) controller.close();
          },
          (err: unknown) => {
            if (!started) reject(err);
            else if (!stopped) controller.error(err);
          },
        );
      },
      cancel() {
        // the client went away: the transaction ends after the batch being read
        stopped = true;
      },
    });
  });
}

/**
 * The first $2 rows of the compact list and the organisation's sensor count: the index
 * sensors_list_order (org_id, lower(name), serial) answers the page without reading the rest of
 * the fleet, so the list draws its first screen while the whole list is built.
 */
export const SUMMARY_PAGE_SQL = `SELECT
    (SELECT coalesce(json_agg(${SUMMARY_ROW} ORDER BY lower(name), serial), '[]')::text
       FROM (SELECT * FROM sensors WHERE org_id = $1 ORDER BY lower(name), serial LIMIT $2) s) AS rows,
    (SELECT count(*)::int FROM sensors WHERE org_id = $1) AS total,
    (extract(epoch FROM statement_timestamp()) * 1000)::bigint - ${SENSOR_CHANGE_OVERLAP_MS} AS cursor`;

/**
 * What changed in the organisation's list since $2 (a cursor): the rows changed or arrived after it
 * (sensors.changed_at, set by a trigger on every write), the ids of sensors that left after it
 * (sensor_departures), the next cursor, and the clock, to tell a cursor from ahead of it.
 */
export const SUMMARY_CHANGES_SQL = `SELECT
    (SELECT coalesce(json_agg(${SUMMARY_ROW} ORDER BY lower(name), serial), '[]')::text FROM sensors WHERE org_id = $1 AND changed_at > $2) AS rows,
    (SELECT coalesce(json_agg(DISTINCT sensor_id), '[]')::text FROM sensor_departures WHERE org_id = $1 AND departed_at > $2) AS removed,
    (extract(epoch FROM statement_timestamp()) * 1000)::bigint AS now`;

/** The query of GET .../sensors, or a 400 naming what is wrong with it. */
function listQuery(raw: Record<string, string>): { view?: (typeof SENSOR_LIST_VIEWS)[number]; limit?: number; since?: number } {
  const parsed = sensorListQuerySchema.safeParse(raw);
  if (!parsed.success) throw badRequest('INVALID_QUERY', `view must be ${SENSOR_LIST_VIEWS.map((v) => `"${v}"`).join(' or ')} (or left out for the full records), not "${raw.view}".`);
  const { view, limit, since } = parsed.data;
  if (since !== undefined) {
    if (view !== 'summary') throw badRequest('INVALID_QUERY', 'since goes with view=summary only (the full records are one list).');
    if (limit !== undefined) throw badRequest('INVALID_QUERY', 'since and limit cannot be asked together: a change set is never paged.');
    if (!/^\d{1,15}$/.test(since)) throw badRequest('INVALID_QUERY', `since must be the cursor of an earlier answer (a whole number), not "${since}".`);
    return { view, since: Number(since) };
  }
  if (limit === undefined) return { view };
  if (view !== 'summary') throw badRequest('INVALID_QUERY', 'limit goes with view=summary only (the full records are one list).');
  if (!/^[1-9]\d{0,3}$/.test(limit) || Number(limit) > SUMMARY_MAX_LIMIT) throw badRequest('INVALID_QUERY', `limit must be a whole number from 1 to ${SUMMARY_MAX_LIMIT}, not "${limit}".`);
  return { view, limit: Number(limit) };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** What may be a serial in a path (checkSerial holds the rule for new ones); anything else is not found without a query. */
const SERIAL = /^[0-9a-z]{1,32}$/i;

const INVALID_CLAIM = () => badRequest('INVALID_CLAIM_CODE', SIGN_UP_MESSAGES.claimCodeInvalid);

export function sensorRoutes(ctx: AppContext) {
  const r = new Hono<GatewayEnv>();

  r.get('/organisations/:orgId/sensors', async (c) => {
    const orgId = c.req.param('orgId');
    const timer = serverTimer();
    await requireMember(ctx, c, orgId);
    const { view, limit, since } = listQuery(c.req.query());
    timer.mark('auth');
    const json = (body: string) => {
      timer.set(c);
      c.header('Cache-Control', 'no-store');
      return c.body(body, 200, { 'Content-Type': 'application/json; charset=UTF-8' });
    };
    if (since !== undefined) {
      const [changes] = await ctx.db.query<{ rows: string; removed: string; now: string | number }>(SUMMARY_CHANGES_SQL, [orgId, since]);
      const now = Number(changes!.now);
      // a cursor from ahead of the clock (another database, a clock set back) cannot say what changed: the whole list
      if (since <= now) {
        timer.mark('db');
        return json(`{"fields":${JSON.stringify(SUMMARY_FIELDS)},"rows":${changes!.rows},"removed":${changes!.removed},"cursor":${now - SENSOR_CHANGE_OVERLAP_MS}}`);
      }
    }
    if (view === 'summary' && limit !== undefined) {
      const [page] = await ctx.db.query<{ rows: string; total: number; cursor: string | number }>(SUMMARY_PAGE_SQL, [orgId, limit]);
      timer.mark('db');
      // the cursor serves when the page is the whole list (a small fleet)
      return json(`{"fields":${JSON.stringify(SUMMARY_FIELDS)},"rows":${page!.rows},"total":${Number(page!.total)},"cursor":${Number(page!.cursor)}}`);
    }
    if (view === 'summary') {
      const body = await wholeSummaryList(ctx.db, orgId);
      // db: until the first rows are read (the rest stream after the headers)
      timer.mark('db');
      timer.set(c);
      c.header('Cache-Control', 'no-store');
      return c.body(streamedBody(body), 200, { 'Content-Type': 'application/json; charset=UTF-8' });
    }
    const rows = await ctx.db.query<SensorDbRow>('SELECT * FROM sensors WHERE org_id = $1 ORDER BY lower(name), serial', [orgId]);
    timer.mark('db');
    const body = { sensors: rows.map(toSensor) };
    timer.set(c);
    return c.json(body);
  });

  // One sensor's full record, by its id or its serial: the client holds the compact list and reads
  // this when a sensor is opened; a dashboard opened by link asks by the serial in its address, beside the list.
  r.get('/organisations/:orgId/sensors/:sensorId', async (c) => {
    const { orgId, sensorId } = c.req.param();
    await requireMember(ctx, c, orgId);
    const bySerial = !UUID.test(sensorId);
    if (bySerial && !SERIAL.test(sensorId)) throw notFound('SENSOR_NOT_FOUND', 'Sensor not found.');
    const row = (
      await ctx.db.query<SensorDbRow>(`SELECT * FROM sensors WHERE ${bySerial ? 'serial' : 'id'} = $1 AND org_id = $2`, [bySerial ? sensorId.toUpperCase() : sensorId, orgId])
    )[0];
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
