// Benchmark 4 (issue 5): the CSV of a year of 1-minute data (525,600 rows) written by the core,
// against Papa.unparse of the same rows; the output must parse back to the same cells.
import Papa from 'papaparse';
import { conversionParams, csvDecimals } from '../wasm-core/conversion';
import { loadCore } from '../wasm-core/core';
import { buildCsv } from '../wasm-core/csv-file';
import { refFormatDate, refFormatNumber, zoneOffsetAt } from '../wasm-core/reference/csv';
import { refConvert } from '../wasm-core/reference/convert';
import { zoneOffsets } from '../wasm-core/timezone';
import { compare, makeSeries, type BenchRow } from './bench-kit';

const N = 525_600;
const ZONE = 'Pacific/Auckland';

export async function run(): Promise<BenchRow[]> {
  const core = await loadCore();
  const { time, value } = makeSeries(N);
  const store = core.newStore();
  core.merge(store, time, value);
  const params = conversionParams('level', 3000, null, 'Metres');
  const req = { startTime: time[0], endTime: time[N - 1], format: 'DD/MM/YYYY HH:mm:ss' as const, timeZone: ZONE, sensorName: 'Main Reservoir', serial: '1A2B3C4D', params, nowMs: Date.now() };
  const ours = () => buildCsv(core, store, req).csv;

  // Papa gets the cells already formatted (dates and numbers as strings): it only serialises.
  const zone = zoneOffsets(ZONE, time[0], time[N - 1]);
  const dec = csvDecimals(params);
  const header = ['Time (Pacific/Auckland)', 'Main Reservoir - Water Level (m)'];
  const cells = Array.from(time, (t, i) => [refFormatDate(t, req.format, zoneOffsetAt(zone, t)), refFormatNumber(refConvert(params, value[i]), dec)]);
  const papa = () => Papa.unparse({ fields: header, data: cells }, { newline: '\r\n' });

  // Parsing back: the same cells, row for row.
  const parsed = Papa.parse<string[]>(ours().trimEnd(), { newline: '\r\n' }).data;
  if (parsed.length !== N + 1) throw new Error(`CSV has ${parsed.length} rows, expected ${N + 1}`);
  if (parsed[0].join() !== header.join()) throw new Error(`CSV header differs: ${parsed[0]}`);
  for (let i = 0; i < N; i++) {
    if (parsed[i + 1][0] !== cells[i][0] || parsed[i + 1][1] !== cells[i][1]) throw new Error(`CSV row ${i} differs: ${parsed[i + 1]} vs ${cells[i]}`);
  }
  if (papa() + '\r\n' !== ours()) throw new Error('CSV text differs from Papa.unparse of the same cells (plus the final line break)');

  const r = await compare(ours, papa);
  core.freeStore(store);
  return [
    {
      bench: '4 CSV',
      what: `CSV of ${N.toLocaleString('en-GB')} rows (format, zone, convert, write) vs Papa.unparse of preformatted cells`,
      ...r,
      target: { kind: 'speedup', value: 5 },
      note: 'parses back equal; text identical to Papa',
    },
  ];
}
