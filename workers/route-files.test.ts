import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadCore } from '../wasm-core/core';
import type { ExportReading, ExportTask } from './data-api';
import { DataWorker } from './data-worker';

// Issue 14 "Files, formatted off the main thread": the data worker's route-file calls, as the
// screens use them (the same object data.worker.ts exposes with Comlink).
const dir = new URL('../tests/fixtures/routes/', import.meta.url);
const bytes = (name: string) => new Uint8Array(readFileSync(new URL(name, dir)));
const NOW = Date.UTC(2026, 10, 23, 22, 5, 9);
const worker = new DataWorker({ core: await loadCore(), now: () => NOW });

describe('data worker: route files', () => {
  it('parses council files into import payloads and a workbook into a special route', async () => {
    const r = await worker.parseRouteFiles(
      [
        { name: 'TCC_DCOL_R12_3_EXP.TXT', data: bytes('TCC_DCOL_R12_3_EXP.TXT') },
        { name: 'SPECIALREAD_9_EXP.txt', data: new TextEncoder().encode(['SPECIALREAD', '', 'OZ1', '', '', '', 'S1', ...Array(9).fill('')].join('|')) },
      ],
      { timeZone: 'Pacific/Auckland', group: 'North', organisationId: '00000000-0000-4000-8000-000000000001' },
    );
    expect(r.problems).toEqual([]);
    expect(r.payloads.map((p) => [p.routeName, p.iterationNumber, p.readings.length, p.organisationId])).toEqual([
      ['R12', '3', 5, '00000000-0000-4000-8000-000000000001'],
      [`SP${Math.floor(NOW / 1000)}`, '9', 1, '00000000-0000-4000-8000-000000000001'],
    ]);
    const s = await worker.parseSpecialRouteFiles([{ name: 'special-route.xlsx', data: bytes('special-route.xlsx') }], { group: 'Specials' });
    expect(s.payload?.meters).toHaveLength(3);
  });

  it('formats the four downloads with their names', async () => {
    const sample = JSON.parse(readFileSync(new URL('R12-recorded.json', dir), 'utf8')) as { timeZone: string; task: ExportTask; readings: ExportReading[] };
    const req = { task: sample.task, readings: sample.readings, timeZone: sample.timeZone };
    const results = await worker.formatResultsFile(req);
    expect(results.filename).toBe('TCC_DCOL_R12_3_IMP.TXT');
    expect(results.content).toBe(readFileSync(new URL('TCC_DCOL_R12_3_IMP.TXT', dir), 'utf8'));
    expect(Buffer.from(results.bytes).equals(readFileSync(new URL('TCC_DCOL_R12_3_IMP.TXT', dir)))).toBe(true); // UTF-8 by default
    expect(results.replaced).toBe(0);
    // an organisation on Windows-1252: the owner Ōtāhuhu has two characters it cannot hold
    const win = await worker.formatResultsFile({ ...req, encoding: 'Windows-1252' });
    expect(win.replaced).toBe(2);
    expect(new TextDecoder('windows-1252').decode(win.bytes)).toBe(results.content.replace('Ōtāhuhu', '?t?huhu'));
    expect((await worker.formatExceptionsFile(req)).filename).toBe('TCC_DCOL_R12_3_IMP_exceptions.csv');
    const selection = await worker.formatSelectionCsv(req);
    expect([selection.filename, selection.rows]).toEqual(['WW_R12_3.csv', 5]);
    const multi = await worker.formatMultiTaskCsv({ tasks: [{ task: sample.task, readings: sample.readings }], exceptionsOnly: true, timeZone: sample.timeZone });
    expect([multi.filename, multi.rows]).toEqual(['WW_EXCEPTIONS_24112026_110509.csv', 3]);
  });
});
