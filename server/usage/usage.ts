import { loadCore, type Core } from '../../wasm-core/core';
import { analyseUsage, usageLoadStart, type Usage, type UsageSensor } from '../../wasm-core/usage';
import { one, type Queryable } from '../db/db';
import { readMeasurements } from '../gateway/measurements.routes';
import type { ConversionConfig } from '../../src/contract/sensor.schema';

let shared: Promise<Core> | null = null;
/**
 * The data core in this process (wasm-core/build/core.wasm, built by `npm run build:wasm`):
 * the same code the browser's worker runs, so the server's usage answers are the chart's.
 */
export const serverCore = () => (shared ??= loadCore());

/** Rows a page reads while loading a sensor's series for analysis. */
const PAGE = 200_000;

/** A sensor's measurements in [from, to], ascending, as columns (time ms f64, raw distance f32). */
export async function loadColumns(db: Queryable, sensorId: string, from: number, to: number): Promise<{ time: Float64Array; raw: Float32Array }> {
  const parts: { t: Buffer; d: Buffer; n: number }[] = [];
  let start: string | undefined;
  let total = 0;
  do {
    const { page, next } = await readMeasurements(db, sensorId, { order: 'asc', startTime: from, endTime: to, start, format: 'rows', limit: PAGE }, 'binary');
    if (page && page.n > 0) {
      parts.push({ t: page.t as Buffer, d: page.d as Buffer, n: page.n });
      total += page.n;
    }
    start = next ?? undefined;
  } while (start);
  const time = new Float64Array(total);
  const raw = new Float32Array(total);
  let k = 0;
  // the page's columns are big-endian IEEE values (float8send, float4send)
  for (const p of parts) {
    for (let i = 0; i < p.n; i++, k++) {
      time[k] = p.t.readDoubleBE(i * 8);
      raw[k] = p.d.readFloatBE(i * 4);
    }
  }
  return { time, raw };
}

interface SensorRow {
  conversion_configs: ConversionConfig[];
  alarms: UsageSensor['alarms'];
  display_info: { offsetMeasurement?: number | null; maxLevel?: number | null };
  timezone: string | null;
}

/** The sensor's configuration and its organisation's time zone (null when the sensor is not the organisation's). */
export async function usageSensor(db: Queryable, orgId: string, sensorId: string): Promise<(UsageSensor & { timeZone: string }) | null> {
  const row = await one<SensorRow>(
    db,
    `SELECT s.conversion_configs, s.alarms, s.display_info, o.locale->>'timezone' AS timezone
       FROM sensors s JOIN organisations o ON o.id = s.org_id WHERE s.id = $1 AND s.org_id = $2`,
    [sensorId, orgId],
  );
  if (!row) return null;
  return {
    conversionConfigs: row.conversion_configs ?? [],
    alarms: row.alarms ?? {},
    offsetMeasurement: row.display_info?.offsetMeasurement ?? null,
    maxLevel: row.display_info?.maxLevel ?? null,
    timeZone: row.timezone || 'Pacific/Auckland',
  };
}

/** Usage of one sensor over [startTime, endTime] (loads the forecast's history too); kind 'none' without a volume or flow conversion. */
export async function sensorUsage(db: Queryable, sensor: UsageSensor & { timeZone: string }, sensorId: string, q: { startTime: number; endTime: number; level?: number }): Promise<Usage | { kind: 'none' }> {
  const conversion = sensor.conversionConfigs[0];
  if (!conversion) return { kind: 'none' };
  const core = await serverCore();
  const from = usageLoadStart(sensor.timeZone, q.startTime, q.endTime);
  const columns = await loadColumns(db, sensorId, from, q.endTime);
  return analyseUsage(core, sensor, columns, { timeZone: sensor.timeZone, startTime: q.startTime, endTime: q.endTime, levelMm: q.level }) ?? { kind: 'none' };
}
