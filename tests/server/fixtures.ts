import { randomBytes, randomUUID } from 'node:crypto';
import type { Queryable } from '../../server/db/db';
import { hashDeviceKey } from '../../server/ingest/uplink';

/** Small builders for server tests. Passwords are not hashed here: tests sign in through tokenFor. */
export async function makeUser(q: Queryable, over: Partial<{ email: string; name: string; isSiteAdmin: boolean; mobile: string | null }> = {}) {
  const id = randomUUID();
  const email = over.email ?? `user-${id.slice(0, 8)}@test.local`;
  await q.query(
    `INSERT INTO users (id, email, name, mobile, password_hash, email_verified, is_site_admin, profile_created, created_at)
     VALUES ($1, $2, $3, $4, 'x', true, $5, true, $6)`,
    [id, email, over.name ?? 'Test User', over.mobile ?? null, over.isSiteAdmin ?? false, Date.now()],
  );
  return { id, email };
}

export async function makeOrg(q: Queryable, over: Partial<{ name: string; features: Record<string, boolean> }> = {}) {
  const id = randomUUID();
  const name = over.name ?? `Org ${id.slice(0, 6)}`;
  await q.query(`INSERT INTO organisations (id, slug, name, features, created_at) VALUES ($1, $2, $3, $4, $5)`, [
    id,
    // the whole id: a 4-hex suffix collided (1 in 65,536 a pair) when many tests name their org 'Council'
    name.toLowerCase().replace(/[^a-z0-9]+/g, '-') + '-' + id,
    name,
    JSON.stringify({ isFuel: false, liveMode: true, meterReading: false, ...over.features }),
    Date.now(),
  ]);
  return { id, name };
}

export async function addMember(q: Queryable, orgId: string, userId: string, role: 1 | 2 | 3 | 4) {
  await q.query('INSERT INTO memberships (org_id, user_id, role, created_at) VALUES ($1, $2, $3, $4)', [orgId, userId, role, Date.now()]);
}

export async function makeSensor(
  q: Queryable,
  orgId: string | null,
  over: Partial<{ serial: string; deviceKey: string; name: string; sensorType: string; radio: string; claimCode: string; alarms: unknown; displayInfo: unknown; config: unknown }> = {},
) {
  const id = randomUUID();
  const serial = over.serial ?? randomBytes(4).toString('hex').toUpperCase();
  const deviceKey = over.deviceKey ?? randomBytes(16).toString('hex');
  const claimCode = over.claimCode ?? [8, 4, 4, 4, 12].map((n) => randomBytes(n / 2).toString('hex')).join('-');
  await q.query(
    `INSERT INTO sensors (id, serial, claim_code, device_key_hash, org_id, name, sensor_type, radio, alarms, display_info, config, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, COALESCE($9, '{}'::jsonb), COALESCE($10, '{"referenceLines":[],"offsetMeasurement":3000}'::jsonb),
             COALESCE($11, '{"schedulerEnabled":true,"measurementInterval":5,"transmissionInterval":30}'::jsonb), $12)`,
    [
      id,
      serial,
      claimCode,
      hashDeviceKey(deviceKey),
      orgId,
      over.name ?? `Sensor ${serial}`,
      over.sensorType ?? 'LS1',
      JSON.stringify({ type: over.radio ?? 'cellular' }),
      over.alarms ? JSON.stringify(over.alarms) : null,
      over.displayInfo ? JSON.stringify(over.displayInfo) : null,
      over.config ? JSON.stringify(over.config) : null,
      Date.now(),
    ],
  );
  return { id, serial, deviceKey, claimCode };
}

/** Inserts a sensor's measurements from columns (epoch ms, raw distance mm), 5,000 rows a statement. */
export async function insertMeasurementColumns(q: Queryable, sensorId: string, time: ArrayLike<number>, raw: ArrayLike<number>) {
  for (let i = 0; i < time.length; i += 5000) {
    const t = Array.from(time).slice(i, i + 5000);
    const r = Array.from(raw).slice(i, i + 5000);
    await q.query(`INSERT INTO measurements (sensor_id, time, raw_distance) SELECT $1, t, r FROM unnest($2::bigint[], $3::real[]) AS x(t, r)`, [sensorId, t, r]);
  }
}

/** The invitation tests' world: an owner of two organisations, Alpha Water and Bravo Water. */
export async function twoOrganisations(q: Queryable) {
  const owner = await makeUser(q);
  const orgA = (await makeOrg(q, { name: 'Alpha Water' })).id;
  const orgB = (await makeOrg(q, { name: 'Bravo Water' })).id;
  await addMember(q, orgA, owner.id, 3);
  await addMember(q, orgB, owner.id, 3);
  return { owner, orgA, orgB };
}

/** The organisations an address is a member of. */
export async function orgsOf(q: Queryable, email: string) {
  return (await q.query<{ org_id: string }>('SELECT m.org_id FROM memberships m JOIN users u ON u.id = m.user_id WHERE u.email = $1', [email])).map((r) => r.org_id);
}
