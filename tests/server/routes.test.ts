import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, testDrivers, type TestServer } from './harness';
import { addMember, makeOrg, makeUser } from './fixtures';
import {
  ROUTE_MESSAGES,
  liveRouteTaskMessageSchema,
  meterReadingAnswerSchema,
  meterReadingListSchema,
  routeMetadataSchema,
  routeProgress,
  routeTaskAnswerSchema,
  routeTaskListSchema,
  type ImportReading,
  type MeterReading,
  type RouteImport,
  type RouteTask,
} from '../../src/contract/route.schema';
import { meterException } from '../../server/routes/exceptions';
import { collect, connectWs } from './live-helpers';

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 10, 1);

/** A council file's rows as the parser hands them over. */
const rows = (n: number, prefix = 'OZ', from = 0): ImportReading[] =>
  Array.from({ length: n }, (_, i) => ({
    sequence: (i + 1) * 10,
    ozoneNumber: `${prefix}${from + i}`,
    serial: `SER${from + i}`,
    valuationRef: `17${i}/00`,
    propertyAddress: `${i + 1} Upland Road, Kelburn`,
    ownerName: `Owner ${i}`,
    location: 'Front boundary',
    importedPrevReading: { value: 1000 + i, date: T0 - 90 * DAY },
  }));
const payload = (readings: ImportReading[], over: Partial<RouteImport> = {}): RouteImport => ({ routeName: 'KEL-01', group: 'North', iterationNumber: '2611', readings, ...over });

// organisation-and-routes 7.3, 4, 5, 6 and 8, and DESIGN.md's record call
describe.each(testDrivers)('meter-reading service routes on %s', (driver) => {
  let s: TestServer;
  let org: { id: string };
  const ids: Record<string, string> = {};
  const tokens: Record<string, string> = {};

  const call = (who: string, method: string, path: string, json?: unknown) => s.api(path, { method, token: tokens[who], json });
  const codeOf = async (res: Response) => ((await res.json()) as { code: string }).code;
  const importRoute = async (readings: ImportReading[], over: Partial<RouteImport> = {}): Promise<RouteTask> => {
    const res = await call('admin', 'POST', `/organisations/${org.id}/routes`, payload(readings, over));
    expect(res.status).toBe(201);
    return routeTaskAnswerSchema.parse(await res.json()).task;
  };
  const readingsOf = async (taskId: string, who = 'owner') => {
    const res = await call(who, 'GET', `/organisations/${org.id}/routes/${taskId}/meter-readings`);
    expect(res.status).toBe(200);
    return meterReadingListSchema.parse(await res.json());
  };
  const assign = (taskId: string, to: string | null, who = 'admin') => call(who, 'PATCH', `/organisations/${org.id}/routes/${taskId}`, { assignedTo: to && ids[to] });
  const record = (taskId: string, readingId: string, body: Record<string, unknown>, who = 'reader') =>
    call(who, 'PUT', `/organisations/${org.id}/routes/${taskId}/meter-readings/${readingId}/record`, { recordedAt: T0, ...body });
  const edit = (taskId: string, readingId: string, body: Record<string, unknown>, who = 'admin') =>
    call(who, 'PATCH', `/organisations/${org.id}/routes/${taskId}/meter-readings/${readingId}`, body);
  const tasks = async (who = 'owner') => {
    const res = await call(who, 'GET', `/organisations/${org.id}/routes`);
    expect(res.status).toBe(200);
    return routeTaskListSchema.parse(await res.json()).routes;
  };
  /** A task assigned to the reader with every reading recorded (values prev + 40). */
  const completedTask = async (n = 3) => {
    const t = await importRoute(rows(n));
    expect((await assign(t.id, 'reader')).status).toBe(200);
    for (const r of (await readingsOf(t.id)).readings) expect((await record(t.id, r.id, { value: r.importedPrevReading!.value + 40 })).status).toBe(200);
    return t;
  };

  beforeAll(async () => {
    s = await startTestServer(driver, {}, { now: () => T0 + DAY });
    const otherOrg = await makeOrg(s.ctx.db, { features: { meterReading: true } });
    const stranger = await makeUser(s.ctx.db);
    await addMember(s.ctx.db, otherOrg.id, stranger.id, 3);
    ids.stranger = stranger.id;
    tokens.stranger = await s.tokenFor(stranger.id);
  });
  afterAll(() => s?.close());

  beforeEach(async () => {
    org = await makeOrg(s.ctx.db, { name: 'Council', features: { meterReading: true } });
    for (const [who, role] of [['owner', 3], ['admin', 2], ['member', 1], ['reader', 4], ['reader2', 4]] as const) {
      const u = await makeUser(s.ctx.db, { name: who });
      await addMember(s.ctx.db, org.id, u.id, role);
      ids[who] = u.id;
      tokens[who] = await s.tokenFor(u.id);
    }
  });

  it('import: one call makes one task with its readings (empty fields become "Unknown"), counts computed, task numbers increase', async () => {
    const a = await importRoute(rows(5));
    expect(a).toMatchObject({ routeName: 'KEL-01', group: 'North', iterationNumber: '2611', totalReadings: 5, completedReadings: 0, totalExceptions: 0, exported: false, assignedTo: null });
    expect(routeProgress(a)).toBe('Waiting');
    const b = await importRoute(rows(2, 'OZB'), { routeName: 'TEA-02', group: null });
    expect(b.taskNumber).toBe(a.taskNumber + 1);
    const list = await tasks();
    expect(list.map((t) => t.taskNumber)).toEqual([b.taskNumber, a.taskNumber]);
    const { readings } = await readingsOf(a.id);
    expect(readings.map((r) => r.sequence)).toEqual([10, 20, 30, 40, 50]);
    expect(readings[0]).toMatchObject({ ozoneReference: 'OZ0', completed: false, value: null, lastRecordedReading: 1000, importedPrevReading: { value: 1000 } });
    expect(readings[0]!.meterInfo).toMatchObject({ serial: 'SER0', propertyAddress: '1 Upland Road, Kelburn', ownerName: 'Owner 0', location: 'Front boundary' });
    // empty fields become "Unknown"
    const c = await importRoute([{ ...rows(1, 'OZC')[0]!, propertyAddress: '', ownerName: '', valuationRef: '', location: '', importedPrevReading: undefined }]);
    expect((await readingsOf(c.id)).readings[0]).toMatchObject({ meterInfo: { propertyAddress: 'Unknown', ownerName: 'Unknown', valuationRef: 'Unknown', location: 'Unknown' }, importedPrevReading: null });
  });

  it('import: DUPLICATE_METERS for the same meter twice, nothing stored; bad rows 400; members, readers 403, strangers 404; no feature 404', async () => {
    const dup = rows(3);
    dup[2] = { ...dup[2]!, ozoneNumber: dup[0]!.ozoneNumber, serial: dup[0]!.serial };
    const res = await call('admin', 'POST', `/organisations/${org.id}/routes`, payload(dup));
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ code: 'DUPLICATE_METERS', message: ROUTE_MESSAGES.DUPLICATE_METERS });
    expect(await tasks()).toEqual([]);
    expect((await call('admin', 'POST', `/organisations/${org.id}/routes`, payload([{ ...rows(1)[0]!, sequence: -1 }]))).status).toBe(400);
    expect((await call('admin', 'POST', `/organisations/${org.id}/routes`, payload([]))).status).toBe(400);
    expect((await call('admin', 'POST', `/organisations/${org.id}/routes`, { ...payload(rows(1)), organisationId: ids.stranger })).status).toBe(400);
    expect((await call('member', 'POST', `/organisations/${org.id}/routes`, payload(rows(1)))).status).toBe(403);
    expect((await call('reader', 'POST', `/organisations/${org.id}/routes`, payload(rows(1)))).status).toBe(403);
    expect((await call('stranger', 'POST', `/organisations/${org.id}/routes`, payload(rows(1)))).status).toBe(404);
    expect((await call('stranger', 'GET', `/organisations/${org.id}/routes`)).status).toBe(404);
    expect(await tasks()).toEqual([]);
    const plain = await makeOrg(s.ctx.db, { features: { meterReading: false } });
    await addMember(s.ctx.db, plain.id, ids.owner!, 3);
    const off = await call('owner', 'GET', `/organisations/${plain.id}/routes`);
    expect(off.status).toBe(404);
    expect(await codeOf(off)).toBe('FEATURE_NOT_ENABLED');
  });

  it('import: a 10,000-line council file in one call and one transaction', async () => {
    const big = rows(10_000);
    const json = JSON.stringify(payload(big));
    expect(json.length).toBeGreaterThan(2_000_000); // far over the 64 KiB default limit
    const res = await s.api(`/organisations/${org.id}/routes`, { method: 'POST', token: tokens.admin, body: json, headers: { 'Content-Type': 'application/json' } });
    expect(res.status).toBe(201);
    const { task } = routeTaskAnswerSchema.parse(await res.json());
    expect(task.totalReadings).toBe(10_000);
    const n = await s.ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM meter_readings WHERE route_task_id = $1', [task.id]);
    expect(n[0]!.n).toBe(10_000);
    const started = performance.now();
    const all = await readingsOf(task.id);
    console.log(`GET 10,000 readings: ${Math.round(performance.now() - started)} ms on ${driver}`);
    expect(all.readings.length).toBe(10_000);
    expect(all.readings[9_999]).toMatchObject({ sequence: 100_000, ozoneReference: 'OZ9999' });
    // all or nothing: a duplicate on the last line stores none of the 10,000
    big[9_999] = { ...big[9_999]!, ozoneNumber: 'OZ0', serial: 'SER0' };
    const bad = await call('admin', 'POST', `/organisations/${org.id}/routes`, payload(big, { routeName: 'BIG-2' }));
    expect(await codeOf(bad)).toBe('DUPLICATE_METERS');
    expect((await tasks()).length).toBe(1);
    // the limits: 16 MiB for an import, 8 MiB for a record (a 4 MiB photo in base64)
    const huge = await s.api(`/organisations/${org.id}/routes`, { method: 'POST', token: tokens.admin, body: ' '.repeat(17 * 1024 * 1024), headers: { 'Content-Type': 'application/json' } });
    expect(huge.status).toBe(413);
    const path = `/organisations/${org.id}/routes/${task.id}/meter-readings/${all.readings[0]!.id}/record`;
    const photo = await s.api(path, { method: 'PUT', token: tokens.reader, body: ' '.repeat(9 * 1024 * 1024), headers: { 'Content-Type': 'application/json' } });
    expect(photo.status).toBe(413);
  });

  it('special routes from meters: the registry by (ozone reference, serial); SOME_METERS_NOT_FOUND, DUPLICATE_METERS', async () => {
    const t = await completedTask(3);
    const { readings } = await readingsOf(t.id);
    const meters = readings.slice(0, 2).map((r) => ({ ozoneReference: r.ozoneReference!, serial: r.meterInfo.serial, meterLocation: 'Behind shed', reason: 'Final read' }));
    const res = await call('admin', 'POST', `/organisations/${org.id}/special-routes`, { group: 'Specials', meters });
    expect(res.status).toBe(201);
    const sp = routeTaskAnswerSchema.parse(await res.json()).task;
    expect(sp).toMatchObject({ isSpecial: true, group: 'Specials', totalReadings: 2, routeName: `SP${Math.floor((T0 + DAY) / 1000)}` });
    const spReadings = (await readingsOf(sp.id)).readings;
    expect(spReadings[0]).toMatchObject({ reason: 'Final read', meterInfo: { location: 'Behind shed', propertyAddress: readings[0]!.meterInfo.propertyAddress }, lastRecordedReading: 1040, completed: false });
    const missing = await call('admin', 'POST', `/organisations/${org.id}/special-routes`, { group: 'S', meters: [...meters, { ...meters[0]!, serial: 'NOPE' }] });
    expect(await missing.json()).toEqual({ code: 'SOME_METERS_NOT_FOUND', message: ROUTE_MESSAGES.SOME_METERS_NOT_FOUND });
    const twice = await call('admin', 'POST', `/organisations/${org.id}/special-routes`, { group: 'S', meters: [meters[0], meters[0]] });
    expect(await codeOf(twice)).toBe('DUPLICATE_METERS');
    // another organisation's meters are not in this registry
    const other = await makeOrg(s.ctx.db, { features: { meterReading: true } });
    await addMember(s.ctx.db, other.id, ids.admin!, 2);
    expect(await codeOf(await call('admin', 'POST', `/organisations/${other.id}/special-routes`, { group: 'S', meters }))).toBe('SOME_METERS_NOT_FOUND');
    expect((await call('member', 'POST', `/organisations/${org.id}/special-routes`, { group: 'S', meters })).status).toBe(403);
    expect((await tasks()).length).toBe(2);
  });

  it('special routes from readings: reason from notes else "Unknown"; SOME_METER_READINGS_NOT_FOUND', async () => {
    const t = await importRoute(rows(3));
    await assign(t.id, 'reader');
    const [r0, r1] = (await readingsOf(t.id)).readings;
    await record(t.id, r0!.id, { value: 1010, notes: 'Customer reports leak' });
    const res = await call('admin', 'POST', `/organisations/${org.id}/special-routes`, { group: 'Leaks', readings: [{ id: r0!.id }, { id: r1!.id }] });
    expect(res.status).toBe(201);
    const sp = routeTaskAnswerSchema.parse(await res.json()).task;
    const got = (await readingsOf(sp.id)).readings;
    expect(got.map((r) => r.reason)).toEqual(['Customer reports leak', 'Unknown']);
    expect(got[0]).toMatchObject({ lastRecordedReading: 1010, ozoneReference: r0!.ozoneReference });
    const missing = await call('admin', 'POST', `/organisations/${org.id}/special-routes`, { group: 'S', readings: [{ id: r0!.id }, { id: crypto.randomUUID() }] });
    expect(await missing.json()).toEqual({ code: 'SOME_METER_READINGS_NOT_FOUND', message: ROUTE_MESSAGES.SOME_METER_READINGS_NOT_FOUND });
    expect(await codeOf(await call('admin', 'POST', `/organisations/${org.id}/special-routes`, { group: 'S', readings: [{ id: r0!.id }, { id: r0!.id }] }))).toBe('DUPLICATE_METERS');
    expect((await call('admin', 'POST', `/organisations/${org.id}/special-routes`, { group: 'S', readings: [{ id: r0!.id }], meters: [] })).status).toBe(400);
  });

  it('PATCH route: assign to a member (not a stranger), unassign, exported flag, group; members 403', async () => {
    const t = await importRoute(rows(2));
    const res = await assign(t.id, 'reader');
    expect(res.status).toBe(200);
    expect(routeTaskAnswerSchema.parse(await res.json()).task.assignedTo).toMatchObject({ cognitoIdentityId: ids.reader, name: 'reader' });
    const bad = await call('admin', 'PATCH', `/organisations/${org.id}/routes/${t.id}`, { assignedTo: ids.stranger });
    expect(bad.status).toBe(400);
    expect(await codeOf(bad)).toBe('INVALID_ASSIGNEE');
    const g = await call('admin', 'PATCH', `/organisations/${org.id}/routes/${t.id}`, { group: 'South', exported: true });
    expect(routeTaskAnswerSchema.parse(await g.json()).task).toMatchObject({ group: 'South', exported: true, assignedTo: { cognitoIdentityId: ids.reader } });
    expect(routeProgress((await tasks())[0]!)).toBe('Exported');
    expect(routeTaskAnswerSchema.parse(await (await assign(t.id, null, 'owner')).json()).task.assignedTo).toBeNull();
    expect((await call('admin', 'PATCH', `/organisations/${org.id}/routes/${t.id}`, {})).status).toBe(400);
    expect((await call('admin', 'PATCH', `/organisations/${org.id}/routes/${t.id}`, { taskNumber: 5 })).status).toBe(400);
    expect((await assign(t.id, 'reader', 'member')).status).toBe(403);
    expect((await assign(t.id, 'reader', 'reader')).status).toBe(403);
    expect((await assign(t.id, 'reader', 'stranger')).status).toBe(404);
    expect((await call('admin', 'PATCH', `/organisations/${org.id}/routes/${crypto.randomUUID()}`, { group: 'x' })).status).toBe(404);
    expect((await call('admin', 'PATCH', `/organisations/${org.id}/routes/not-a-uuid`, { group: 'x' })).status).toBe(400);
  });

  it('DELETE: only unstarted tasks; members 403, strangers 404', async () => {
    const t = await importRoute(rows(2));
    expect((await call('member', 'DELETE', `/organisations/${org.id}/routes/${t.id}`)).status).toBe(403);
    expect((await call('stranger', 'DELETE', `/organisations/${org.id}/routes/${t.id}`)).status).toBe(404);
    await assign(t.id, 'reader');
    const r0 = (await readingsOf(t.id)).readings[0]!;
    await record(t.id, r0.id, { value: 1010 });
    const refused = await call('admin', 'DELETE', `/organisations/${org.id}/routes/${t.id}`);
    expect(refused.status).toBe(409);
    expect(await codeOf(refused)).toBe('TASK_STARTED');
    const u = await importRoute(rows(2, 'OZU'));
    expect((await call('admin', 'DELETE', `/organisations/${org.id}/routes/${u.id}`)).status).toBe(200);
    expect((await tasks()).map((x) => x.id)).toEqual([t.id]);
  });

  it('route metadata upsert: suburb and classification joined into the list; "" clears the suburb; a field not sent is kept', async () => {
    const t = await importRoute(rows(1));
    const res = await call('admin', 'POST', `/organisations/${org.id}/route-meta-data/KEL-01`, { suburb: 'Kelburn', type: 'urban' });
    expect(routeMetadataSchema.parse(await res.json())).toEqual({ routeName: 'KEL-01', suburb: 'Kelburn', type: 'urban' });
    expect((await tasks()).find((x) => x.id === t.id)).toMatchObject({ suburb: 'Kelburn', type: 'urban' });
    await call('admin', 'POST', `/organisations/${org.id}/route-meta-data/KEL-01`, { type: 'rural' });
    expect((await tasks())[0]).toMatchObject({ suburb: 'Kelburn', type: 'rural' });
    await call('owner', 'POST', `/organisations/${org.id}/route-meta-data/KEL-01`, { suburb: '' });
    expect((await tasks())[0]).toMatchObject({ suburb: null, type: 'rural' });
    expect((await call('admin', 'POST', `/organisations/${org.id}/route-meta-data/KEL-01`, {})).status).toBe(400);
    expect((await call('admin', 'POST', `/organisations/${org.id}/route-meta-data/KEL-01`, { type: 'suburban' })).status).toBe(400);
    expect((await call('member', 'POST', `/organisations/${org.id}/route-meta-data/KEL-01`, { type: 'urban' })).status).toBe(403);
    expect((await call('stranger', 'POST', `/organisations/${org.id}/route-meta-data/KEL-01`, { type: 'urban' })).status).toBe(404);
  });

  it('list: members read everything; a meter reader sees only tasks assigned to them and their readings', async () => {
    const mine = await importRoute(rows(2));
    const theirs = await importRoute(rows(2, 'OZT'));
    await assign(mine.id, 'reader');
    await assign(theirs.id, 'reader2');
    expect((await tasks('member')).length).toBe(2);
    expect((await tasks('reader')).map((t) => t.id)).toEqual([mine.id]);
    expect((await readingsOf(mine.id, 'reader')).readings.length).toBe(2);
    expect((await call('reader', 'GET', `/organisations/${org.id}/routes/${theirs.id}/meter-readings`)).status).toBe(404);
    expect((await call('stranger', 'GET', `/organisations/${org.id}/routes/${mine.id}/meter-readings`)).status).toBe(404);
    expect((await call('member', 'GET', `/organisations/${org.id}/routes/${crypto.randomUUID()}/meter-readings`)).status).toBe(404);
  });

  it('record: the assigned reader only; exceptions computed; progress Waiting -> Active -> Complete with times', async () => {
    const t = await importRoute(rows(8));
    const rs = (await readingsOf(t.id)).readings;
    // not assigned yet: nobody records, not even the owner
    expect(await codeOf(await record(t.id, rs[0]!.id, { value: 1 }))).toBe('NOT_ASSIGNED');
    await assign(t.id, 'reader');
    expect(await codeOf(await record(t.id, rs[0]!.id, { value: 1 }, 'reader2'))).toBe('NOT_ASSIGNED');
    expect((await record(t.id, rs[0]!.id, { value: 1 }, 'admin')).status).toBe(403);
    expect((await record(t.id, rs[0]!.id, { value: 1 }, 'stranger')).status).toBe(404);
    // reading rules: a value or a can't-read code, never both, integers 0..9,999,999
    expect((await record(t.id, rs[0]!.id, {})).status).toBe(400);
    expect((await record(t.id, rs[0]!.id, { value: 10_000_000 })).status).toBe(400);
    expect((await record(t.id, rs[0]!.id, { value: 1.5 })).status).toBe(400);
    expect((await record(t.id, rs[0]!.id, { value: 5, cantReadCode: 'Dog' })).status).toBe(400);
    expect((await record(t.id, rs[0]!.id, { value: 5, cantReadCode: 'Cat' })).status).toBe(400);
    expect((await record(t.id, rs[0]!.id, { value: 5, recordedAt: T0 + 10 * DAY })).status).toBe(400); // far in the future

    const cases: [Record<string, unknown>, string][] = [
      [{ value: 1000 + 0 + 40 }, 'NoError'],
      [{ value: 1001 }, 'NoConsumption'],
      [{ value: 1002 + 900 }, 'HighConsumption'],
      [{ value: 1003 - 5 }, 'NegativeConsumption'],
      [{ value: 1004 + 50_000 }, 'Abnormal'],
      [{ cantReadCode: 'Dog', commentCode: 'Leaking' }, 'CantRead'],
      [{ value: 1006 + 10, serviceRequired: true, commentCode: 'Broken Lid' }, 'ServiceRequired'],
    ];
    const first = await record(t.id, rs[0]!.id, { ...cases[0]![0], position: { latitude: -41.28, longitude: 174.76, accuracy: 5 } });
    expect(first.status).toBe(200);
    const a = meterReadingAnswerSchema.parse(await first.json());
    expect(a.reading).toMatchObject({ completed: true, value: 1040, exception: 'NoError', recordedBy: ids.reader, recorderName: 'reader', recordedAt: T0, position: { latitude: -41.28 } });
    expect(a.task).toMatchObject({ completedReadings: 1, startedAt: T0 + DAY, completedAt: null });
    expect(routeProgress(a.task)).toBe('Active');
    for (const [i, [body, exception]] of cases.entries()) {
      if (i === 0) continue;
      const res = await record(t.id, rs[i]!.id, body);
      expect(res.status).toBe(200);
      const got = meterReadingAnswerSchema.parse(await res.json()).reading;
      expect(got.exception).toBe(exception);
      if (exception === 'CantRead') expect(got).toMatchObject({ value: null, commentCode: null, cantReadCode: 'Dog' });
    }
    // recorded once only
    expect(await codeOf(await record(t.id, rs[0]!.id, { value: 1 }))).toBe('READING_ALREADY_RECORDED');
    const last = meterReadingAnswerSchema.parse(await (await record(t.id, rs[7]!.id, { value: 1007 + 20 })).json());
    expect(last.task).toMatchObject({ completedReadings: 8, totalReadings: 8, totalExceptions: 6, completedAt: T0 + DAY, estTimeSpent: 0 });
    expect(routeProgress(last.task)).toBe('Complete');
    // exported: no more recording
    await call('admin', 'PATCH', `/organisations/${org.id}/routes/${t.id}`, { exported: true });
    const u = await importRoute(rows(1, 'OZX'));
    await assign(u.id, 'reader');
    await call('admin', 'PATCH', `/organisations/${org.id}/routes/${u.id}`, { exported: true });
    expect(await codeOf(await record(u.id, (await readingsOf(u.id)).readings[0]!.id, { value: 1 }))).toBe('TASK_EXPORTED');
  });

  it('record with a photo: stored, served to members only; not an image 400; a missing photo 404', async () => {
    const t = await importRoute(rows(2));
    await assign(t.id, 'reader');
    const [r0, r1] = (await readingsOf(t.id)).readings;
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108020000009077', 'hex');
    const notPng = await record(t.id, r1!.id, { value: 1001, photo: { contentType: 'image/png', data: Buffer.from('GIF89a-not-a-png').toString('base64') } });
    expect(await codeOf(notPng)).toBe('INVALID_PHOTO');
    const res = await record(t.id, r0!.id, { value: 1010, photo: { contentType: 'image/png', data: png.toString('base64') } });
    expect(res.status).toBe(200);
    const { reading } = meterReadingAnswerSchema.parse(await res.json());
    expect(reading.photoUrl).toBe(`/organisations/${org.id}/routes/${t.id}/meter-readings/${r0!.id}/photo`);
    const img = await call('member', 'GET', reading.photoUrl!);
    expect(img.status).toBe(200);
    expect(img.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await img.arrayBuffer()).equals(png)).toBe(true);
    expect((await call('reader', 'GET', reading.photoUrl!)).status).toBe(403);
    expect((await call('stranger', 'GET', reading.photoUrl!)).status).toBe(404);
    expect((await call('member', 'GET', `/organisations/${org.id}/routes/${t.id}/meter-readings/${r1!.id}/photo`)).status).toBe(404);
    expect((await readingsOf(t.id)).readings[1]!.completed).toBe(false); // the refused record stored nothing
  });

  it('edit: admins only, changed fields only (NOTHING_UPDATED), sets edited, recomputes the exception and the task count; refused when exported or not read', async () => {
    const t = await importRoute(rows(3));
    await assign(t.id, 'reader');
    const [r0, r1, r2] = (await readingsOf(t.id)).readings as MeterReading[];
    await record(t.id, r0!.id, { value: 1040 });
    await record(t.id, r1!.id, { value: 1001 }); // NoConsumption
    const notRead = await edit(t.id, r2!.id, { value: 5 });
    expect(notRead.status).toBe(409);
    expect(await codeOf(notRead)).toBe('READING_NOT_COMPLETED');
    expect((await edit(t.id, r0!.id, { value: 1041 }, 'member')).status).toBe(403);
    expect((await edit(t.id, r0!.id, { value: 1041 }, 'reader')).status).toBe(403);
    expect((await edit(t.id, r0!.id, { value: 1041 }, 'stranger')).status).toBe(404);

    const same = await edit(t.id, r0!.id, { id: r0!.id, value: 1040, notes: null });
    expect(await same.json()).toEqual({ code: 'NOTHING_UPDATED', message: ROUTE_MESSAGES.NOTHING_UPDATED });
    expect((await call('admin', 'PATCH', `/organisations/${org.id}/routes/${t.id}/meter-readings/${r0!.id}`, { recordedBy: ids.admin })).status).toBe(400);

    const fixed = meterReadingAnswerSchema.parse(await (await edit(t.id, r1!.id, { value: 1030 })).json());
    expect(fixed.reading).toMatchObject({ value: 1030, exception: 'NoError', edited: true, recordedBy: ids.reader });
    expect(fixed.task.totalExceptions).toBe(0);
    const cant = meterReadingAnswerSchema.parse(await (await edit(t.id, r0!.id, { cantReadCode: 'Flooded', notes: 'Under water', meterInfo: { additionalLocationInfo: 'Gate code 1234' } })).json());
    expect(cant.reading).toMatchObject({ value: null, cantReadCode: 'Flooded', exception: 'CantRead', notes: 'Under water', meterInfo: { additionalLocationInfo: 'Gate code 1234' } });
    expect(cant.task.totalExceptions).toBe(1);
    // N/A for the can't-read code needs the value back
    const noValue = await edit(t.id, r0!.id, { cantReadCode: null });
    expect(await codeOf(noValue)).toBe('INVALID_READING');
    const back = meterReadingAnswerSchema.parse(await (await edit(t.id, r0!.id, { cantReadCode: null, value: 1040, commentCode: 'No Seal', serviceRequired: true })).json());
    expect(back.reading).toMatchObject({ value: 1040, cantReadCode: null, commentCode: 'No Seal', exception: 'ServiceRequired' });
    expect((await edit(t.id, r0!.id, { value: -2 })).status).toBe(400);
    await call('admin', 'PATCH', `/organisations/${org.id}/routes/${t.id}`, { exported: true });
    expect(await codeOf(await edit(t.id, r0!.id, { value: 1050 }, 'owner'))).toBe('TASK_EXPORTED');
  });

  it('two edits at once: the task lock orders them, both land (or the second sees nothing changed), the count stays right', async () => {
    const t = await completedTask(4);
    const rs = (await readingsOf(t.id)).readings;
    for (let round = 0; round < 3; round++) {
      const [a, b] = await Promise.all([edit(t.id, rs[0]!.id, { value: 1000 + round }), edit(t.id, rs[1]!.id, { value: 900 + round })]);
      expect([a.status, b.status]).toEqual([200, 200]);
      const same = await Promise.all([edit(t.id, rs[2]!.id, { value: 5000 + round }), edit(t.id, rs[2]!.id, { value: 5000 + round })]);
      expect(same.map((r) => r.status).sort()).toEqual([200, 400]);
    }
    const list = (await readingsOf(t.id)).readings;
    expect(list.map((r) => r.value)).toEqual([1002, 902, 5002, 1043]);
    const expected = list.map((r) => meterException({ value: r.value, cantReadCode: null, serviceRequired: false, recordedAt: r.recordedAt!, previous: r.importedPrevReading!.value, previousAt: r.importedPrevReading!.date }));
    expect(list.map((r) => r.exception)).toEqual(expected);
    const task = (await tasks()).find((x) => x.id === t.id)!;
    expect(task.totalExceptions).toBe(expected.filter((e) => e !== 'NoError').length);
  });

  it('imports at once get distinct task numbers; a delete racing a record: one wins, the other is refused', async () => {
    const made = await Promise.all([0, 1, 2, 3].map((i) => call('admin', 'POST', `/organisations/${org.id}/routes`, payload(rows(3, `OZP${i}-`)))));
    expect(made.map((r) => r.status)).toEqual([201, 201, 201, 201]);
    const numbers = (await tasks()).map((t) => t.taskNumber);
    expect(new Set(numbers).size).toBe(4);
    for (let round = 0; round < 3; round++) {
      const t = await importRoute(rows(2, `OZR${round}-`));
      await assign(t.id, 'reader');
      const r0 = (await readingsOf(t.id)).readings[0]!;
      const [del, rec] = await Promise.all([call('admin', 'DELETE', `/organisations/${org.id}/routes/${t.id}`), record(t.id, r0.id, { value: 1500 })]);
      // either the delete came first (the record finds no task) or the record did (the task has started)
      expect([[200, 404], [409, 200]]).toContainEqual([del.status, rec.status]);
      const left = (await tasks()).find((x) => x.id === t.id);
      expect(left ? left.completedReadings : 'deleted').toBe(del.status === 200 ? 'deleted' : 1);
    }
  });

  it('publishes every task change after commit on orgs/{orgId}/routes: import, assign, record, edit, delete', async () => {
    const client = await connectWs(s, tokens.member!);
    const box = collect(client);
    await client.subscribeAsync(`orgs/${org.id}/routes`);
    try {
      const t = await importRoute(rows(1));
      const parse = (m: { body: unknown }) => liveRouteTaskMessageSchema.parse(m.body);
      expect(parse(await box.next((m) => parse(m).taskId === t.id)).task).toMatchObject({ totalReadings: 1, assignedTo: null });
      await assign(t.id, 'reader');
      await box.next((m) => parse(m).task?.assignedTo?.cognitoIdentityId === ids.reader);
      const r0 = (await readingsOf(t.id)).readings[0]!;
      await record(t.id, r0.id, { value: 1000 });
      expect(parse(await box.next((m) => parse(m).task?.completedReadings === 1)).readingId).toBe(r0.id);
      await edit(t.id, r0.id, { value: 1010 });
      await box.next((m) => parse(m).task?.totalExceptions === 0 && parse(m).readingId === r0.id);
      const u = await importRoute(rows(1, 'OZD'));
      await call('admin', 'DELETE', `/organisations/${org.id}/routes/${u.id}`);
      await box.next((m) => parse(m).taskId === u.id && parse(m).task === null);
    } finally {
      await client.endAsync();
    }
  });

  it('hostile input on every service-route call: 400 with a JSON code, never 500, never the database last-resort guard', async () => {
    const t = await importRoute(rows(2));
    await assign(t.id, 'reader');
    const r0 = (await readingsOf(t.id)).readings[0]!;
    await record(t.id, r0.id, { value: 1040 }); // started: a DELETE among the calls is refused
    const paths = [
      ['GET', `/organisations/${org.id}/routes`],
      ['POST', `/organisations/${org.id}/routes`],
      ['POST', `/organisations/${org.id}/special-routes`],
      ['PATCH', `/organisations/${org.id}/routes/${t.id}`],
      ['DELETE', `/organisations/${org.id}/routes/${t.id}`],
      ['POST', `/organisations/${org.id}/route-meta-data/KEL-01`],
      ['GET', `/organisations/${org.id}/routes/${t.id}/meter-readings`],
      ['PATCH', `/organisations/${org.id}/routes/${t.id}/meter-readings/${r0.id}`],
      ['PUT', `/organisations/${org.id}/routes/${t.id}/meter-readings/${r0.id}/record`],
      ['GET', `/organisations/${org.id}/routes/${t.id}/meter-readings/${r0.id}/photo`],
    ] as const;
    const big = Number.MAX_SAFE_INTEGER + 2;
    const bodies: unknown[] = [
      { routeName: 'A', readings: [{ ...rows(1)[0]!, sequence: big }] },
      { routeName: 'A', readings: [{ ...rows(1)[0]!, importedPrevReading: { value: 1, date: 1e300 } }] },
      { routeName: 'A'.repeat(5000), readings: rows(1) },
      { routeName: 'A', readings: [{ ...rows(1)[0]!, latitude: 'north' }], ['__proto__']: { isAdmin: true } },
      { group: 'x', meters: [{ ozoneReference: 'a', serial: 'b', meterLocation: 'c', reason: 'd'.repeat(100_000) }] },
      { group: 'x', readings: [{ id: '00000000-0000-0000-0000-00000000000g' }] },
      { assignedTo: 'not-a-uuid' },
      { exported: 'yes' },
      { suburb: 'a\r\nb', type: 'urban' },
      { value: big },
      { value: 5, recordedAt: 1e300 },
      { value: 5, recordedAt: -1 },
      { value: 5, recordedAt: 1, position: { latitude: 91, longitude: 0 } },
      { value: 5, recordedAt: 1, photo: { contentType: 'image/png', data: '@@@' } },
      { cantReadCode: 'Dog', recordedAt: 1, notes: 'x'.repeat(3000) },
      { meterInfo: { additionalLocationInfo: 'x', latitude: 5 } },
    ];
    for (const [method, path] of paths) {
      for (const body of [...bodies, '{"a":', '[]', 'null']) {
        for (const who of ['admin', 'reader']) {
          const res = await s.api(path, { method, token: tokens[who], ...(method === 'GET' || method === 'DELETE' ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body), headers: { 'Content-Type': 'application/json' } }) });
          expect(res.status, `${method} ${path} ${JSON.stringify(body).slice(0, 80)}`).toBeLessThan(500);
          if (res.status >= 400) expect((await res.json()).code).not.toBe('INVALID_VALUE');
          else await res.arrayBuffer();
        }
      }
    }
    for (const bad of ['not-a-uuid', '00000000-0000-0000-0000-00000000000g', "1' OR '1'='1"]) {
      for (const path of [`/organisations/${bad}/routes`, `/organisations/${org.id}/routes/${bad}/meter-readings`, `/organisations/${org.id}/routes/${t.id}/meter-readings/${bad}/photo`]) {
        const res = await call('admin', 'GET', path);
        expect(res.status).toBe(400);
      }
    }
    // queries: none is taken; an over-long region is refused like the member calls refuse it
    expect((await call('admin', 'GET', `/organisations/${org.id}/routes?region=${'x'.repeat(100)}`)).status).toBe(400);
    expect((await call('admin', 'GET', `/organisations/${org.id}/routes?region=ap-southeast-2&x=1`)).status).toBe(200);
    // nothing was lost or changed by the hostile calls
    expect((await readingsOf(t.id)).readings.map((r) => [r.value, r.edited])).toEqual([[1040, false], [null, false]]);
  });

  it('the last two readings recorded at once complete the task exactly once', async () => {
    const t = await importRoute(rows(2));
    await assign(t.id, 'reader');
    const rs = (await readingsOf(t.id)).readings;
    const res = await Promise.all(rs.map((r) => record(t.id, r.id, { value: 1100 })));
    expect(res.map((r) => r.status)).toEqual([200, 200]);
    const task = (await tasks()).find((x) => x.id === t.id)!;
    expect(task).toMatchObject({ completedReadings: 2, completedAt: T0 + DAY });
  });
});

describe('meter exception rule', () => {
  const base = { cantReadCode: null, serviceRequired: false, recordedAt: T0, previous: 1000, previousAt: T0 - 100 * DAY };
  it('follows the documented order', () => {
    expect(meterException({ ...base, value: 1050 })).toBe('NoError');
    expect(meterException({ ...base, value: 1000 })).toBe('NoConsumption');
    expect(meterException({ ...base, value: 999 })).toBe('NegativeConsumption');
    expect(meterException({ ...base, value: 1000 + 301 })).toBe('HighConsumption');
    expect(meterException({ ...base, value: 1000 + 300 })).toBe('NoError');
    expect(meterException({ ...base, value: 12_000 })).toBe('Abnormal');
    expect(meterException({ ...base, previous: 50_000, value: 100 })).toBe('Abnormal');
    expect(meterException({ ...base, value: 1400, previousAt: T0 - 5 * DAY })).toBe('Abnormal'); // 80 a day
    expect(meterException({ ...base, value: 1010, cantReadCode: 'Dog' })).toBe('CantRead');
    expect(meterException({ ...base, value: null })).toBe('CantRead');
    expect(meterException({ ...base, value: 1010, serviceRequired: true })).toBe('ServiceRequired');
    expect(meterException({ ...base, value: 1000, serviceRequired: true })).toBe('NoConsumption');
    expect(meterException({ ...base, value: 5, previous: null, previousAt: null })).toBe('NoError');
    expect(meterException({ ...base, value: 1000 + 271, previousAt: null })).toBe('HighConsumption'); // 90 days assumed
  });
});
