import { randomUUID } from 'node:crypto';
import type { Queryable } from '../db/db';
import { badRequest } from '../http/errors';
import { nextTaskNumber, type ReadingRow } from './store';
import {
  ROUTE_ERROR_CODES,
  ROUTE_MESSAGES,
  SPECIAL_ROUTE_PREFIX,
  type MeterInfo,
  type RouteImport,
  type SpecialRouteCreate,
} from '../../src/contract/route.schema';

/** A meter is (ozone reference, serial) (DESIGN.md "the meter registry"). */
const meterKey = (ozone: string | null, serial: string | null | undefined) => JSON.stringify([ozone ?? '', serial ?? '']);

const duplicateMeters = () => badRequest(ROUTE_ERROR_CODES.DUPLICATE_METERS, ROUTE_MESSAGES.DUPLICATE_METERS);

function refuseDuplicates(keys: string[]) {
  const seen = new Set<string>();
  for (const k of keys) {
    if (seen.has(k)) throw duplicateMeters();
    seen.add(k);
  }
}

interface NewReading {
  id: string;
  sequence: number;
  meter_info: MeterInfo;
  ozone_reference: string;
  last_recorded_reading: number | null;
  imported_prev_reading: { value: number; date: number } | null;
  reason: string | null;
}

/** Inserts a task and all its readings: one statement for the readings, however many (jsonb_to_recordset). */
async function insertTask(
  q: Queryable,
  orgId: string,
  task: { routeName: string; group: string | null; isSpecial: boolean; iterationNumber: string | null; now: number },
  readings: NewReading[],
): Promise<string> {
  const id = randomUUID();
  const number = await nextTaskNumber(q, orgId);
  await q.query(
    `INSERT INTO route_tasks (id, org_id, task_number, route_name, group_name, is_special, iteration_number, exported, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, false, $8)`,
    [id, orgId, number, task.routeName, task.group, task.isSpecial, task.iterationNumber, task.now],
  );
  await q.query(
    `INSERT INTO meter_readings (id, route_task_id, sequence, meter_info, ozone_reference, last_recorded_reading, imported_prev_reading, reason)
     SELECT x.id, $1, x.sequence, x.meter_info, x.ozone_reference, x.last_recorded_reading, x.imported_prev_reading, x.reason
     FROM jsonb_to_recordset($2::jsonb) AS x(id uuid, sequence integer, meter_info jsonb, ozone_reference text, last_recorded_reading bigint,
                                             imported_prev_reading jsonb, reason text)`,
    [id, JSON.stringify(readings)],
  );
  return id;
}

interface RegistryRow extends Pick<ReadingRow, 'id' | 'meter_info' | 'ozone_reference' | 'value' | 'recorded_at' | 'completed' | 'imported_prev_reading' | 'last_recorded_reading'> {
  serial: string;
}

/**
 * The registry: for each meter asked for, the organisation's latest reading of it (any task),
 * and separately its latest recorded value (a completed reading with a value).
 */
async function registry(q: Queryable, orgId: string, meters: { ozone: string; serial: string }[], excludeTask?: string) {
  const ozones = meters.map((m) => m.ozone);
  const serials = meters.map((m) => m.serial);
  const rows = await q.query<RegistryRow>(
    `SELECT r.id, r.meter_info, r.ozone_reference, r.meter_info->>'serial' AS serial, r.value, r.recorded_at, r.completed, r.imported_prev_reading, r.last_recorded_reading
     FROM meter_readings r JOIN route_tasks t ON t.id = r.route_task_id
     JOIN unnest($2::text[], $3::text[]) AS k(ozone, serial) ON r.ozone_reference = k.ozone AND r.meter_info->>'serial' = k.serial
     WHERE t.org_id = $1 AND ($4::uuid IS NULL OR t.id <> $4::uuid)
     ORDER BY t.created_at, r.recorded_at NULLS FIRST`,
    [orgId, ozones, serials, excludeTask ?? null],
  );
  const latest = new Map<string, RegistryRow>();
  const recorded = new Map<string, { value: number; date: number }>();
  for (const r of rows) {
    const key = meterKey(r.ozone_reference, r.serial);
    latest.set(key, r); // rows come oldest first: the last one wins
    if (r.completed && r.value !== null && r.value >= 0 && r.recorded_at !== null) recorded.set(key, { value: r.value, date: r.recorded_at });
  }
  return { latest, recorded };
}

/**
 * POST /routes: one normal route (one council file) as one task, all or nothing. The same
 * meter twice is DUPLICATE_METERS. The last value recorded for a meter in an earlier task
 * becomes its lastRecordedReading; the file's previous reading is kept as importedPrevReading.
 */
export async function importRoute(q: Queryable, orgId: string, body: RouteImport, now: number): Promise<string> {
  refuseDuplicates(body.readings.map((r) => meterKey(r.ozoneNumber, r.serial)));
  const { recorded } = await registry(
    q,
    orgId,
    body.readings.map((r) => ({ ozone: r.ozoneNumber, serial: r.serial })),
  );
  const readings: NewReading[] = body.readings.map((r) => {
    const last = recorded.get(meterKey(r.ozoneNumber, r.serial));
    const imported = r.importedPrevReading ?? null;
    const newer = last && (!imported || last.date > imported.date) ? last : null;
    return {
      id: randomUUID(),
      sequence: r.sequence,
      ozone_reference: r.ozoneNumber,
      meter_info: {
        serial: r.serial,
        location: r.location || 'Unknown',
        propertyAddress: r.propertyAddress || 'Unknown',
        ownerName: r.ownerName || 'Unknown',
        valuationRef: r.valuationRef || 'Unknown',
        additionalLocationInfo: r.additionalLocationInfo ?? '',
        latitude: r.latitude ?? null,
        longitude: r.longitude ?? null,
      },
      last_recorded_reading: newer ? newer.value : (imported?.value ?? null),
      imported_prev_reading: imported,
      reason: null,
    };
  });
  return insertTask(q, orgId, { routeName: body.routeName, group: body.group ?? null, isSpecial: false, iterationNumber: body.iterationNumber ?? null, now }, readings);
}

/** A special route's name: "SP" plus the current unix seconds (section 9). */
export const specialRouteName = (now: number) => `${SPECIAL_ROUTE_PREFIX}${Math.floor(now / 1000)}`;

/**
 * POST /special-routes: from meters (each must be in the registry: SOME_METERS_NOT_FOUND) or
 * from existing readings of the organisation (SOME_METER_READINGS_NOT_FOUND); the same meter
 * twice is DUPLICATE_METERS. Each reading copies the meter's details and its latest value.
 */
export async function createSpecialRoute(q: Queryable, orgId: string, body: SpecialRouteCreate, now: number): Promise<string> {
  let readings: NewReading[];
  if ('meters' in body) {
    refuseDuplicates(body.meters.map((m) => meterKey(m.ozoneReference, m.serial)));
    const { latest, recorded } = await registry(
      q,
      orgId,
      body.meters.map((m) => ({ ozone: m.ozoneReference, serial: m.serial })),
    );
    if (body.meters.some((m) => !latest.has(meterKey(m.ozoneReference, m.serial))))
      throw badRequest(ROUTE_ERROR_CODES.SOME_METERS_NOT_FOUND, ROUTE_MESSAGES.SOME_METERS_NOT_FOUND);
    readings = body.meters.map((m, i) => {
      const key = meterKey(m.ozoneReference, m.serial);
      return fromRegistry(latest.get(key)!, recorded.get(key), i, m.meterLocation, m.reason);
    });
  } else {
    const ids = body.readings.map((r) => r.id);
    if (new Set(ids).size !== ids.length) throw duplicateMeters();
    const rows = await q.query<RegistryRow & { notes: string | null }>(
      `SELECT r.id, r.meter_info, r.ozone_reference, r.meter_info->>'serial' AS serial, r.value, r.recorded_at, r.completed, r.imported_prev_reading, r.last_recorded_reading, r.notes
       FROM meter_readings r JOIN route_tasks t ON t.id = r.route_task_id WHERE t.org_id = $1 AND r.id = ANY($2::uuid[])`,
      [orgId, ids],
    );
    const byId = new Map(rows.map((r) => [r.id, r]));
    if (ids.some((id) => !byId.has(id))) throw badRequest(ROUTE_ERROR_CODES.SOME_METER_READINGS_NOT_FOUND, ROUTE_MESSAGES.SOME_METER_READINGS_NOT_FOUND);
    refuseDuplicates(rows.map((r) => meterKey(r.ozone_reference, r.serial)));
    const { recorded } = await registry(
      q,
      orgId,
      rows.map((r) => ({ ozone: r.ozone_reference ?? '', serial: r.serial })),
    );
    readings = body.readings.map((sel, i) => {
      const r = byId.get(sel.id)!;
      const reason = sel.reason?.trim() || r.notes?.trim() || 'Unknown';
      return fromRegistry(r, recorded.get(meterKey(r.ozone_reference, r.serial)), i, r.meter_info.location ?? 'Unknown', reason);
    });
  }
  return insertTask(q, orgId, { routeName: specialRouteName(now), group: body.group.trim() || null, isSpecial: true, iterationNumber: null, now }, readings);
}

function fromRegistry(r: RegistryRow, last: { value: number; date: number } | undefined, i: number, location: string, reason: string): NewReading {
  const info = r.meter_info;
  const prev = last ?? r.imported_prev_reading ?? null;
  return {
    id: randomUUID(),
    sequence: (i + 1) * 10,
    ozone_reference: r.ozone_reference ?? '',
    meter_info: {
      serial: info.serial ?? '',
      location: location || 'Unknown',
      propertyAddress: info.propertyAddress ?? 'Unknown',
      ownerName: info.ownerName ?? 'Unknown',
      valuationRef: info.valuationRef ?? 'Unknown',
      additionalLocationInfo: info.additionalLocationInfo ?? '',
      latitude: info.latitude ?? null,
      longitude: info.longitude ?? null,
    },
    last_recorded_reading: prev ? prev.value : null,
    imported_prev_reading: prev,
    reason,
  };
}
