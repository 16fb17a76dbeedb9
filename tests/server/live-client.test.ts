import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTestServer, testDrivers, type TestServer } from './harness';
import { addMember, makeOrg, makeSensor, makeUser } from './fixtures';
import { sendUplink } from './live-helpers';
import { LIVE_REFUSED, closeLive, configureLive, createLiveConnection, subscribeLive, subscribeOrg } from '../../src/shared/live';
import { createEmbeddedBroker } from '../../server/broker/embedded';
import { FleetLiveFeed, LIVE_BATCH_MS, type LiveFleet } from '../../workers/fleet-live';
import type { FleetLiveRows, FleetLiveUpdate } from '../../workers/fleet';
import type { LiveMeasurementMessage, LiveNotificationMessage } from '../../src/contract/live.schema';

/** Resolves with the first value pushed to the returned callback that passes the predicate. */
function waitFor<T>(pred: (v: T) => boolean = () => true, ms = 10_000) {
  let resolve!: (v: T) => void;
  let done = false;
  const p = new Promise<T>((r, reject) => {
    const t = setTimeout(() => reject(new Error('timed out waiting for a live message')), ms);
    resolve = (v) => {
      done = true;
      clearTimeout(t);
      r(v);
    };
  });
  p.catch(() => {}); // awaited by the test; never an unhandled rejection
  return { p, push: (v: T) => pred(v) && resolve(v), get done() { return done; } };
}

/** Sends until the awaited message came: the subscription settles asynchronously after subscribe*. */
async function sendUntil(done: () => boolean, send: (i: number) => Promise<unknown>) {
  for (let i = 0; i < 20 && !done(); i++) {
    await send(i);
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe.each(testDrivers)("the browser's live transport src/shared/live.ts on %s (sensor-setup.md 7: a live subscription per organisation)", (driver) => {
  let s: TestServer;
  let org: { id: string };
  let user: { id: string };
  let sensor: Awaited<ReturnType<typeof makeSensor>>;
  let tokensIssued = 0;

  beforeAll(async () => {
    s = await startTestServer(driver);
    org = await makeOrg(s.ctx.db);
    user = await makeUser(s.ctx.db);
    await addMember(s.ctx.db, org.id, user.id, 1);
    sensor = await makeSensor(s.ctx.db, org.id, { displayInfo: { offsetMeasurement: 3000, referenceLines: [] } });
    configureLive({
      url: `${s.url.replace('http', 'ws')}/mqtt`,
      getIdToken: async () => {
        tokensIssued++;
        return s.tokenFor(user.id);
      },
    });
  });
  afterAll(async () => {
    closeLive();
    await s?.close();
  });

  it('subscribeLive hands the chart each committed point of its sensor', async () => {
    const got = waitFor<LiveMeasurementMessage>((m) => m.measurements.length > 0);
    const errors: Error[] = [];
    const off = subscribeLive({ orgId: org.id, sensorId: sensor.id }, got.push, (e) => errors.push(e));
    const time = Date.UTC(2026, 6, 1);
    await sendUntil(() => got.done, (i) => sendUplink(s, sensor.deviceKey, { serial: sensor.serial, measurements: [{ time: time + i * 60_000, rawDistance: 1111 }] }));
    const msg = await got.p;
    expect(msg).toMatchObject({ sensorId: sensor.id, serial: sensor.serial, measurements: [{ rawDistance: 1111 }] });
    expect(errors).toEqual([]);
    off();
  });

  it('subscribeOrg reports sensor state and notifications of the whole organisation', async () => {
    const state = waitFor<{ sensorId: string; latestData: { battery?: number } }>((m) => m.latestData.battery === 5);
    const note = waitFor<LiveNotificationMessage>((m) => m.notification.meta.type === 'LOW_BATTERY' && m.event === 'opened');
    const off = subscribeOrg(org.id, { onSensor: state.push, onNotification: note.push });
    // low, then fine, then low again...: each low opens a LOW_BATTERY notification anew
    await sendUntil(() => note.done && state.done, (i) => sendUplink(s, sensor.deviceKey, { serial: sensor.serial, battery: i % 2 ? 50 : 5 }));
    expect((await state.p).sensorId).toBe(sensor.id);
    expect(await note.p).toMatchObject({ event: 'opened', serial: sensor.serial, notification: { sensorId: sensor.id, endTime: null } });
    off();
  });

  it("the data worker's fleet feed (workers/fleet-live.ts) takes the organisation's uplinks on its own connection, a batch at a time, until stopped", async () => {
    const batches: FleetLiveUpdate[][] = [];
    const told: FleetLiveRows[] = [];
    const fleet: LiveFleet = {
      fleetLive: async (updates, start, end) => {
        batches.push(updates);
        return { version: 1, count: 1, rows: [], query: '', serials: updates.map(() => sensor.serial), statusChanged: false, ...{ start, end } };
      },
      fleetSettings: async () => ({ count: 1, version: 2 }),
    };
    const feed = new FleetLiveFeed(fleet);
    const errors: string[] = [];
    const watchedSeen: string[] = [];
    let connected = 0;
    const out = { token: async () => s.tokenFor(user.id), rows: (r: FleetLiveRows) => told.push(r), counts: () => {}, error: (m: string) => errors.push(m), settings: () => {}, notification: () => {}, connected: () => void connected++ };
    // the open dashboard's sensor is watched: its messages are handed on as they come, beside the batches
    feed.start({ url: `${s.url.replace('http', 'ws')}/mqtt`, orgId: org.id, watch: [sensor.id] }, { ...out, sensor: (m) => watchedSeen.push(m.sensorId) });
    feed.setWindow(0, 30);
    const time = Date.UTC(2026, 7, 1);
    // until the subscription has settled and one batch came; then three uplinks at once come as one batch
    await sendUntil(() => batches.length > 0, (i) => sendUplink(s, sensor.deviceKey, { serial: sensor.serial, measurements: [{ time: time + i * 60_000, rawDistance: 1200 }] }));
    await new Promise((r) => setTimeout(r, LIVE_BATCH_MS * 2));
    const before = batches.length;
    await Promise.all([1, 2, 3].map((i) => sendUplink(s, sensor.deviceKey, { serial: sensor.serial, measurements: [{ time: time + (100 + i) * 60_000, rawDistance: 1300 + i }] })));
    for (let i = 0; i < 40 && batches.slice(before).flat().filter((u) => u.sensorId === sensor.id).length < 6; i++) await new Promise((r) => setTimeout(r, 100));
    // each uplink sends its measurements and its state: six updates, in fewer batches than messages
    const after = batches.slice(before);
    expect(after.flat().filter((u) => u.sensorId === sensor.id).length).toBeGreaterThanOrEqual(3);
    expect(after.length).toBeLessThan(after.flat().length);
    expect(told.length).toBe(batches.length);
    expect(watchedSeen.length).toBeGreaterThanOrEqual(3);
    expect(new Set(watchedSeen)).toEqual(new Set([sensor.id]));
    expect(errors).toEqual([]);
    // the page was told the connection opened (it then reads the list's changes since its read)
    expect(connected).toBe(1);
    feed.stop();
    const stopped = batches.length;
    await sendUplink(s, sensor.deviceKey, { serial: sensor.serial, measurements: [{ time: time + 200 * 60_000, rawDistance: 1400 }] });
    await new Promise((r) => setTimeout(r, LIVE_BATCH_MS * 3));
    expect(batches.length).toBe(stopped);
  });

  it("the data worker's fleet feed is refused another organisation's uplinks", async () => {
    const other = await makeOrg(s.ctx.db);
    const feed = new FleetLiveFeed({ fleetLive: async () => ({ version: 0, count: 0, rows: [], query: '', serials: [], statusChanged: false }), fleetSettings: async () => ({ count: 0, version: 0 }) });
    const err = waitFor<string>();
    feed.start({ url: `${s.url.replace('http', 'ws')}/mqtt`, orgId: other.id }, { token: async () => s.tokenFor(user.id), rows: () => {}, counts: () => {}, error: err.push, sensor: () => {}, settings: () => {}, notification: () => {}, connected: () => {} });
    expect(await err.p).toBe(LIVE_REFUSED);
    feed.stop();
  });

  it('reports a refused subscription (another organisation) through onError', async () => {
    const other = await makeOrg(s.ctx.db);
    const err = waitFor<Error>();
    const off = subscribeLive({ orgId: other.id, sensorId: sensor.id }, () => {}, err.push);
    expect((await err.p).message).toBe(LIVE_REFUSED);
    off();
  });

  it('reconnects with a fresh token when the broker closes the connection, and subscribes again', async () => {
    const embedded = await createEmbeddedBroker(s.ctx);
    const http = createServer();
    http.on('upgrade', (req, socket, head) => embedded.handleUpgrade(req, socket, head));
    await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
    let issued = 0;
    const conn = createLiveConnection({
      url: `ws://127.0.0.1:${(http.address() as AddressInfo).port}/mqtt`,
      getIdToken: async () => {
        issued++;
        return s.tokenFor(user.id);
      },
    });
    try {
      const topic = `orgs/${org.id}/sensors/${sensor.id}/measurements`;
      const seen: unknown[] = [];
      conn.listen(topic, { onMessage: (_t, b) => seen.push(b) });
      const until = async (cond: () => boolean) => {
        for (let i = 0; i < 100 && !cond(); i++) await new Promise((r) => setTimeout(r, 50));
        expect(cond()).toBe(true);
      };
      await until(() => embedded.broker.connectedClients === 1);
      await new Promise((r) => setTimeout(r, 100));
      await embedded.publisher.publish(topic, { n: 1 });
      await until(() => seen.length === 1);
      expect(issued).toBe(1);
      embedded.dropMember(user.id, org.id); // as at token expiry or a membership re-check
      await until(() => issued === 2 && embedded.broker.connectedClients === 1);
      await new Promise((r) => setTimeout(r, 200));
      await embedded.publisher.publish(topic, { n: 2 });
      await until(() => seen.length === 2);
      expect(seen).toEqual([{ n: 1 }, { n: 2 }]);
    } finally {
      conn.close();
      await embedded.publisher.close();
      await new Promise((r) => http.close(r));
    }
    expect(tokensIssued).toBeGreaterThan(0);
  });
});
