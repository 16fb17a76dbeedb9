import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, testDrivers, type TestServer } from './harness';
import { addMember, insertMeasurementColumns, makeOrg, makeSensor, makeUser } from './fixtures';
import { collect, connectWs } from './live-helpers';
import { usageSchema } from '../../src/contract/usage.schema';
import { SETUP_RULES } from '../../src/domain/setup-messages';
import { syntheticTank } from '../../wasm-core/test-kit';
import { FORECAST_RECHECK_MS, createForecastAlarmJob, judgeForecast, judgeForecastSoon } from '../../server/alarms/forecast';

// Issue 38: the forecast alarm ("empty within N days", "full within N days"), beyond the spec:
// set with the sensor's one save call (managers only, checked), judged on the data core's usage
// forecast as data arrives, delivered as a FORECAST_ALARM notification like the spec's types.
const DAY = 86_400_000;
const T0 = Date.UTC(2026, 0, 5);
const DAYS = 30;
// a tank of 13,000 l drawn down about 300 l a day, never refilled: about two weeks left after 30 days
const tank = syntheticTank({ seed: 381, start: T0, days: DAYS, stepMin: 15, noiseMm: 2, start_volume: 13_000, weekday: [200, 330, 330, 330, 330, 330, 200] });
const END = T0 + DAYS * DAY - 1;

async function insertColumns(s: TestServer, sensorId: string, time: ArrayLike<number>, raw: ArrayLike<number>) {
  await insertMeasurementColumns(s.ctx.db, sensorId, time, raw);
  const last = time.length - 1;
  await s.ctx.db.query(`UPDATE sensors SET latest_data = jsonb_build_object('lastSeen', $2::bigint, 'lastMeasurement', jsonb_build_object('time', $2::bigint, 'rawDistance', $3::real)) WHERE id = $1`, [sensorId, time[last], raw[last]]);
}

describe.each(testDrivers)('the forecast alarm on %s (issue 38)', (driver) => {
  let s: TestServer;
  let org: { id: string };
  let sensor: { id: string; serial: string };
  let plain: { id: string };
  let owner: string;
  let member: string;
  let ownerId: string;
  let days: number;

  const put = (sensorId: string, body: unknown, token = owner) => s.api(`/organisations/${org.id}/sensors/${sensorId}`, { method: 'PUT', token, json: body });
  const notes = async (sensorId: string) =>
    s.ctx.db.query<{ id: string; type: string; condition_key: string; end_time: number | null; meta: { forecast?: { target: string; withinDays: number; days: number } } }>(
      'SELECT id, type, condition_key, end_time, meta FROM notifications WHERE sensor_id = $1 ORDER BY start_time, id',
      [sensorId],
    );

  beforeAll(async () => {
    s = await startTestServer(driver);
    org = await makeOrg(s.ctx.db);
    await s.ctx.db.query(`UPDATE organisations SET locale = '{"timezone":"UTC","country":"NZ"}' WHERE id = $1`, [org.id]);
    const o = await makeUser(s.ctx.db);
    ownerId = o.id;
    await addMember(s.ctx.db, org.id, o.id, 3);
    owner = await s.tokenFor(o.id);
    const m = await makeUser(s.ctx.db);
    await addMember(s.ctx.db, org.id, m.id, 1);
    member = await s.tokenFor(m.id);
    sensor = await makeSensor(s.ctx.db, org.id, { displayInfo: { referenceLines: [], offsetMeasurement: 3000, minLevel: 0, maxLevel: 2900 } });
    await s.ctx.db.query(`UPDATE sensors SET conversion_configs = '[{"type":"VOLUME_CYLINDER","diameter":2.5}]' WHERE id = $1`, [sensor.id]);
    await insertColumns(s, sensor.id, tank.time, tank.raw);
    plain = await makeSensor(s.ctx.db, org.id);
    // what the usage pane says: days until empty at the rolling use
    const usage = usageSchema.parse(await (await s.api(`/organisations/${org.id}/sensors/${sensor.id}/usage?startTime=${END - DAY}&endTime=${END}`, { token: member })).json());
    if (usage.kind !== 'volume') throw new Error('a tank answers kind volume');
    days = usage.forecasts.find((f) => f.target === 'empty')!.days!;
    expect(days).toBeGreaterThan(5);
    expect(days).toBeLessThan(40);
  });
  afterAll(() => s?.close());

  it('refuses bad days, a sensor without a tank volume and members, and saves nothing', async () => {
    for (const bad of [0, 61, 2.5, '7', -1]) {
      const res = await put(sensor.id, { forecastAlarm: { emptyWithinDays: bad, fullWithinDays: null } });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ code: 'FORECAST_DAYS_INVALID', message: SETUP_RULES.FORECAST_DAYS_INVALID });
    }
    const noTank = await put(plain.id, { forecastAlarm: { emptyWithinDays: 7, fullWithinDays: null } });
    expect(noTank.status).toBe(400);
    expect(await noTank.json()).toMatchObject({ code: 'FORECAST_NEEDS_VOLUME', message: SETUP_RULES.FORECAST_NEEDS_VOLUME });
    expect((await put(sensor.id, { forecastAlarm: { emptyWithinDays: 7, fullWithinDays: null } }, member)).status).toBe(403);
    const rows = await s.ctx.db.query<{ forecast_alarm: unknown }>('SELECT forecast_alarm FROM sensors WHERE id = ANY($1::uuid[])', [[sensor.id, plain.id]]);
    expect(rows.map((r) => r.forecast_alarm)).toEqual([null, null]);
    // the spec's record is unchanged for a sensor without one
    const rec = await (await s.api(`/organisations/${org.id}/sensors/${sensor.id}`, { token: member })).json();
    expect(rec.sensor).not.toHaveProperty('forecastAlarm');
  });

  it('opens when the tank is forecast empty within the days, live and delivered; closes when the days are shortened past it', async () => {
    const c = await connectWs(s, member);
    const inbox = collect(c);
    await c.subscribeAsync(`orgs/${org.id}/#`);

    const within = Math.ceil(days) + 2;
    const saved = await put(sensor.id, { forecastAlarm: { emptyWithinDays: within, fullWithinDays: null } });
    expect(saved.status).toBe(200);
    expect((await saved.json()).sensor.forecastAlarm).toEqual({ emptyWithinDays: within, fullWithinDays: null });
    // judged at once after the save, not at the next periodic pass
    const opened = await inbox.next((m) => m.topic === `orgs/${org.id}/notifications` && m.body.event === 'opened', 20_000);
    expect(opened.body).toMatchObject({ serial: sensor.serial, notification: { sensorId: sensor.id, endTime: null, meta: { type: 'FORECAST_ALARM', forecast: { target: 'empty', withinDays: within } } } });
    const open = await notes(sensor.id);
    expect(open).toHaveLength(1);
    expect(open[0]).toMatchObject({ type: 'FORECAST_ALARM', condition_key: 'forecast:empty', end_time: null });
    expect(Math.abs(open[0].meta.forecast!.days - days)).toBeLessThan(0.11);
    // the owner's default rule emails it, with the words the card shows
    const mail = await s.ctx.db.query<{ payload: { subject: string; text: string } }>(`SELECT payload FROM outbox WHERE channel = 'email' AND payload->>'kind' = 'alert-triggered'`);
    expect(mail.map((m) => m.payload.subject)).toContain(`Alert triggered: Forecast alarm on ${(await s.ctx.db.query<{ name: string }>('SELECT name FROM sensors WHERE id = $1', [sensor.id]))[0].name} (${sensor.serial})`);
    expect(mail.some((m) => m.payload.text.includes('forecast to be empty in about'))).toBe(true);
    // the Notifications page's type filter finds it, after the spec's types
    const page = await (await s.api(`/organisations/${org.id}/notifications?type=FORECAST_ALARM&state=open`, { token: member })).json();
    expect(page.notifications.map((n: { id: string }) => n.id)).toEqual([open[0].id]);

    // judging again with no new data changes nothing
    expect(await judgeForecast(s.ctx, sensor.id)).toBe(0);

    const shorter = Math.max(1, Math.floor(days) - 2);
    expect((await put(sensor.id, { forecastAlarm: { emptyWithinDays: shorter, fullWithinDays: null } })).status).toBe(200);
    const closed = await inbox.next((m) => m.topic === `orgs/${org.id}/notifications` && m.body.event === 'closed', 20_000);
    expect(closed.body).toMatchObject({ notification: { id: open[0].id, meta: { type: 'FORECAST_ALARM' } } });
    expect((await notes(sensor.id))[0].end_time).not.toBeNull();
    await c.endAsync();
    void ownerId;
  });

  it('is judged again as data arrives, at most every 15 minutes of the clock however late the data: a refill clears it, the periodic pass reads only sensors with newer data', async () => {
    // the server's clock (the save's judging reads it); the data is months older, as late data is
    let clock = Date.now();
    const job = createForecastAlarmJob(s.ctx, { now: () => clock });
    const within = Math.ceil(days) + 2;
    expect((await put(sensor.id, { forecastAlarm: { emptyWithinDays: within, fullWithinDays: null } })).status).toBe(200);
    await expect.poll(async () => (await notes(sensor.id)).filter((n) => n.end_time === null).length, { timeout: 20_000 }).toBe(1);
    expect(await job.runOnce()).toBe(0); // judged on the newest data already

    // a delivery fills the tank to near its top (13,500 l): over 40 days at its use, well beyond the days
    const t = Array.from({ length: 8 }, (_, i) => END + (i + 1) * 15 * 60_000);
    await insertColumns(s, sensor.id, t, t.map(() => 250));
    // judged by the save moments ago: the newer data waits for the recheck interval on the clock
    expect(await job.runOnce()).toBe(0);
    clock += FORECAST_RECHECK_MS + 60_000;
    expect(await job.runOnce()).toBe(1);
    const after = await notes(sensor.id);
    expect(after.filter((n) => n.end_time === null)).toEqual([]);
    clock += DAY;
    expect(await job.runOnce()).toBe(0);
  });

  it("a judging begun after a save is tracked until it ends, so stopping the server waits for it", async () => {
    const done = judgeForecastSoon(s.ctx, sensor.id);
    expect(s.ctx.afterAnswer?.has(done)).toBe(true);
    await done;
    expect(s.ctx.afterAnswer?.has(done)).toBe(false);
  });
});
