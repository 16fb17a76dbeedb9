import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, testDrivers, type TestServer } from './harness';
import { addMember, makeOrg, makeUser } from './fixtures';
import { meterReadingAnswerSchema, meterReadingListSchema, routeTaskAnswerSchema, type ImportReading, type RouteTask } from '../../src/contract/route.schema';
import { readerTaskListSchema, readerTaskSchema } from '../../src/contract/reader.schema';
import { DAY_MS, needsConfirmation, plausibility } from '../../src/domain/meter-plausibility';
import { HIGH_DAILY, meterException } from '../../server/routes/exceptions';

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 10, 1);
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a5d2c2c70000000049454e44ae426082', 'hex');

const rows = (n: number, prefix = 'RD'): ImportReading[] =>
  Array.from({ length: n }, (_, i) => ({
    sequence: (n - i) * 10, // imported out of order: the answers come in sequence order
    ozoneNumber: `${prefix}${i}`,
    serial: `S${prefix}${i}`,
    valuationRef: `18${i}/00`,
    propertyAddress: `${i + 1} Harbour Street`,
    ownerName: `Owner ${i}`,
    location: 'Front boundary',
    importedPrevReading: { value: 500 + i, date: T0 - 90 * DAY },
  }));

// issue 33: what the meter reader's app needs beyond the record call
describe.each(testDrivers)('the meter reader app calls on %s', (driver) => {
  let s: TestServer;
  let org: { id: string };
  const ids: Record<string, string> = {};
  const tokens: Record<string, string> = {};
  const call = (who: string, method: string, path: string, json?: unknown, headers?: Record<string, string>) => s.api(path, { method, token: tokens[who], json, headers });
  const codeOf = async (res: Response) => ((await res.json()) as { code: string }).code;

  const importRoute = async (n: number, routeName: string, prefix: string): Promise<RouteTask> => {
    const res = await call('admin', 'POST', `/organisations/${org.id}/routes`, { routeName, group: 'Harbour', iterationNumber: '2612', readings: rows(n, prefix) });
    expect(res.status).toBe(201);
    return routeTaskAnswerSchema.parse(await res.json()).task;
  };
  const assign = async (taskId: string, who: string | null) =>
    expect((await call('admin', 'PATCH', `/organisations/${org.id}/routes/${taskId}`, { assignedTo: who && ids[who] })).status).toBe(200);
  const readingIds = async (taskId: string) =>
    meterReadingListSchema.parse(await (await call('owner', 'GET', `/organisations/${org.id}/routes/${taskId}/meter-readings`)).json()).readings.map((r) => r.id);
  const record = (taskId: string, readingId: string, body: Record<string, unknown>, key?: string, who = 'reader') =>
    call(who, 'PUT', `/organisations/${org.id}/routes/${taskId}/meter-readings/${readingId}/record`, { recordedAt: T0, ...body }, key ? { 'Idempotency-Key': key } : undefined);

  beforeAll(async () => {
    s = await startTestServer(driver, {}, { now: () => T0 + DAY });
    const otherOrg = await makeOrg(s.ctx.db, { features: { meterReading: true } });
    const stranger = await makeUser(s.ctx.db);
    await addMember(s.ctx.db, otherOrg.id, stranger.id, 4);
    tokens.stranger = await s.tokenFor(stranger.id);
  });
  afterAll(() => s?.close());

  beforeEach(async () => {
    org = await makeOrg(s.ctx.db, { name: 'Harbour City Council', features: { meterReading: true } });
    for (const [who, role] of [['owner', 3], ['admin', 2], ['member', 1], ['reader', 4], ['reader2', 4]] as const) {
      const u = await makeUser(s.ctx.db, { name: who });
      await addMember(s.ctx.db, org.id, u.id, role);
      ids[who] = u.id;
      tokens[who] = await s.tokenFor(u.id);
    }
  });

  it('GET reader/tasks: my assigned tasks that are not exported, each with its readings in sequence order, in one request; strangers and no feature 404', async () => {
    const mine = await importRoute(3, 'HC-01', 'A');
    const exported = await importRoute(2, 'HC-02', 'B');
    const theirs = await importRoute(2, 'HC-03', 'C');
    await importRoute(1, 'HC-04', 'D'); // unassigned
    await assign(mine.id, 'reader');
    await assign(exported.id, 'reader');
    await assign(theirs.id, 'reader2');
    expect((await call('admin', 'PATCH', `/organisations/${org.id}/routes/${exported.id}`, { exported: true })).status).toBe(200);

    const res = await call('reader', 'GET', `/organisations/${org.id}/reader/tasks`);
    expect(res.status).toBe(200);
    const { tasks } = readerTaskListSchema.parse(await res.json());
    expect(tasks.map((t) => t.task.routeName)).toEqual(['HC-01']);
    expect(tasks[0]!.readings.map((r) => r.sequence)).toEqual([10, 20, 30]);
    expect(tasks[0]!.readings[0]).toMatchObject({ meterInfo: { propertyAddress: '3 Harbour Street', serial: 'SA2' }, importedPrevReading: { value: 502 }, completed: false });

    // a manager sees what is assigned to them (nothing here), not the organisation's tasks
    expect(readerTaskListSchema.parse(await (await call('owner', 'GET', `/organisations/${org.id}/reader/tasks`)).json()).tasks).toEqual([]);
    const stranger = await call('stranger', 'GET', `/organisations/${org.id}/reader/tasks`);
    expect(stranger.status).toBe(404);
    expect(await codeOf(stranger)).toBe('ORGANISATION_NOT_FOUND');
    const plain = await makeOrg(s.ctx.db, { features: {} });
    await addMember(s.ctx.db, plain.id, ids.reader!, 4);
    expect(await codeOf(await call('reader', 'GET', `/organisations/${plain.id}/reader/tasks`))).toBe('FEATURE_NOT_ENABLED');
    expect((await call('reader', 'GET', `/organisations/not-a-uuid/reader/tasks`)).status).toBe(400);
    expect((await s.api(`/organisations/${org.id}/reader/tasks`, { method: 'GET' })).status).toBe(401);
  });

  it('GET reader/tasks/{taskId}: the download of my task; another reader\'s or an unassigned task 403, strangers and unknown tasks 404', async () => {
    const t = await importRoute(4, 'HC-05', 'E');
    await assign(t.id, 'reader');
    const res = await call('reader', 'GET', `/organisations/${org.id}/reader/tasks/${t.id}`);
    expect(res.status).toBe(200);
    const got = readerTaskSchema.parse(await res.json());
    expect(got.task).toMatchObject({ id: t.id, totalReadings: 4, assignedTo: { cognitoIdentityId: ids.reader } });
    expect(got.readings.map((r) => r.sequence)).toEqual([10, 20, 30, 40]);
    for (const who of ['reader2', 'owner', 'member']) {
      const other = await call(who, 'GET', `/organisations/${org.id}/reader/tasks/${t.id}`);
      expect(other.status).toBe(403);
      expect(await codeOf(other)).toBe('NOT_ASSIGNED');
    }
    expect((await call('stranger', 'GET', `/organisations/${org.id}/reader/tasks/${t.id}`)).status).toBe(404);
    expect(await codeOf(await call('reader', 'GET', `/organisations/${org.id}/reader/tasks/${crypto.randomUUID()}`))).toBe('ROUTE_TASK_NOT_FOUND');
  });

  it('record with an Idempotency-Key: a retry never records twice and answers the first result; the key with another request 422; a malformed key 400', async () => {
    const t = await importRoute(3, 'HC-06', 'F');
    await assign(t.id, 'reader');
    const [r0, r1, r2] = await readingIds(t.id);
    const key = crypto.randomUUID();
    const body = { value: 530, notes: 'Gate\nleft open', photo: { contentType: 'image/png', data: PNG.toString('base64') }, position: { latitude: -41.29, longitude: 174.78, accuracy: 8 } };
    const first = await record(t.id, r0!, body, key);
    expect(first.status).toBe(200);
    expect(first.headers.get('Idempotent-Replayed')).toBeNull();
    const a = meterReadingAnswerSchema.parse(await first.json());
    expect(a.reading).toMatchObject({ value: 530, notes: 'Gate\nleft open', position: { latitude: -41.29 }, completed: true });
    expect(a.reading.photoUrl).not.toBeNull();
    expect(a.task.completedReadings).toBe(1);

    // the same capture again (the answer was lost): the first answer, nothing recorded twice
    const again = await record(t.id, r0!, body, key);
    expect(again.status).toBe(200);
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    expect(meterReadingAnswerSchema.parse(await again.json())).toEqual(a);
    // meanwhile another reading was recorded: the replay still answers the first result
    expect((await record(t.id, r1!, { value: 600 }, crypto.randomUUID())).status).toBe(200);
    expect(meterReadingAnswerSchema.parse(await (await record(t.id, r0!, body, key)).json()).task.completedReadings).toBe(1);
    const photos = await s.ctx.db.query<{ photo_url: string }>('SELECT photo_url FROM meter_readings WHERE route_task_id = $1 AND photo_url IS NOT NULL', [t.id]);
    expect(photos.length).toBe(1);

    // the key with another request (value, or another reading) is refused and stores nothing
    const reused = await record(t.id, r0!, { ...body, value: 531 }, key);
    expect(reused.status).toBe(422);
    expect(await codeOf(reused)).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(await codeOf(await record(t.id, r2!, { value: 700 }, key))).toBe('IDEMPOTENCY_KEY_REUSED');
    expect((await readingIds(t.id)).length).toBe(3);
    // another key on a recorded reading: already recorded
    expect(await codeOf(await record(t.id, r0!, body, crypto.randomUUID()))).toBe('READING_ALREADY_RECORDED');
    // malformed keys
    for (const bad of ['short', 'x'.repeat(129), 'has spaces in it'])
      expect(await codeOf(await record(t.id, r2!, { value: 700 }, bad))).toBe('INVALID_IDEMPOTENCY_KEY');
    // keys are per user: the same key string from another reader is theirs
    const u = await importRoute(1, 'HC-07', 'G');
    await assign(u.id, 'reader2');
    expect((await record(u.id, (await readingIds(u.id))[0]!, { value: 1 }, key, 'reader2')).status).toBe(200);
  });

  it('record: two sends of one capture at once record it once; refusals are not remembered (a retry after reassignment is refused again)', async () => {
    const t = await importRoute(2, 'HC-08', 'H');
    await assign(t.id, 'reader');
    const [r0, r1] = await readingIds(t.id);
    const key = crypto.randomUUID();
    const both = await Promise.all([record(t.id, r0!, { value: 510 }, key), record(t.id, r0!, { value: 510 }, key)]);
    expect(both.map((r) => r.status)).toEqual([200, 200]);
    expect(both.map((r) => r.headers.get('Idempotent-Replayed')).sort()).toEqual(['true', null].sort());
    const [x, y] = await Promise.all(both.map(async (r) => meterReadingAnswerSchema.parse(await r.json())));
    expect(x).toEqual(y);

    await assign(t.id, 'reader2');
    const k2 = crypto.randomUUID();
    const refused = await record(t.id, r1!, { cantReadCode: 'Dog' }, k2);
    expect(refused.status).toBe(403);
    expect(await codeOf(refused)).toBe('NOT_ASSIGNED');
    await assign(t.id, 'reader');
    const ok = await record(t.id, r1!, { cantReadCode: 'Dog' }, k2);
    expect(ok.status).toBe(200);
    expect(meterReadingAnswerSchema.parse(await ok.json()).reading).toMatchObject({ cantReadCode: 'Dog', value: null, exception: 'CantRead' });
  });
});

// issue 33 "Plausibility": the same rules feed the exception the server derives
describe('the reader app plausibility check and the server exception', () => {
  const T = T0;
  it('the same rule as the server: what the app asks to confirm, the server marks as an exception', () => {
    expect(HIGH_DAILY).toBe(3);
    for (const [value, days] of [[1091, 30], [1090, 30], [999, 30], [1000, 30], [1300, 90], [1271, 90], [1004, 1]] as const) {
      const previousAt = T - days * DAY_MS;
      const app = needsConfirmation(plausibility({ value, previous: 1000, previousAt, recordedAt: T }));
      const server = meterException({ value, cantReadCode: null, serviceRequired: false, recordedAt: T, previous: 1000, previousAt });
      expect(app, `${value} after ${days} days: ${server}`).toBe(['HighConsumption', 'NegativeConsumption', 'Abnormal'].includes(server));
    }
  });
});
