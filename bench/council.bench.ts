// Benchmark (issue 14): the council results file and the readings CSV of 100,000 readings,
// formatted by the core from the reading objects (packing included), against the same files made
// in JavaScript and serialised by Papa.unparse. Both outputs must be identical.
import Papa from 'papaparse';
import { loadCore } from '../wasm-core/core';
import { buildResultsFile, buildSelectionCsv, CSV_COLUMNS, type ExportReading, type ExportTask } from '../wasm-core/council-file';
import { refCsvFields, refNeutralise, refResultFields } from '../wasm-core/reference/council';
import { zoneOffsets } from '../wasm-core/timezone';
import { compare, type BenchRow } from './bench-kit';

const N = 100_000;
const ZONE = 'Pacific/Auckland';
const STREETS = ['Harbour View Road', 'Kowhai Street', 'Great North Road', 'Ōtāhuhu Crescent', 'Queen Street, Unit 4', 'Te Atatū Road'];
const OWNERS = ['J Smith', 'A & B Ngata', 'Te Whare Trust', 'Pātaka Holdings Ltd', 'Harbour Investments (2019)', 'L Chen'];
const NOTES = [null, null, null, 'Dog in the yard, gate locked', 'Lid cracked', '=1+2', '@SUM(A1)', 'Meter under the hedge'];

/** 100,000 readings of a month of reading days, most completed, a few with codes and notes. */
export function makeReadings(n: number): ExportReading[] {
  const start = Date.UTC(2026, 2, 20); // across the end of daylight saving in Auckland
  let x = 4242;
  const rnd = (m: number) => {
    x = (Math.imul(x, 1103515245) + 12345) | 0;
    return (x >>> 8) % m;
  };
  return Array.from({ length: n }, (_, i): ExportReading => {
    const completed = rnd(10) < 9;
    const cant = completed && rnd(20) === 0;
    const notes = NOTES[rnd(NOTES.length)];
    return {
      sequence: (i + 1) * 10,
      value: completed && !cant ? rnd(9_999_999) : null,
      recordedAt: completed ? start + i * 25_000 + rnd(20_000) : null,
      recorderName: completed ? 'Demo Meter Reader' : null,
      completed,
      notes,
      cantReadCode: cant ? 'Dog' : null,
      commentCode: completed && !cant && rnd(15) === 0 ? 'Broken Lid' : null,
      exception: completed ? (rnd(12) === 0 ? 'HighConsumption' : 'NoError') : null,
      serviceRequired: completed && rnd(40) === 0,
      lastRecordedReading: rnd(9_999_999),
      ozoneReference: `OZ${100000 + i}`,
      meterInfo: {
        serial: `M${200000 + i}`,
        location: rnd(3) ? 'Front boundary left' : 'Berm',
        propertyAddress: `${1 + rnd(400)} ${STREETS[rnd(STREETS.length)]}`,
        ownerName: OWNERS[rnd(OWNERS.length)],
        valuationRef: `${1000 + rnd(9000)}/${rnd(999)}`,
        additionalLocationInfo: rnd(4) ? '' : 'Behind the gate',
        latitude: -36.8 - rnd(100_000) / 1e6,
        longitude: 174.7 + rnd(100_000) / 1e6,
      },
    };
  });
}

export async function run(): Promise<BenchRow[]> {
  const core = await loadCore();
  const readings = makeReadings(N);
  const task: ExportTask = { routeName: 'R12', taskNumber: 42, iterationNumber: '3' };
  const times = readings.flatMap((r) => (r.recordedAt === null ? [] : [r.recordedAt]));
  const zone = zoneOffsets(ZONE, Math.min(...times), Math.max(...times));

  // JavaScript: the same cells (reference formatting from the objects), serialised by Papa.
  const jsResults = () => {
    const rows: string[][] = [];
    let row = 0;
    for (const r of readings) if (r.completed) rows.push(refResultFields(++row, task, r, zone));
    // Papa would quote a cell holding a double quote; the results file is never quoted, and these rows have none
    return Papa.unparse(rows, { delimiter: '|', newline: '\r\n', quotes: false, escapeFormulae: false }) + '\r\n';
  };
  // Papa quotes itself: text cells only neutralised (its escapeFormulae would also hit -36.8, a number)
  const jsCsv = () => {
    const rows = readings.map((r) => refCsvFields(task, r, zone, refNeutralise));
    return Papa.unparse({ fields: [...CSV_COLUMNS.map((c) => (c === 'Recorded Time' ? `Recorded Time (${ZONE})` : c))], data: rows }, { newline: '\r\n' }) + '\r\n';
  };
  const ours = () => buildResultsFile(core, task, readings, ZONE).content;
  const oursCsv = () => buildSelectionCsv(core, task, readings, ZONE).content;

  if (ours() !== jsResults()) throw new Error('results file differs from the JavaScript + Papa.unparse one');
  if (oursCsv() !== jsCsv()) throw new Error('readings CSV differs from the JavaScript + Papa.unparse one');

  // Papa serialising cells formatted beforehand (what it alone costs), as benchmark 4 does.
  const preCells = readings.map((r) => refCsvFields(task, r, zone));
  const papaOnly = () => Papa.unparse(preCells, { newline: '\r\n', quotes: false, escapeFormulae: false });

  const a = await compare(ours, jsResults);
  const b = await compare(oursCsv, jsCsv);
  const c = await compare(oursCsv, papaOnly);
  const n = N.toLocaleString('en-GB');
  return [
    { bench: '14 council TXT', what: `results file of ${n} readings: core (pack, format, write) vs JS cells + Papa.unparse`, ...a, target: { kind: 'speedup', value: 1.5 }, note: 'identical bytes' },
    { bench: '14 council CSV', what: `readings CSV of ${n} readings: core vs JS cells + Papa.unparse (quoting by Papa)`, ...b, target: { kind: 'speedup', value: 1.5 }, note: 'identical bytes' },
    { bench: '14 council CSV', what: `readings CSV of ${n} readings: core vs Papa.unparse of preformatted cells`, ...c, target: null, note: 'Papa serialising only' },
  ];
}
