import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { startTestServer, testDrivers, type TestServer } from './harness';
import { addMember, makeOrg, makeSensor, makeUser } from './fixtures';
import { collect, connectWs, sendUplink } from './live-helpers';
import { createTaskTimeoutJob } from '../../server/scheduler/task-timeout';
import { REMOTE_TASK_CODES, radarSettingsResponseSchema, taskListSchema, taskResponseSchema, type DownlinkTask } from '../../src/contract/downlink-task.schema';
import { FULL_RADAR_DEFAULTS } from '../../src/domain/task-params';
import { BANNERS, TASK_MESSAGES } from '../../src/domain/remote-tasks';

const MIN = 60_000;
const DAY = 1440 * MIN;
const T0 = Date.UTC(2026, 3, 1, 0, 0);

const schedule = (mi = 15, per = 4) => ({ type: 'SensorConfig', params: { measurementInterval: mi, measurementsPerTransmission: per, maxGradient: 200, deltaCompressionEnabled: false } });
const alarm = (index: number, type: string, threshold: number, original: unknown = null) => ({
  type: 'AlarmConfig',
  params: { index, value: { type, enabled: true, threshold }, original },
});

describe.each(testDrivers)('remote tasks on %s (sensor-setup 4, 6, 7, 9)', (driver) => {
  let s: TestServer;
  let clock = T0;
  let org: { id: string };
  const tok: Record<'owner' | 'admin' | 'member' | 'reader' | 'site' | 'outsider', string> = {} as never;

  beforeAll(async () => {
    s = await startTestServer(driver, { ID_TOKEN_TTL_SECONDS: '86400' }, { now: () => clock });
    const db = s.ctx.db;
    org = await makeOrg(db);
    const other = await makeOrg(db);
    for (const [k, role] of Object.entries({ owner: 3, admin: 2, member: 1, reader: 4 } as const)) {
      const u = await makeUser(db);
      await addMember(db, org.id, u.id, role);
      tok[k as 'owner'] = await s.tokenFor(u.id);
    }
    const site = await makeUser(db, { isSiteAdmin: true });
    await addMember(db, org.id, site.id, 1); // a site admin whose role here is member
    tok.site = await s.tokenFor(site.id);
    const outsider = await makeUser(db);
    await addMember(db, other.id, outsider.id, 3);
    tok.outsider = await s.tokenFor(outsider.id);
  });
  afterAll(() => s?.close());

  /** A sensor with boot info (firmware 72, hardware 13 unless told), so every task type is open to it. */
  async function sensor(over: { radio?: string; sensorType?: string; fw?: number; hw?: number; config?: Record<string, unknown>; alarms?: unknown; displayInfo?: unknown } = {}) {
    const x = await makeSensor(s.ctx.db, org.id, { radio: over.radio, sensorType: over.sensorType ?? 'LS1-R', alarms: over.alarms, config: over.config, displayInfo: over.displayInfo });
    await s.ctx.db.query('UPDATE sensors SET latest_boot_info = $2 WHERE id = $1', [x.id, JSON.stringify({ firmwareVersion: over.fw ?? 72, hardwareVersion: over.hw ?? 13, buildType: 'Production' })]);
    return x;
  }
  const path = (sensorId: string, rest = '') => `/organisations/${org.id}/sensors/${sensorId}/downlink-tasks${rest}`;
  const create = (sensorId: string, body: unknown, token = tok.admin) => s.api(path(sensorId), { method: 'POST', token, json: body });
  const created = async (sensorId: string, body: unknown, token = tok.admin): Promise<DownlinkTask> => {
    const res = await create(sensorId, body, token);
    expect(res.status, await res.clone().text()).toBe(201);
    return taskResponseSchema.parse(await res.json()).task;
  };
  const cancel = (sensorId: string, taskId: string, token = tok.admin) => s.api(path(sensorId, `/${taskId}`), { method: 'PATCH', token, json: { status: 'Canceled' } });
  const list = async (sensorId: string, token = tok.admin, limit?: number) => {
    const res = await s.api(path(sensorId, limit ? `?limit=${limit}` : ''), { token });
    expect(res.status).toBe(200);
    return taskListSchema.parse(await res.json());
  };
  const status = async (id: string) => (await s.ctx.db.query<{ status: string }>('SELECT status FROM downlink_tasks WHERE id = $1', [id]))[0]?.status;
  interface SensorRowLite {
    config: Record<string, unknown>;
    bounds_filter: { maxGradient: number };
    latest_data: { lastDownlinkRequestAt?: number };
    alarms: Record<string, { threshold: number }>;
    range_config: unknown;
    pending_config: Record<string, unknown> | null;
  }
  const row = async (id: string) => (await s.ctx.db.query<SensorRowLite>('SELECT * FROM sensors WHERE id = $1', [id]))[0];
  const uplink = async (x: { serial: string; deviceKey: string }, appliedTasks: { id: string; ok: boolean; reason?: string }[] = []) => {
    clock += MIN;
    const res = await sendUplink(s, x.deviceKey, { serial: x.serial, measurements: [{ time: clock - 1000, rawDistance: 1500 }], appliedTasks });
    expect(res.status, await res.clone().text()).toBe(200);
    return (await res.json()) as { downlinks: { id: string; type: string; params: Record<string, unknown> }[] };
  };
  const expectError = async (res: Response, status: number, code: string, message?: string) => {
    const body = await res.json();
    expect(res.status, JSON.stringify(body)).toBe(status);
    expect(body.code).toBe(code);
    if (message) expect(body.message).toBe(message);
  };

  it('runs tasks one at a time in creation order: dispatched by uplinks, settled by the device\'s report, params written on Success', async () => {
    const x = await sensor({ alarms: { '0': { type: 'THRESHOLD_INCREASING', threshold: 1000, enabled: true } } });
    const a = await created(x.id, schedule(15, 4));
    const b = await created(x.id, alarm(0, 'THRESHOLD_INCREASING', 1200, { type: 'THRESHOLD_INCREASING', threshold: 1000, enabled: true }));
    const c = await created(x.id, { type: 'ExtendedConfig', params: { txCountOnAlarm: 2, userRangeEnabled: true, userRangeMin: 300, userRangeMax: 6000 } }, tok.site);
    expect((await list(x.id)).queued.map((t) => t.id)).toEqual([a.id, b.id, c.id]);

    expect((await uplink(x)).downlinks.map((d) => d.id)).toEqual([a.id]);
    expect([await status(a.id), await status(b.id)]).toEqual(['Dispatched', 'Created']);
    expect((await uplink(x)).downlinks).toEqual([]); // the dispatched one is still outstanding
    expect((await uplink(x, [{ id: a.id, ok: true }])).downlinks.map((d) => d.id)).toEqual([b.id]);
    let r = await row(x.id);
    expect(await status(a.id)).toBe('Success');
    expect(r.config).toMatchObject({ measurementInterval: 15, transmissionInterval: 60, deltaCompressionEnabled: false });
    expect(Number(r.bounds_filter.maxGradient)).toBe(200);
    expect(r.latest_data.lastDownlinkRequestAt).toBe(clock);

    expect((await uplink(x, [{ id: b.id, ok: false, reason: '  alarm slot 1 is locked by the installer  ' }])).downlinks.map((d) => d.id)).toEqual([c.id]);
    expect(await status(b.id)).toBe('Error');
    expect((await row(x.id)).alarms['0'].threshold).toBe(1000); // a failed task changes nothing
    await uplink(x, [{ id: c.id, ok: true }]);
    r = await row(x.id);
    expect(r.config.txCountOnAlarm).toBe(2);
    expect(r.range_config).toEqual({ enabled: true, min: 300, max: 6000 });
    const l = await list(x.id);
    expect(l.queued).toEqual([]);
    expect(l.completed.map((t) => [t.id, t.status])).toEqual([
      [c.id, 'Success'],
      [b.id, 'Error'],
      [a.id, 'Success'],
    ]);
    // the failed one says why, in the device's words (issue 36, item 7); the others say nothing
    expect(l.completed.map((t) => t.reason ?? null)).toEqual([null, 'alarm slot 1 is locked by the installer', null]);
    // a repeated or stranger report changes nothing
    await uplink(x, [{ id: a.id, ok: false }, { id: randomUUID(), ok: true }]);
    expect(await status(a.id)).toBe('Success');
  });

  it('cancels only Created tasks (PATCH status Canceled); Dispatched and completed ones answer 409, unknown 404', async () => {
    const x = await sensor();
    const a = await created(x.id, schedule());
    const b = await created(x.id, alarm(0, 'THRESHOLD_INCREASING', 1000));
    await uplink(x);
    await expectError(await cancel(x.id, a.id), 409, 'TASK_NOT_CANCELABLE');
    const res = await cancel(x.id, b.id);
    expect(res.status).toBe(200);
    expect(taskResponseSchema.parse(await res.json()).task.status).toBe('Canceled');
    await expectError(await cancel(x.id, b.id), 409, 'TASK_NOT_CANCELABLE');
    await expectError(await cancel(x.id, randomUUID()), 404, 'TASK_NOT_FOUND');
    await expectError(await s.api(path(x.id, `/${b.id}`), { method: 'PATCH', token: tok.admin, json: { status: 'Success' } }), 400, 'INVALID_REQUEST');
    await expectError(await cancel(x.id, b.id, tok.member), 403, 'FORBIDDEN');
  });

  it('pendingConfig: PUT stores it, DELETE cancels the queued schedule tasks, and it clears once none is queued', async () => {
    const x = await sensor();
    const pend = (body: unknown) => s.api(`/organisations/${org.id}/sensors/${x.id}/pending-config`, { method: 'PUT', token: tok.admin, json: body });
    await expectError(await pend({ measurementInterval: 15, transmissionInterval: 50 }), 400, 'INVALID_TASK_PARAMS', 'Transmission interval must be a multiple of the measurement interval');
    expect((await pend({ measurementInterval: 15, transmissionInterval: 60 })).status).toBe(200);
    const a = await created(x.id, schedule(15, 4));
    const e = await created(x.id, { type: 'ExtendedConfig', params: { txCountOnAlarm: 2, userRangeEnabled: false, userRangeMin: 300, userRangeMax: 6000 } });
    expect((await row(x.id)).pending_config).toMatchObject({ measurementInterval: 15 });
    await uplink(x);
    await uplink(x, [{ id: a.id, ok: true }]);
    expect((await row(x.id)).pending_config).not.toBeNull(); // the ExtendedConfig is still queued
    await uplink(x, [{ id: e.id, ok: true }]);
    expect((await row(x.id)).pending_config).toBeNull();

    expect((await pend({ measurementInterval: 30, transmissionInterval: 120 })).status).toBe(200);
    const b = await created(x.id, schedule(30, 4));
    const del = await s.api(`/organisations/${org.id}/sensors/${x.id}/pending-config`, { method: 'DELETE', token: tok.admin });
    expect(await del.json()).toEqual({ pendingConfig: null, canceled: [b.id] });
    expect(await status(b.id)).toBe('Canceled');
    expect((await row(x.id)).pending_config).toBeNull();
  });

  it('refuses by role: strangers 404, members and meter readers 403, site-admin-only types for others 403; site admins of any role pass', async () => {
    const x = await sensor();
    await expectError(await create(x.id, schedule(), tok.outsider), 404, 'ORGANISATION_NOT_FOUND');
    await expectError(await create(x.id, schedule(), tok.member), 403, 'FORBIDDEN');
    await expectError(await create(x.id, schedule(), tok.reader), 403, 'FORBIDDEN');
    await expectError(await s.api(path(x.id), { token: tok.member }), 403, 'FORBIDDEN');
    const fw = await s.ctx.db.query<{ id: string }>(
      `INSERT INTO firmware (id, fw_name, fw_type, fw_version, build_type, apply_to, created_at) VALUES ($1, 'main-80.bin', 'Main', 80, 'Production', '{"hardwareVersions":[13]}', 0) RETURNING id`,
      [randomUUID()],
    );
    const radar = { type: 'RadarConfig', params: { debugInterval: 0, scoreSize: 1, scoreReflection: 2, gain: 0.3, profile: 2, scoringMethod: 1, checkTooClose: true } };
    await expectError(await create(x.id, { type: 'FirmwareDownload', params: { fwId: fw[0].id } }, tok.owner), 403, 'FORBIDDEN');
    await expectError(await create(x.id, radar, tok.owner), 403, 'FORBIDDEN');
    const fwTask = await created(x.id, { type: 'FirmwareDownload', params: { fwId: fw[0].id } }, tok.site);
    // the task names its firmware for its row (issue 36, item 7)
    expect(fwTask.params).toEqual({ fwId: fw[0].id, fwName: 'main-80.bin', fwType: 'Main', fwVersion: 80 });
    await created(x.id, radar, tok.site);
    // the same firmware twice, or one not newer than installed, is refused
    await expectError(await create(x.id, { type: 'FirmwareDownload', params: { fwId: fw[0].id } }, tok.site), 400, 'INVALID_TASK_PARAMS');
    await expectError(await s.api(path(x.id, '?limit=1000'), { token: tok.admin }), 403, 'FORBIDDEN');
    expect((await list(x.id, tok.site, 1000)).queued).toHaveLength(2);
    await expectError(await create(randomUUID(), schedule()), 404, 'SENSOR_NOT_FOUND');
    await expectError(await s.api(`/organisations/${org.id}/sensors/not-a-uuid/downlink-tasks`, { token: tok.admin }), 400, 'INVALID_REQUEST');
  });

  it('refuses satellite, a sensor whose scheduler is off, old firmware, firmware over sigfox and radar tasks on a sonic sensor', async () => {
    await expectError(await create((await sensor({ radio: 'myriota' })).id, schedule()), 400, 'REMOTE_TASKS_NOT_SUPPORTED', BANNERS.satellite);
    const off = await sensor({ config: { schedulerEnabled: false, measurementInterval: 5, transmissionInterval: 30 } });
    await expectError(await create(off.id, schedule()), 400, 'SENSOR_SCHEDULER_DISABLED', BANNERS.schedulerOff);
    await expectError(await create((await sensor({ fw: 26 })).id, schedule()), 400, 'FIRMWARE_TOO_OLD', BANNERS.firmware(27));
    await expectError(await create((await sensor({ fw: 33 })).id, alarm(0, 'THRESHOLD_INCREASING', 1000)), 400, 'TASK_TYPE_NOT_ALLOWED');
    const fw = await s.ctx.db.query<{ id: string }>(`SELECT id FROM firmware LIMIT 1`);
    if (fw[0]) await expectError(await create((await sensor({ radio: 'sigfox' })).id, { type: 'FirmwareDownload', params: { fwId: fw[0].id } }, tok.site), 400, 'TASK_TYPE_NOT_ALLOWED');
    await expectError(
      await create((await sensor({ sensorType: 'LS1' })).id, { type: 'TransmissionConfig', params: { additionalRadarDataEnabled: false, startingLevelMm: null } }),
      400,
      'TASK_TYPE_NOT_ALLOWED',
    );
  });

  it('enforces the queued limits per type and the alarm rules (unchanged, duplicate, conflict, range, order)', async () => {
    const x = await sensor({ sensorType: 'LS1-R-12M', config: { schedulerEnabled: true, measurementInterval: 10, transmissionInterval: 30 }, alarms: { '1': { type: 'THRESHOLD_DECREASING', threshold: -9000, enabled: true } } });
    await created(x.id, schedule());
    await expectError(await create(x.id, schedule(30, 1)), 409, 'TASK_LIMIT_REACHED', TASK_MESSAGES.noTypeLeft);
    await expectError(await create(x.id, alarm(1, 'THRESHOLD_DECREASING', -9000, { type: 'THRESHOLD_DECREASING', threshold: -9000, enabled: true })), 400, 'UNCHANGED', TASK_MESSAGES.unchanged);
    await expectError(await create(x.id, alarm(1, 'THRESHOLD_DECREASING', -8000, { type: 'THRESHOLD_DECREASING', threshold: -7000, enabled: true })), 409, 'ALARM_SETTINGS_CONFLICT', TASK_MESSAGES.stateChanged);
    // offset 3000 (the fixture) and a 500-12000 mm range: levels -9000 to 2500
    await expectError(await create(x.id, alarm(0, 'THRESHOLD_INCREASING', 2600)), 400, 'INVALID_TASK_PARAMS', 'The threshold has exceeded the measurement range of the sensor.');
    await expectError(await create(x.id, alarm(0, 'THRESHOLD_INCREASING', -9000)), 400, 'INVALID_TASK_PARAMS', 'The depth is smaller than the low level alarm');
    await expectError(await create(x.id, alarm(0, 'ACCELEROMETER', 10)), 400, 'INVALID_TASK_PARAMS');
    await created(x.id, alarm(0, 'THRESHOLD_INCREASING', 2000));
    await expectError(await create(x.id, alarm(2, 'THRESHOLD_INCREASING', 1500)), 409, 'DUPLICATE_ALARM_CONFIG_TASK', TASK_MESSAGES.stateChanged);
    await created(x.id, alarm(1, 'THRESHOLD_DECREASING', -8000, { type: 'THRESHOLD_DECREASING', threshold: -9000, enabled: true }));
    await expectError(await create(x.id, alarm(2, 'DELTA_INCREASING', 0)), 400, 'INVALID_TASK_PARAMS');
    await created(x.id, alarm(2, 'DELTA_INCREASING', 300));
    await expectError(await create(x.id, alarm(3, 'DELTA_DECREASING', 300)), 409, 'TASK_LIMIT_REACHED');
    await expectError(await create(x.id, { type: 'ExtendedConfig', params: { txCountOnAlarm: 4, userRangeEnabled: false, userRangeMin: 600, userRangeMax: 11000 } }), 400, 'INVALID_TASK_PARAMS', 'Invalid txIntervalOnAlarm value');
    await expectError(await create(x.id, { type: 'ExtendedConfig', params: { txCountOnAlarm: 2, userRangeEnabled: true, userRangeMin: 400, userRangeMax: 11000 } }, tok.site), 400, 'INVALID_TASK_PARAMS');
    // a non-site-admin cannot change the user range: it is kept as the sensor has it
    const ext = await created(x.id, { type: 'ExtendedConfig', params: { txCountOnAlarm: 2, userRangeEnabled: true, userRangeMin: 600, userRangeMax: 11000 } });
    expect(ext.params.userRangeEnabled).toBe(false);
  });

  it('a sensor without an offset takes distance thresholds: its distance range and the distance wording; queued values count in the order', async () => {
    const x = await sensor({ sensorType: 'LS1', displayInfo: { referenceLines: [] }, alarms: { '0': { type: 'THRESHOLD_DECREASING', threshold: 1000, enabled: true } } });
    // LS1 measures 300-5000 mm
    await expectError(await create(x.id, alarm(1, 'THRESHOLD_INCREASING', 200)), 400, 'INVALID_TASK_PARAMS', 'The threshold has exceeded the measurement range of the sensor.');
    await expectError(await create(x.id, alarm(1, 'THRESHOLD_INCREASING', 900)), 400, 'INVALID_TASK_PARAMS', 'The distance is smaller than the low level alarm');
    await created(x.id, alarm(1, 'THRESHOLD_INCREASING', 3000));
    // the low alarm is compared with the queued high one (3000), not only with the sensor's alarms
    await expectError(
      await create(x.id, alarm(0, 'THRESHOLD_DECREASING', 3500, { type: 'THRESHOLD_DECREASING', threshold: 1000, enabled: true })),
      400,
      'INVALID_TASK_PARAMS',
      'The distance is bigger than the high level alarm',
    );
    await created(x.id, alarm(0, 'THRESHOLD_DECREASING', 2500, { type: 'THRESHOLD_DECREASING', threshold: 1000, enabled: true }));
  });

  it('stores the radar settings from a successful FullRadarConfig and from the device\'s report; site admins read them, FullRadarConfig params are theirs only', async () => {
    const x = await sensor({ sensorType: 'LS1-R' });
    const radarPath = `/organisations/${org.id}/sensors/${x.id}/radar-settings`;
    const read = async (token = tok.site) => {
      const res = await s.api(radarPath, { token });
      expect(res.status, await res.clone().text()).toBe(200);
      return radarSettingsResponseSchema.parse(await res.json()).radarSettings;
    };
    expect(await read()).toBeNull();
    expect((await s.api(radarPath, { token: tok.admin })).status).toBe(403);
    expect((await s.api(radarPath, { token: tok.member })).status).toBe(403);
    expect((await s.api(radarPath, { token: tok.outsider })).status).toBe(404);
    expect((await s.api(`/organisations/${org.id}/sensors/not-a-uuid/radar-settings`, { token: tok.site })).status).toBe(400);

    const params = { ...FULL_RADAR_DEFAULTS, gain: 0.55, startDistance: 0.5, endDistance: 4, length: 0 };
    const t = await created(x.id, { type: 'FullRadarConfig', params }, tok.site);
    expect(t.params.length).toBe(3.5); // derived on the server
    // others see the task (it runs in order) without its params
    const seen = (await list(x.id, tok.admin)).queued.find((q) => q.id === t.id);
    expect(seen?.params).toEqual({});
    expect((await list(x.id, tok.site)).queued.find((q) => q.id === t.id)?.params).toMatchObject({ gain: 0.55 });

    await uplink(x);
    expect(await read()).toBeNull(); // dispatched is not applied
    await uplink(x, [{ id: t.id, ok: true }]);
    const fromTask = await read();
    expect(fromTask).toMatchObject({ source: 'task', taskId: t.id, updatedAt: clock, settings: { ...params, length: 3.5 } });

    // a failed task changes nothing
    const bad = await created(x.id, { type: 'FullRadarConfig', params: { ...params, gain: 0.9 } }, tok.site);
    await uplink(x);
    await uplink(x, [{ id: bad.id, ok: false }]);
    expect((await read())?.settings.gain).toBe(0.55);

    // the device's own report (after a boot) is the newest word; length derived when it leaves it out
    clock += MIN;
    const { length: _omit, ...reported } = { ...params, gain: 0.25 };
    const res = await sendUplink(s, x.deviceKey, { serial: x.serial, measurements: [{ time: clock - 1000, rawDistance: 1500 }], radarSettings: reported });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await read()).toMatchObject({ source: 'device', taskId: null, updatedAt: clock, settings: { gain: 0.25, length: 3.5 } });
    // a malformed report is refused with the uplink (nothing stored)
    clock += MIN;
    const refused = await sendUplink(s, x.deviceKey, { serial: x.serial, measurements: [], radarSettings: { ...reported, gain: 7 } });
    expect(refused.status).toBe(400);
    expect((await read())?.settings.gain).toBe(0.25);
  });

  it('concurrent cancel and dispatch of one task: exactly one wins, every time', async () => {
    for (let i = 0; i < 12; i++) {
      const x = await sensor();
      const t = await created(x.id, schedule());
      clock += MIN;
      const [c, up] = await Promise.all([
        cancel(x.id, t.id),
        sendUplink(s, x.deviceKey, { serial: x.serial, measurements: [{ time: clock - 1000, rawDistance: 1500 }] }).then((r) => r.json()),
      ]);
      const dispatched = (up as { downlinks: unknown[] }).downlinks.length === 1;
      expect(c.status === 200, `round ${i}`).toBe(!dispatched);
      expect(await status(t.id)).toBe(dispatched ? 'Dispatched' : 'Canceled');
    }
  });

  it('keeps the limits under concurrent creation', async () => {
    const x = await sensor();
    const results = await Promise.all(Array.from({ length: 5 }, () => create(x.id, schedule())));
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(4);
  });

  it('publishes every transition live on orgs/{orgId}/sensors/{sensorId}/downlink-tasks with the sensor after it', async () => {
    const x = await sensor();
    const client = await connectWs(s, tok.admin);
    const got = collect(client);
    await client.subscribeAsync(`orgs/${org.id}/sensors/${x.id}/downlink-tasks`);
    try {
      const t = await created(x.id, schedule(30, 2));
      await got.next((m) => (m.body.task as DownlinkTask).status === 'Created');
      await uplink(x);
      await got.next((m) => (m.body.task as DownlinkTask).status === 'Dispatched');
      await uplink(x, [{ id: t.id, ok: true }]);
      const done = await got.next((m) => (m.body.task as DownlinkTask).status === 'Success');
      expect((done.body.sensor as { config: { measurementInterval: number } }).config.measurementInterval).toBe(30);
    } finally {
      await client.endAsync();
    }
  });
  // last: it moves the clock 3 days on
  it('times out a task 3 days after dispatch, once, with several jobs running', async () => {
    const x = await sensor();
    const a = await created(x.id, schedule());
    await uplink(x);
    const jobs = [createTaskTimeoutJob(s.ctx), createTaskTimeoutJob(s.ctx)];
    const dispatched = async () => (await s.ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM downlink_tasks WHERE status = 'Dispatched'`))[0].n;
    clock += 2 * MIN;
    await jobs[0].runOnce(); // earlier tests' tasks may time out here, never this one
    expect(await status(a.id)).toBe('Dispatched');
    clock += 3 * DAY - 2 * MIN; // exactly 3 days after its dispatch
    const before = await dispatched();
    const counts = await Promise.all(jobs.map((j) => j.runOnce()));
    // every task due timed out exactly once across the two jobs
    expect(counts.reduce((p, n) => p + n, 0)).toBe(before);
    expect(await dispatched()).toBe(0);
    expect(await status(a.id)).toBe('Timeout');
    // a late report changes nothing
    await uplink(x, [{ id: a.id, ok: true }]);
    expect(await status(a.id)).toBe('Timeout');
  });
});

describe.each(testDrivers)('the radar section in the production stage on %s (sensor-setup 2: hidden there, refused by the server too)', (driver) => {
  let s: TestServer;
  afterAll(() => s?.close());

  it('refuses FullRadarConfig tasks and the radar-settings read with RADAR_CONFIG_NOT_IN_PRODUCTION; other task types still work, strangers still get 404', async () => {
    s = await startTestServer(driver, { STAGE: 'production' });
    expect(s.ctx.config.STAGE).toBe('production');
    const db = s.ctx.db;
    const org = await makeOrg(db);
    const site = await makeUser(db, { isSiteAdmin: true });
    await addMember(db, org.id, site.id, 3);
    const outsider = await makeUser(db);
    const [siteTok, outsiderTok] = [await s.tokenFor(site.id), await s.tokenFor(outsider.id)];
    const x = await makeSensor(db, org.id, { sensorType: 'LS1-R' });
    await db.query('UPDATE sensors SET latest_boot_info = $2 WHERE id = $1', [x.id, JSON.stringify({ firmwareVersion: 72, hardwareVersion: 13, buildType: 'Production' })]);
    const base = `/organisations/${org.id}/sensors/${x.id}`;

    const expectRefused = async (res: Response) => {
      expect(res.status, await res.clone().text()).toBe(403);
      expect(await res.json()).toMatchObject({ code: REMOTE_TASK_CODES.radarInProduction, message: 'Radar configuration is not available in the production stage.' });
    };
    await expectRefused(await s.api(`${base}/radar-settings`, { token: siteTok }));
    const params = { ...FULL_RADAR_DEFAULTS, length: 0 };
    await expectRefused(await s.api(`${base}/downlink-tasks`, { method: 'POST', token: siteTok, json: { type: 'FullRadarConfig', params } }));
    expect(await db.query('SELECT 1 FROM downlink_tasks WHERE sensor_id = $1', [x.id])).toHaveLength(0);
    // the stage does not open anything to a stranger: the organisation check still answers first
    expect((await s.api(`${base}/radar-settings`, { token: outsiderTok })).status).toBe(404);
    // the rest of the remote tasks are untouched by the stage
    const ok = await s.api(`${base}/downlink-tasks`, { method: 'POST', token: siteTok, json: schedule() });
    expect(ok.status, await ok.clone().text()).toBe(201);
    // and /config.json tells the client, which hides the section
    expect(await (await fetch(`${s.url}/config.json`)).json()).toMatchObject({ stage: 'production' });
  });
});
