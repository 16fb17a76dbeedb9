import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { configureGateway } from '../../shared/api';
import type { ReaderTask } from '../../contract/reader.schema';
import { ReaderDb } from './reader-db';
import { downloadInto } from './reader-download';

const answer: ReaderTask = {
  task: {
    id: 't1', organisationId: 'o1', taskNumber: 1004, routeName: 'KAR-04', group: null, suburb: 'Karori', type: null, isSpecial: false, assignedTo: null, iterationNumber: null,
    startedAt: null, completedAt: null, exported: false, completedReadings: 0, totalReadings: 1, totalExceptions: 0, estTimeSpent: null, createdAt: 1,
  },
  readings: [
    {
      id: 'r1', routeTaskId: 't1', sequence: 10, ozoneReference: null, value: null, recordedAt: null, recordedBy: null, recorderName: null, completed: false, notes: null,
      cantReadCode: null, commentCode: null, exception: null, serviceRequired: false, edited: false, photoUrl: null, lastRecordedReading: 1200, importedPrevReading: null, reason: null, position: null,
      meterInfo: { serial: 'M1', location: 'Front', propertyAddress: '1 Tide Street', ownerName: 'Owner', valuationRef: '1/1', additionalLocationInfo: '', latitude: null, longitude: null },
    },
  ],
};

const serve = (body: unknown, status = 200) => vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify(body), { status })));

// issue 33: the download for offline use (run in the reader app's download worker)
describe('downloading a task to the device', () => {
  afterEach(() => vi.unstubAllGlobals());
  configureGateway({ endpoint: 'http://product.test/api', getIdToken: async () => 'token' });

  it('stores the task and its readings as the server answered, with the organisation and when', async () => {
    serve(answer);
    const db = await ReaderDb.open(`reader-${Math.random()}`);
    expect(await downloadInto(db, { orgId: 'o1', orgName: 'Harbour City Council', taskId: 't1' }, () => 42)).toEqual({ ...answer, orgId: 'o1', orgName: 'Harbour City Council', downloadedAt: 42 });
    expect(vi.mocked(fetch).mock.calls[0][0].toString()).toBe('http://product.test/api/organisations/o1/reader/tasks/t1');
    expect(await db.task('t1')).toEqual({ ...answer, orgId: 'o1', orgName: 'Harbour City Council', downloadedAt: 42 });
  });

  it('stores nothing when the answer is refused or not a task', async () => {
    const db = await ReaderDb.open(`reader-${Math.random()}`);
    serve({ code: 'NOT_ASSIGNED', message: 'This route task is not assigned to you.' }, 403);
    await expect(downloadInto(db, { orgId: 'o1', orgName: 'H', taskId: 't1' }, () => 42)).rejects.toThrow('This route task is not assigned to you.');
    serve({ ...answer, readings: [{ ...answer.readings[0], sequence: 'ten' }] });
    await expect(downloadInto(db, { orgId: 'o1', orgName: 'H', taskId: 't1' }, () => 42)).rejects.toThrow();
    expect(await db.tasks()).toEqual([]);
  });
});
