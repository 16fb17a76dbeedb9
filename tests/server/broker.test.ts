import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTestServer, testDrivers, type TestServer } from './harness';
import { addMember, makeOrg, makeSensor, makeUser } from './fixtures';
import { collect, connectWs, sendUplink, sleep } from './live-helpers';
import { createEmbeddedBroker } from '../../server/broker/embedded';

describe.each(testDrivers)('MQTT broker at /mqtt on %s (DESIGN.md Live data)', (driver) => {
  let s: TestServer;
  let org: { id: string };
  let other: { id: string };
  let member: { id: string };
  let outsider: { id: string };
  let sensor: Awaited<ReturnType<typeof makeSensor>>;
  const T0 = Date.UTC(2026, 0, 5, 12);

  beforeAll(async () => {
    s = await startTestServer(driver);
    org = await makeOrg(s.ctx.db);
    other = await makeOrg(s.ctx.db);
    member = await makeUser(s.ctx.db);
    outsider = await makeUser(s.ctx.db);
    await addMember(s.ctx.db, org.id, member.id, 1);
    await addMember(s.ctx.db, other.id, outsider.id, 3);
    sensor = await makeSensor(s.ctx.db, org.id);
  });
  afterAll(() => s?.close());

  it('delivers a committed uplink to an authorised subscriber of orgs/{orgId}/#', async () => {
    const c = await connectWs(s, await s.tokenFor(member.id));
    const inbox = collect(c);
    const granted = await c.subscribeAsync(`orgs/${org.id}/#`, { qos: 0 });
    expect(granted[0].qos).toBe(0);
    const res = await sendUplink(s, sensor.deviceKey, { serial: sensor.serial, measurements: [{ time: T0, rawDistance: 1200 }], battery: 80 });
    expect(res.status).toBe(200);
    const m = await inbox.next((x) => x.topic === `orgs/${org.id}/sensors/${sensor.id}/measurements`);
    expect(m.body).toMatchObject({ sensorId: sensor.id, serial: sensor.serial, measurements: [{ time: T0, rawDistance: 1200 }], latestData: { battery: 80 } });
    await c.endAsync();
  });

  it("refuses a subscription to another organisation's topics and sends it nothing", async () => {
    const c = await connectWs(s, await s.tokenFor(outsider.id));
    const inbox = collect(c);
    // SUBACK 0x80: mqtt.js rejects the subscription; the connection stays up
    await expect(c.subscribeAsync(`orgs/${org.id}/#`, { qos: 0 })).rejects.toThrow(/Subscribe error/);
    // a wildcard over every organisation is refused as well
    await expect(c.subscribeAsync('orgs/#', { qos: 0 })).rejects.toThrow(/Subscribe error/);
    expect(c.connected).toBe(true);
    await sendUplink(s, sensor.deviceKey, { serial: sensor.serial, measurements: [{ time: T0 + 60_000, rawDistance: 1210 }] });
    await sleep(300);
    expect(inbox.messages).toEqual([]);
    if (c.connected) await c.endAsync();
  });

  it('refuses a bad token at connect', async () => {
    await expect(connectWs(s, 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.bm9wZQ')).rejects.toThrow(/Not authorized|Bad username or password/i);
    await expect(connectWs(s, '')).rejects.toThrow();
  });

  it('lets no browser client publish on an organisation topic: it is dropped and nothing reaches subscribers', async () => {
    const watcher = await connectWs(s, await s.tokenFor(member.id));
    const inbox = collect(watcher);
    await watcher.subscribeAsync(`orgs/${org.id}/#`, { qos: 1 });
    const c = await connectWs(s, await s.tokenFor(member.id));
    const closed = new Promise<void>((r) => c.once('close', () => r()));
    c.publish(`orgs/${org.id}/sensors/${sensor.id}/measurements`, JSON.stringify({ fake: true }), { qos: 1 });
    await closed; // aedes drops a client whose publish is not authorised
    // a real uplink after the forged one: once it arrives, anything forwarded before it would have too
    await sendUplink(s, sensor.deviceKey, { serial: sensor.serial, measurements: [{ time: T0 + 120_000, rawDistance: 1220 }] });
    await inbox.next((x) => x.topic === `orgs/${org.id}/sensors/${sensor.id}/measurements` && x.body.sensorId === sensor.id);
    expect(inbox.messages.filter((m) => 'fake' in m.body)).toEqual([]);
    await watcher.endAsync();
  });

  describe('device uplinks over MQTT devices/{serial}/uplink', () => {
    it('stores the uplink and acknowledges QoS 1 only after commit', async () => {
      const d = await connectWs(s, sensor.deviceKey, { username: sensor.serial, clientId: `dev-${sensor.serial}` });
      const acks = collect(d);
      await d.subscribeAsync(`devices/${sensor.serial}/#`, { qos: 0 });
      const time = T0 + 3_600_000;
      await d.publishAsync(`devices/${sensor.serial}/uplink`, JSON.stringify({ measurements: [{ time, rawDistance: 999 }], battery: 77 }), { qos: 1 });
      // the PUBACK arrived: the row must already be committed
      const rows = await s.ctx.db.query<{ raw_distance: number }>('SELECT raw_distance FROM measurements WHERE sensor_id = $1 AND time = $2', [sensor.id, time]);
      expect(rows).toEqual([{ raw_distance: 999 }]);
      const ack = await acks.next((m) => m.topic === `devices/${sensor.serial}/ack`);
      expect(ack.body).toMatchObject({ stored: 1, duplicates: 0 });
      await d.endAsync();
    });

    it('refuses a wrong device key at connect', async () => {
      await expect(connectWs(s, 'not-the-key', { username: sensor.serial })).rejects.toThrow(/Not authorized|Bad username or password/i);
    });

    it("closes a device that publishes another sensor's uplink, storing nothing", async () => {
      const second = await makeSensor(s.ctx.db, org.id);
      const d = await connectWs(s, sensor.deviceKey, { username: sensor.serial });
      const closed = new Promise<void>((r) => d.once('close', () => r()));
      d.publish(`devices/${second.serial}/uplink`, JSON.stringify({ measurements: [{ time: T0, rawDistance: 5 }] }), { qos: 1 });
      await closed;
      const n = await s.ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM measurements WHERE sensor_id = $1', [second.id]);
      expect(n[0].n).toBe(0);
    });

    it('refuses an invalid uplink with a message on devices/{serial}/errors and stores nothing', async () => {
      const d = await connectWs(s, sensor.deviceKey, { username: sensor.serial });
      const inbox = collect(d);
      await d.subscribeAsync(`devices/${sensor.serial}/errors`);
      const closed = new Promise<void>((r) => d.once('close', () => r()));
      d.publish(`devices/${sensor.serial}/uplink`, JSON.stringify({ measurements: [{ time: T0 + 1, rawDistance: -4 }] }), { qos: 1 });
      const err = await inbox.next();
      expect(err.body).toMatchObject({ code: 'INVALID_UPLINK' });
      expect(String(err.body.message)).toMatch(/^Invalid uplink: measurements\.0\.rawDistance/);
      await closed;
      const rows = await s.ctx.db.query('SELECT 1 FROM measurements WHERE sensor_id = $1 AND time = $2', [sensor.id, T0 + 1]);
      expect(rows).toEqual([]);
    });
  });

  it('closes a browser connection within the re-check period once its membership ends', async () => {
    // a broker of its own with a short re-check period, over the test server's database and keys
    const embedded = await createEmbeddedBroker(s.ctx, { recheckMs: 150 });
    const http = createServer();
    http.on('upgrade', (req, socket, head) => embedded.handleUpgrade(req, socket, head));
    await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
    try {
      const leaver = await makeUser(s.ctx.db);
      await addMember(s.ctx.db, org.id, leaver.id, 2);
      const c = await connectWs({ url }, await s.tokenFor(leaver.id));
      await c.subscribeAsync(`orgs/${org.id}/#`);
      await sleep(400);
      expect(c.connected).toBe(true); // still a member: stays connected across re-checks
      const closed = new Promise<void>((r) => c.once('close', () => r()));
      await s.ctx.db.query('DELETE FROM memberships WHERE org_id = $1 AND user_id = $2', [org.id, leaver.id]);
      await closed;
      // and coming back with the same token, the subscription is refused
      const again = await connectWs({ url }, await s.tokenFor(leaver.id));
      await expect(again.subscribeAsync(`orgs/${org.id}/#`)).rejects.toThrow(/Subscribe error/);
      await again.endAsync();
    } finally {
      await embedded.publisher.close();
      await new Promise((r) => http.close(r));
    }
  });
});

