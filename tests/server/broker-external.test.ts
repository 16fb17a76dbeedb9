import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import mqtt from 'mqtt';
import { startTestServer, testDrivers, type TestServer } from './harness';
import { addMember, makeOrg, makeSensor, makeUser } from './fixtures';
import { collect, connectWs, sendUplink, sleep } from './live-helpers';
import { LIVE_SIGNATURE_PROPERTY } from '../../server/broker/live-signature';
import { sharedUplinks, startExternalIngest } from '../../server/broker/external-ingest';
import { BATCH_MAX, batcherFor } from '../../server/ingest/batcher';
import { markServiceUsed, serviceUrl } from './services';

// Runs against a real broker: this machine's Mosquitto (TEST_MQTT_URL=mqtt://127.0.0.1:1883 in CI).
const url = serviceUrl('mqtt');

describe.skipIf(!url).each(testDrivers)('with MQTT_URL the server uses an external broker, on %s (DESIGN.md: grown past one machine)', (driver) => {
  let s: TestServer;
  let org: { id: string };
  let sensor: Awaited<ReturnType<typeof makeSensor>>;
  let watcher: mqtt.MqttClient;

  beforeAll(async () => {
    s = await startTestServer(driver, { MQTT_URL: url! });
    org = await makeOrg(s.ctx.db);
    sensor = await makeSensor(s.ctx.db, org.id);
    watcher = await mqtt.connectAsync(url!, { clientId: `watch-${sensor.serial}`, reconnectPeriod: 0 });
    markServiceUsed('mqtt');
  });
  afterAll(async () => {
    await watcher?.endAsync();
    await s?.close();
  });

  it('publishes committed uplinks to orgs/{orgId}/sensors/{sensorId}/measurements on that broker', async () => {
    const inbox = collect(watcher);
    await watcher.subscribeAsync(`orgs/${org.id}/#`, { qos: 1 });
    const time = Date.UTC(2026, 8, 1);
    expect((await sendUplink(s, sensor.deviceKey, { serial: sensor.serial, measurements: [{ time, rawDistance: 321 }] })).status).toBe(200);
    const m = await inbox.next((x) => x.topic === `orgs/${org.id}/sensors/${sensor.id}/measurements`);
    expect(m.body).toMatchObject({ sensorId: sensor.id, measurements: [{ time, rawDistance: 321 }] });
    expect((await s.api('/health')).status).toBe(200);
  });

  it('takes device uplinks from devices/{serial}/uplink on that broker, acknowledging after commit', async () => {
    const ingest = startExternalIngest(s.ctx, url!, { connections: 2, clientIdPrefix: `test-ingest-${sensor.serial}`, subscription: sharedUplinks(`test-${sensor.serial}`) });
    try {
      await ingest.ready;
      const device = await mqtt.connectAsync(url!, { clientId: `dev-${sensor.serial}`, reconnectPeriod: 0 });
      const acks = collect(device);
      await device.subscribeAsync(`devices/${sensor.serial}/ack`);
      const time = Date.UTC(2026, 8, 2);
      await device.publishAsync(`devices/${sensor.serial}/uplink`, JSON.stringify({ deviceKey: sensor.deviceKey, measurements: [{ time, rawDistance: 654 }] }), { qos: 1 });
      const ack = await acks.next();
      expect(ack.body).toMatchObject({ stored: 1, duplicates: 0 });
      const rows = await s.ctx.db.query('SELECT raw_distance FROM measurements WHERE sensor_id = $1 AND time = $2', [sensor.id, time]);
      expect(rows).toEqual([{ raw_distance: 654 }]);
      await device.endAsync();
    } finally {
      await ingest.stop();
      // drop the persistent sessions, so no later run's uplinks are queued for them
      for (const c of ingest.clients) await (await mqtt.connectAsync(url!, { clientId: c.clientId, clean: true, reconnectPeriod: 0 })).endAsync();
    }
  });

  it('checks the device key an uplink through the broker carries, as on HTTP: a wrong or missing one is refused, logged, and stores nothing (issue 39)', async () => {
    const own = await makeSensor(s.ctx.db, org.id);
    const ingest = startExternalIngest(s.ctx, url!, { connections: 1, clientIdPrefix: `test-keys-${own.serial}`, subscription: sharedUplinks(`test-keys-${own.serial}`) });
    const device = await mqtt.connectAsync(url!, { clientId: `dev-keys-${own.serial}`, reconnectPeriod: 0, protocolVersion: 5 });
    const warn = vi.spyOn(s.ctx.log, 'warn');
    try {
      await ingest.ready;
      const inbox = collect(device);
      await device.subscribeAsync([`devices/${own.serial}/errors`, `devices/${own.serial}/ack`], { qos: 1 });
      const t0 = Date.UTC(2026, 8, 5);
      const up = (i: number) => ({ measurements: [{ time: t0 + i * 60_000, rawDistance: 400 + i }] });
      // no key, a wrong key in the body, a wrong key as the user property, another sensor's key
      await device.publishAsync(`devices/${own.serial}/uplink`, JSON.stringify(up(0)), { qos: 1 });
      await device.publishAsync(`devices/${own.serial}/uplink`, JSON.stringify({ ...up(1), deviceKey: 'forged' }), { qos: 1 });
      await device.publishAsync(`devices/${own.serial}/uplink`, JSON.stringify(up(2)), { qos: 1, properties: { userProperties: { 'device-key': 'forged' } } });
      await device.publishAsync(`devices/${own.serial}/uplink`, JSON.stringify({ ...up(3), deviceKey: sensor.deviceKey }), { qos: 1 });
      await vi.waitFor(() => expect(inbox.messages.filter((m) => m.topic === `devices/${own.serial}/errors`)).toHaveLength(4), { timeout: 10_000 });
      for (const m of inbox.messages) expect(m).toEqual({ topic: `devices/${own.serial}/errors`, body: { code: 'INVALID_DEVICE_KEY', message: 'Unknown sensor or wrong device key.' } });
      expect(await s.ctx.db.query('SELECT count(*)::int AS n FROM measurements WHERE sensor_id = $1', [own.id])).toEqual([{ n: 0 }]);
      expect(warn.mock.calls.filter(([o, msg]) => (o as { serial?: string }).serial === own.serial && /refused/.test(String(msg)))).toHaveLength(4);
      // the right key, as the user property: stored and acknowledged
      await device.publishAsync(`devices/${own.serial}/uplink`, JSON.stringify(up(4)), { qos: 1, properties: { userProperties: { 'device-key': own.deviceKey } } });
      expect((await inbox.next((m) => m.topic === `devices/${own.serial}/ack`)).body).toMatchObject({ stored: 1 });
      expect(await s.ctx.db.query('SELECT time FROM measurements WHERE sensor_id = $1', [own.id])).toEqual([{ time: t0 + 4 * 60_000 }]);
    } finally {
      warn.mockRestore();
      await device.endAsync();
      await ingest.stop();
      for (const c of ingest.clients) await (await mqtt.connectAsync(url!, { clientId: c.clientId, clean: true, reconnectPeriod: 0 })).endAsync();
    }
  });

  it('relays to browsers only the live messages a server signed: unsigned or forged ones on orgs/# are dropped (issue 39)', async () => {
    const user = await makeUser(s.ctx.db);
    await addMember(s.ctx.db, org.id, user.id, 1);
    const browser = await connectWs(s, await s.tokenFor(user.id));
    const intruder = await mqtt.connectAsync(url!, { clientId: `intruder-${sensor.serial}`, reconnectPeriod: 0, protocolVersion: 5 });
    try {
      const inbox = collect(browser);
      await browser.subscribeAsync(`orgs/${org.id}/#`);
      const topic = `orgs/${org.id}/sensors/${sensor.id}/measurements`;
      const fake = JSON.stringify({ sensorId: sensor.id, serial: sensor.serial, measurements: [{ time: Date.UTC(2026, 8, 6), rawDistance: 1 }], latestData: {} });
      const publisher = s.ctx.publisher as unknown as { dropped(): number };
      const before = publisher.dropped();
      await intruder.publishAsync(topic, fake, { qos: 1 });
      await intruder.publishAsync(topic, fake, { qos: 1, properties: { userProperties: { [LIVE_SIGNATURE_PROPERTY]: 'ab'.repeat(32) } } });
      // both reached this process (which follows the organisation for its browser) and were dropped there
      await vi.waitFor(() => expect(publisher.dropped() - before).toBe(2), { timeout: 5_000 });
      const time = Date.UTC(2026, 8, 7);
      expect((await sendUplink(s, sensor.deviceKey, { serial: sensor.serial, measurements: [{ time, rawDistance: 432 }] })).status).toBe(200);
      expect((await inbox.next((m) => m.topic === topic)).body).toMatchObject({ measurements: [{ time, rawDistance: 432 }] });
      await sleep(300);
      expect(inbox.messages.map((m) => (m.body.measurements as { rawDistance: number }[])[0].rawDistance)).toEqual([432]);
    } finally {
      await intruder.endAsync();
      await browser.endAsync();
    }
  });

  it('puts concurrent uplinks from the broker into one group-commit batch, each acknowledged after it (issue 10)', { timeout: 120_000 }, async () => {
    const own = await makeSensor(s.ctx.db, org.id);
    // its own shared group: no other server on this broker takes these uplinks
    const ingest = startExternalIngest(s.ctx, url!, { clientIdPrefix: `test-group-${own.serial}`, subscription: `$share/test-${own.serial}/devices/+/uplink` });
    const batcher = batcherFor(s.ctx.db, s.ctx.log);
    const device = await mqtt.connectAsync(url!, { clientId: `dev-${own.serial}`, reconnectPeriod: 0 });
    try {
      await ingest.ready;
      const acks = collect(device);
      await device.subscribeAsync(`devices/${own.serial}/ack`, { qos: 1 });
      // no batch starts while the uplinks come in, so what queues is what the broker has in flight at once
      const release = batcher.hold();
      batcher.largest = 0;
      const n = BATCH_MAX;
      const t0 = Date.UTC(2026, 8, 3);
      await Promise.all(Array.from({ length: n }, (_, i) => device.publishAsync(`devices/${own.serial}/uplink`, JSON.stringify({ deviceKey: own.deviceKey, measurements: [{ time: t0 + i * 60_000, rawDistance: 500 + i }] }), { qos: 1 })));
      // many uplinks in flight per connection: all n are held together, on INGEST_CONNECTIONS connections
      await vi.waitFor(() => expect(batcher.queued).toBe(n), { timeout: 60_000, interval: 50 });
      const before = await s.ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM measurements WHERE sensor_id = $1', [own.id]);
      expect(before).toEqual([{ n: 0 }]); // nothing committed, so nothing may have been acknowledged
      release();
      await vi.waitFor(() => expect(acks.messages).toHaveLength(n), { timeout: 60_000, interval: 50 });
      for (const a of acks.messages) expect(a.body).toMatchObject({ stored: 1, duplicates: 0 });
      expect(batcher.largest).toBe(n); // one sensor, one lane: one transaction for all of them
      expect(await s.ctx.db.query('SELECT count(*)::int AS n FROM measurements WHERE sensor_id = $1', [own.id])).toEqual([{ n }]);
    } finally {
      await device.endAsync();
      await ingest.stop();
      for (const c of ingest.clients) await (await mqtt.connectAsync(url!, { clientId: c.clientId, clean: true, reconnectPeriod: 0 })).endAsync();
    }
  });
  it('a process that dies and never comes back stops being handed uplinks once its sessions expire (MQTT 5 session expiry, issue 17)', { timeout: 120_000 }, async () => {
    const own = await makeSensor(s.ctx.db, org.id);
    const group = `test-expiry-${own.serial}`;
    // A: two members of the group whose process dies (its sockets cut, no DISCONNECT, no reconnect)
    const dead = startExternalIngest(s.ctx, url!, { connections: 2, clientIdPrefix: `dead-${own.serial}`, subscription: sharedUplinks(group), sessionExpirySeconds: 1 });
    const live = startExternalIngest(s.ctx, url!, { connections: 2, clientIdPrefix: `live-${own.serial}`, subscription: sharedUplinks(group), sessionExpirySeconds: 1 });
    const device = await mqtt.connectAsync(url!, { clientId: `dev-${own.serial}`, reconnectPeriod: 0, protocolVersion: 5 });
    try {
      await Promise.all([dead.ready, live.ready]);
      for (const c of dead.clients) c.abort();
      await vi.waitFor(() => expect(dead.clients.every((c) => !c.connected)).toBe(true));
      await sleep(3000); // past the 1 s expiry (the broker checks expiries about once a second)
      const acks = collect(device);
      await device.subscribeAsync(`devices/${own.serial}/ack`, { qos: 1 });
      const n = 12;
      const t0 = Date.UTC(2026, 8, 4);
      // one at a time, each awaiting its ack: without expiry, the dead members' share would never be answered
      for (let i = 0; i < n; i++) {
        await device.publishAsync(`devices/${own.serial}/uplink`, JSON.stringify({ measurements: [{ time: t0 + i * 60_000, rawDistance: 700 + i }] }), { qos: 1, properties: { userProperties: { 'device-key': own.deviceKey } } });
        await vi.waitFor(() => expect(acks.messages).toHaveLength(i + 1), { timeout: 10_000, interval: 20 });
      }
      expect(await s.ctx.db.query('SELECT count(*)::int AS n FROM measurements WHERE sensor_id = $1', [own.id])).toEqual([{ n }]);
    } finally {
      await device.endAsync();
      await live.stop();
      await dead.stop();
      for (const c of [...live.clients, ...dead.clients]) await (await mqtt.connectAsync(url!, { clientId: c.clientId, clean: true, reconnectPeriod: 0 })).endAsync();
    }
  });
});
