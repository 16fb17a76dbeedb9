import { createHash } from 'node:crypto';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { ConfigError, loadConfig } from '../config';
import { openDb, type Queryable } from '../db/db';
import { migrate } from '../db/migrate';
import { deriveDeviceKey } from '../seed/device-keys';

/**
 * A whole utility's fleet for development, browser tests and the fleet benchmark (DESIGN.md "At a
 * customer's size"): N sensors added to an organisation (Riverbend Water by default) in whatever
 * database the server is configured with. Everything is set-based SQL over generate_series, so
 * 100,000 sensors take seconds on PostgreSQL. Sensor i is always the same sensor (serial
 * F0000001 upwards, ids and values derived from i), so a second run adds only what is missing:
 * `--sensors 1000` then `--sensors 10000` leaves 10,000.
 */

/** Towns over New Zealand, north to south, with their positions: each sensor sits within ~25 km of one. */
export const FLEET_TOWNS: [string, number, number][] = [
  ['Kaitāia', -35.11, 173.26],
  ['Whangārei', -35.73, 174.32],
  ['Warkworth', -36.4, 174.66],
  ['Waiuku', -37.25, 174.73],
  ['Thames', -37.14, 175.54],
  ['Hamilton', -37.79, 175.28],
  ['Tauranga', -37.69, 176.17],
  ['Rotorua', -38.14, 176.25],
  ['Whakatāne', -37.95, 176.99],
  ['Gisborne', -38.66, 178.02],
  ['Taupō', -38.69, 176.07],
  ['New Plymouth', -39.06, 174.08],
  ['Napier', -39.49, 176.91],
  ['Whanganui', -39.93, 175.05],
  ['Palmerston North', -40.35, 175.61],
  ['Masterton', -40.95, 175.66],
  ['Levin', -40.62, 175.28],
  ['Nelson', -41.27, 173.28],
  ['Blenheim', -41.51, 173.96],
  ['Westport', -41.75, 171.6],
  ['Kaikōura', -42.4, 173.68],
  ['Greymouth', -42.45, 171.21],
  ['Rangiora', -43.3, 172.6],
  ['Ashburton', -43.9, 171.75],
  ['Timaru', -44.4, 171.25],
  ['Ōamaru', -45.1, 170.97],
  ['Wānaka', -44.7, 169.13],
  ['Alexandra', -45.25, 169.38],
  ['Mosgiel', -45.88, 170.35],
  ['Gore', -46.1, 168.94],
  ['Invercargill', -46.41, 168.35],
];
/** What each sensor watches, with its type and whether the tank's volume is known. */
export const FLEET_KINDS: [string, string, boolean][] = [
  ['Reservoir', 'LS1-R', true],
  ['Bore', 'LS1-P', false],
  ['Stock Tank', 'T35', true],
  ['River Gauge', 'LS1-10M', false],
  ['Culvert', 'LS1-R', false],
  ['Stormwater Pit', 'LS1', false],
  ['Pump Station', 'LS1-P-20M', false],
  ['Diesel Tank', 'T35-Pro', true],
  ['Tide Gauge', 'LS1-R-12M', false],
  ['Weir', 'LS1', false],
];

/** Serial of fleet sensor i (1-based): F and seven hex digits, never a demo serial. */
export const fleetSerial = (i: number) => `F${i.toString(16).toUpperCase().padStart(7, '0')}`;

export interface SeedFleetOptions {
  sensors: number;
  /** Cleared notifications spread over the fleet's last 60 days, beside the open ones its statuses imply. */
  notifications?: number;
  /** The organisation's slug (default riverbend-water). */
  orgSlug?: string;
  now?: number;
}

export interface SeedFleetResult {
  orgId: string;
  sensorsAdded: number;
  notificationsAdded: number;
  fleetSensors: number;
}

const DEVICE_SECRET_KEY = 'demo_device_secret';
export const MAX_FLEET = 1_000_000;

// Deterministic fractions in [0, 1) of i for the values each sensor derives from it.
const frac = (mul: number, mod: number) => `((i::bigint * ${mul}) % ${mod}) / ${mod}.0`;

/**
 * Status classes by i % 100: 0-2 disabled, 3-7 in alert (an open threshold alarm), 8-12 offline,
 * 13-15 low battery, 16-19 no data yet, the rest reporting normally.
 */
const SENSORS_SQL = `
WITH towns AS (SELECT * FROM unnest($4::text[], $5::float8[], $6::float8[]) WITH ORDINALITY AS t(name, lat, lng, n)),
kinds AS (SELECT * FROM unnest($7::text[], $8::text[], $9::bool[]) WITH ORDINALITY AS k(name, type, volume, n)),
-- joined, not subscripted: ($10)[i] walks the array from its start for every row (quadratic)
keys AS (SELECT * FROM unnest($10::text[]) WITH ORDINALITY AS h(hash, n)),
g AS (
  SELECT i, 'F' || lpad(upper(to_hex(i)), 7, '0') AS serial, i % 100 AS cls,
    ${frac(7919, 10007)} AS r1, ${frac(104729, 10009)} AS r2, ${frac(15485863, 10037)} AS r3, ${frac(32452843, 10039)} AS r4,
    1 + (i % cardinality($4::text[])) AS town, 1 + ((i / 3) % cardinality($7::text[])) AS kind
  FROM generate_series(1, $2::int) AS i
)
INSERT INTO sensors (id, serial, claim_code, device_key_hash, org_id, name, sensor_type, latitude, longitude, radio, config,
                     display_info, conversion_configs, alarms, latest_data, latest_boot_info, created_at, claimed_at)
SELECT md5('fleet:' || g.serial)::uuid, g.serial, md5('fleet-claim:' || g.serial)::uuid::text, h.hash, $1::uuid,
  t.name || ' ' || k.name || ' ' || g.i, k.type,
  round((t.lat + (g.r1 - 0.5) * 0.45)::numeric, 5)::float8, round((t.lng + (g.r2 - 0.5) * 0.6)::numeric, 5)::float8,
  CASE g.i % 4 WHEN 0 THEN '{"type":"cellular","carrier":"Spark"}' WHEN 1 THEN '{"type":"cellular","carrier":"Vodafone"}' WHEN 2 THEN '{"type":"wifi"}' ELSE '{"type":"sigfox","zone":4}' END::jsonb,
  jsonb_build_object('schedulerEnabled', g.cls >= 3, 'measurementInterval', 15, 'transmissionInterval', 60, 'measurementTransmissionEnabled', true,
                     'deltaCompressionEnabled', false, 'txCountOnAlarm', 1, 'serverSideAlarm', false),
  jsonb_build_object('offsetMeasurement', 3000 + (g.i % 10) * 100, 'minLevel', 0, 'maxLevel', 2500 + (g.i % 10) * 50, 'referenceLines', '[]'::jsonb),
  CASE WHEN k.volume THEN jsonb_build_array(jsonb_build_object('type', 'VOLUME_CYLINDER', 'diameter', 2 + (g.i % 5) * 0.5)) ELSE '[]'::jsonb END,
  jsonb_build_object('1', jsonb_build_object('type', 'THRESHOLD_INCREASING', 'threshold', 2400, 'enabled', true)),
  CASE WHEN g.cls BETWEEN 16 AND 19 THEN NULL ELSE jsonb_build_object(
    'lastSeen', CASE WHEN g.cls BETWEEN 8 AND 12 THEN $3::bigint - 86400000 - (g.r3 * 86400000)::bigint ELSE $3::bigint - (g.r3 * 3600000)::bigint END,
    'signalLevel', 12 + (g.i % 15), 'linkQuality', CASE WHEN g.cls BETWEEN 8 AND 12 THEN 'OFFLINE' ELSE 'GOOD' END,
    'battery', CASE WHEN g.cls BETWEEN 13 AND 15 THEN 4 + (g.i % 5) ELSE 30 + (g.r4 * 70)::int END,
    'offlineAsserted', g.cls BETWEEN 8 AND 12, 'alertAsserted', g.cls BETWEEN 3 AND 7,
    'lastMeasurement', jsonb_build_object(
      'time', CASE WHEN g.cls BETWEEN 8 AND 12 THEN $3::bigint - 86400000 - (g.r3 * 86400000)::bigint ELSE $3::bigint - (g.r3 * 3600000)::bigint END,
      'rawDistance', CASE WHEN g.cls BETWEEN 3 AND 7 THEN 400 + (g.r4 * 300)::int ELSE 900 + (g.r4 * 1900)::int END)) END,
  '{"buildType":"Production","firmwareVersion":112,"sensorVersion":3,"hardwareVersion":4}'::jsonb,
  $3::bigint - 400 * 86400000::bigint, $3::bigint - 380 * 86400000::bigint
FROM g JOIN towns t ON t.n = g.town JOIN kinds k ON k.n = g.kind JOIN keys h ON h.n = g.i
-- a rerun skips what is there with an anti-join (cheaper than a conflict per row)
WHERE NOT EXISTS (SELECT 1 FROM sensors x WHERE x.serial = g.serial)
ON CONFLICT DO NOTHING`;

/** The open notifications the statuses imply: a threshold alarm, offline or low battery. */
const OPEN_NOTIFICATIONS_SQL = `
WITH g AS (SELECT i, i % 100 AS cls, md5('fleet:' || 'F' || lpad(upper(to_hex(i)), 7, '0'))::uuid AS sensor_id FROM generate_series(1, $2::int) AS i)
INSERT INTO notifications (id, org_id, sensor_id, type, condition_key, start_time, end_time, endless, meta, created_at)
SELECT md5('fleet-open:' || g.i)::uuid, $1::uuid, g.sensor_id, x.type, x.key, $3::bigint - (g.i % 48) * 3600000, NULL, false, x.meta, $3::bigint
FROM g JOIN sensors s ON s.id = g.sensor_id AND s.org_id = $1::uuid
CROSS JOIN LATERAL (SELECT * FROM (VALUES
  ('THRESHOLD_ALARM', 'alarm:1', jsonb_build_object('type', 'THRESHOLD_ALARM', 'alarmSetting', jsonb_build_object('type', 'THRESHOLD_INCREASING', 'threshold', 2400, 'enabled', true, 'index', '1'), 'measurement', 2500, 'delta', NULL), g.cls BETWEEN 3 AND 7),
  ('SENSOR_OFFLINE', 'offline', jsonb_build_object('type', 'SENSOR_OFFLINE', 'alarmSetting', NULL, 'measurement', NULL, 'delta', NULL), g.cls BETWEEN 8 AND 12),
  ('LOW_BATTERY', 'battery', jsonb_build_object('type', 'LOW_BATTERY', 'alarmSetting', NULL, 'measurement', 4 + (g.i % 5), 'delta', NULL), g.cls BETWEEN 13 AND 15)
) AS v(type, key, meta, wanted) WHERE v.wanted) AS x
WHERE NOT EXISTS (SELECT 1 FROM notifications y WHERE y.id = md5('fleet-open:' || g.i)::uuid)
ON CONFLICT DO NOTHING`;

/** Cleared notifications k = 1..M over the last 60 days, each on fleet sensor 1 + (k * 7919) % N, the types in turn. */
const CLEARED_NOTIFICATIONS_SQL = `
WITH g AS (
  SELECT k, (ARRAY['THRESHOLD_ALARM','SENSOR_OFFLINE','LOW_BATTERY','SENSOR_ERROR','DELTA_ALARM','WATER_LEVEL_ALARM','ACCELEROMETER'])[1 + k % 7] AS type,
    md5('fleet:' || 'F' || lpad(upper(to_hex(1 + (k::bigint * 7919) % $2::int)), 7, '0'))::uuid AS sensor_id,
    $3::bigint - ((k::bigint * 104729) % 5184000) * 1000 AS start
  FROM generate_series(1, $4::int) AS k
)
INSERT INTO notifications (id, org_id, sensor_id, type, condition_key, start_time, end_time, endless, meta, created_at)
SELECT md5('fleet-cleared:' || g.k)::uuid, $1::uuid, g.sensor_id, g.type, 'fleet:' || g.k, g.start, g.start + 3600000, false,
  jsonb_build_object('type', g.type, 'alarmSetting', NULL, 'measurement', CASE WHEN g.type = 'LOW_BATTERY' THEN 8 ELSE 1800 END, 'delta', NULL)
    || CASE WHEN g.type = 'SENSOR_ERROR' THEN '{"errorCode":"E2"}'::jsonb ELSE '{}'::jsonb END,
  g.start
FROM g JOIN sensors s ON s.id = g.sensor_id AND s.org_id = $1::uuid
WHERE NOT EXISTS (SELECT 1 FROM notifications y WHERE y.id = md5('fleet-cleared:' || g.k)::uuid)
ON CONFLICT DO NOTHING`;

/** Adds the fleet; returns what it added. Throws when the organisation is missing. */
export async function seedFleet(db: Queryable, opts: SeedFleetOptions): Promise<SeedFleetResult> {
  const n = opts.sensors;
  if (!Number.isInteger(n) || n < 1 || n > MAX_FLEET) throw new Error(`--sensors must be a whole number from 1 to ${MAX_FLEET}, not ${n}.`);
  const m = opts.notifications ?? 0;
  if (!Number.isInteger(m) || m < 0 || m > 10 * MAX_FLEET) throw new Error(`--notifications must be a whole number from 0 to ${10 * MAX_FLEET}, not ${m}.`);
  const slug = opts.orgSlug ?? 'riverbend-water';
  const now = opts.now ?? Date.now();
  const org = (await db.query<{ id: string }>('SELECT id FROM organisations WHERE slug = $1', [slug]))[0];
  if (!org) throw new Error(`No organisation with the slug ${slug}: start the server once with the demo world (or pass --org with an existing slug).`);
  // device keys as the demo's: HMAC(secret, serial), so the simulator and benchmarks can send uplinks for any fleet sensor
  const secret = (await db.query<{ value: string }>('SELECT value FROM app_meta WHERE key = $1', [DEVICE_SECRET_KEY]))[0]?.value;
  const keySecret = secret ?? `no-demo-secret:${org.id}`;
  const hashes = Array.from({ length: n }, (_, j) => createHash('sha256').update(deriveDeviceKey(keySecret, fleetSerial(j + 1))).digest('hex'));
  const towns = FLEET_TOWNS;
  const kinds = FLEET_KINDS;
  const count = async (sql: string, params: unknown[]) => (await db.query<{ n: number }>(`WITH ins AS (${sql} RETURNING 1) SELECT count(*)::int AS n FROM ins`, params))[0]!.n;
  const sensorsAdded = await count(SENSORS_SQL, [
    org.id,
    n,
    now,
    towns.map((t) => t[0]),
    towns.map((t) => t[1]),
    towns.map((t) => t[2]),
    kinds.map((k) => k[0]),
    kinds.map((k) => k[1]),
    kinds.map((k) => k[2]),
    hashes,
  ]);
  // fresh statistics: the planner otherwise takes a 100,000-sensor organisation for a few thousand rows
  if (sensorsAdded > 0) await db.query('ANALYZE sensors');
  let notificationsAdded = await count(OPEN_NOTIFICATIONS_SQL, [org.id, n, now]);
  if (m > 0) notificationsAdded += await count(CLEARED_NOTIFICATIONS_SQL, [org.id, n, now, m]);
  if (notificationsAdded > 0) await db.query('ANALYZE notifications');
  const fleetSensors = (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM sensors WHERE org_id = $1 AND serial LIKE 'F_______'`, [org.id]))[0]!.n;
  return { orgId: org.id, sensorsAdded, notificationsAdded, fleetSensors };
}

const USAGE = 'usage: npm run seed:fleet -- --sensors N [--notifications M] [--org SLUG]   (the database of DATA_DIR or DATABASE_URL)';

async function main() {
  const { values } = parseArgs({ options: { sensors: { type: 'string' }, notifications: { type: 'string' }, org: { type: 'string' }, help: { type: 'boolean' } } });
  if (values.help || values.sensors === undefined) {
    console.error(USAGE);
    process.exit(values.help ? 0 : 2);
  }
  const whole = (name: string, v: string) => {
    if (!/^\d+$/.test(v.replace(/[_,]/g, ''))) throw new Error(`--${name} must be a whole number, not "${v}".`);
    return Number(v.replace(/[_,]/g, ''));
  };
  const sensors = whole('sensors', values.sensors);
  const notifications = values.notifications === undefined ? 0 : whole('notifications', values.notifications);
  const config = loadConfig();
  const db = await openDb({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
  try {
    await migrate(db);
    const started = performance.now();
    const r = await seedFleet(db, { sensors, notifications, orgSlug: values.org });
    const s = ((performance.now() - started) / 1000).toFixed(1);
    console.log(`Added ${r.sensorsAdded} sensors and ${r.notificationsAdded} notifications in ${s} s; the organisation now has ${r.fleetSensors} fleet sensors.`);
  } finally {
    await db.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((err) => {
    console.error(err instanceof ConfigError ? err.message : `seed:fleet: ${(err as Error).message}`);
    process.exit(1);
  });
}
