import { randomUUID } from 'node:crypto';
import type { Queryable } from '../db/db';

const DAY = 86_400_000;

/** Firmware records of every type and build stage; hardware 9, 10, 11, 13 are 9.0, 9.1, 9.2, 9.4. */
const FIRMWARE = [
  { name: 'hilo-main-64.bin', type: 'Main', version: 64, build: 'Production', hw: [9, 10], daysAgo: 540 },
  { name: 'hilo-main-68.bin', type: 'Main', version: 68, build: 'Production', hw: [9, 10, 11], daysAgo: 300 },
  { name: 'hilo-main-72.bin', type: 'Main', version: 72, build: 'Production', hw: [10, 11, 13], daysAgo: 120 },
  { name: 'hilo-main-74-beta.bin', type: 'Main', version: 74, build: 'Beta', hw: [11, 13], daysAgo: 30 },
  { name: 'hilo-main-75-alpha.bin', type: 'Main', version: 75, build: 'Alpha', hw: [13], daysAgo: 6 },
  { name: 'radar-acc-12.bin', type: 'Radar', version: 12, build: 'Production', hw: [11, 13], daysAgo: 200 },
  { name: 'radar-acc-14-beta.bin', type: 'Radar', version: 14, build: 'Beta', hw: [13], daysAgo: 20 },
  { name: 'ble-5.bin', type: 'Ble', version: 5, build: 'Production', hw: [9, 10, 11, 13], daysAgo: 400 },
  { name: 'ble-6-beta.bin', type: 'Ble', version: 6, build: 'Beta', hw: [11, 13], daysAgo: 45 },
];

/** Offered to every organisation (org_id null); dimensions in metres. */
const PRESETS = [
  { manufacturer: 'Devan', model: 'Rural 30,000 L', shape: 'VOLUME_CYLINDER', diameter: 3.6, height: 3.0 },
  { manufacturer: 'Devan', model: 'Slimline 5,000 L', shape: 'VOLUME_RECTANGULAR', width: 0.9, length: 3.1, height: 2.1 },
  { manufacturer: 'Bailey Tanks', model: 'Squat 25,000 L', shape: 'VOLUME_CYLINDER', diameter: 4.2, height: 1.9 },
  { manufacturer: 'Fuelchief', model: 'Horizontal 20,000 L', shape: 'VOLUME_CYLINDER_HORIZONTAL', diameter: 2.4, length: 4.6, safe: 2.2 },
  { manufacturer: 'Fuelchief', model: 'Horizontal 10,000 L', shape: 'VOLUME_CYLINDER_HORIZONTAL', diameter: 2.0, length: 3.4, safe: 1.85 },
  { manufacturer: 'Transtank', model: 'Cube 2,200 L', shape: 'VOLUME_RECTANGULAR', width: 1.5, length: 1.3, height: 1.2, safe: 1.1 },
];

/** Inserts firmware and tank presets; returns firmware ids by file name and preset ids by model. */
export async function insertCatalogue(q: Queryable, anchor: number) {
  const firmware: Record<string, string> = {};
  for (const f of FIRMWARE) {
    firmware[f.name] = randomUUID();
    await q.query(`INSERT INTO firmware (id, fw_name, fw_type, fw_version, build_type, apply_to, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)`, [
      firmware[f.name],
      f.name,
      f.type,
      f.version,
      f.build,
      JSON.stringify({ hardwareVersions: f.hw }),
      anchor - f.daysAgo * DAY,
    ]);
  }
  const presets: Record<string, string> = {};
  for (const p of PRESETS) {
    presets[p.model] = randomUUID();
    await q.query(
      `INSERT INTO tank_presets (id, org_id, manufacturer, model, shape, width, height, length, diameter, safe_fill_level)
       VALUES ($1, NULL, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [presets[p.model], p.manufacturer, p.model, p.shape, p.width ?? null, p.height ?? null, p.length ?? null, p.diameter ?? null, p.safe ?? null],
    );
  }
  return { firmware, presets };
}

/** The installation photos the demo record names; server/seed/files holds them (see storage.ts). */
export const DEMO_PHOTOS = ['diesel-depot-1-cert-plate.png', 'diesel-depot-1-close.png', 'diesel-depot-1-far.png'];

/** The installation record of the diesel tank, installed from the Fuelchief 20,000 L preset. */
export async function insertFuelInstallation(q: Queryable, sensorId: string, presetId: string, anchor: number) {
  await q.query(
    `INSERT INTO fuel_installations (sensor_id, time, fuel_type, shape, width, height, length, diameter, safe_fill_level, monitor_height, dip_reading,
                                     preset_id, cert_plate_image_url, close_image_url, far_image_url)
     VALUES ($1, $2, 'Diesel', 'VOLUME_CYLINDER_HORIZONTAL', NULL, NULL, 4.6, 2.4, 2.2, 2.6, 1.42, $3, $4, $5, $6)`,
    [sensorId, anchor - 368 * DAY, presetId, ...DEMO_PHOTOS],
  );
}
