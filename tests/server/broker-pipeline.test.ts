import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Socket } from 'node:net';
import mqtt from 'mqtt';
import { startTestServer, testDrivers, type TestServer } from './harness';
import { makeOrg, makeSensor } from './fixtures';
import { collect, sleep } from './live-helpers';
import { startExternalIngest } from '../../server/broker/external-ingest';
import { batcherFor } from '../../server/ingest/batcher';
import { markServiceUsed, serviceUrl } from './services';
import { startMqttTap } from './mqtt-tap';

// Against this machine's Mosquitto (TEST_MQTT_URL), the ingest connection behind a tap that records what the broker receives.
const url = serviceUrl('mqtt');

describe.skipIf(!url).each(testDrivers)('the external ingest connection carries many uplinks at once, on %s (issue 10)', (driver) => {
  let s: TestServer;
  let org: { id: string };

  beforeAll(async () => {
    s = await startTestServer(driver, { MQTT_URL: url! });
    org = await makeOrg(s.ctx.db);
    markServiceUsed('mqtt');
  });
  afterAll(async () => {
    await s?.close();
  });

  /** One ingest connection through a tap, on a shared group of its own, and a device publishing to the broker. */
  async function setUp(name: string) {
    const sensor = await makeSensor(s.ctx.db, org.id);
    const tap = await startMqttTap(url!);
    // only this sensor's topic: other suites' uplinks on the broker would reach a `devices/+/uplink` group too
    const ingest = startExternalIngest(s.ctx, tap.url, { connections: 1, clientIdPrefix: `${name}-${sensor.serial}`, subscription: `$share/${name}-${sensor.serial}/devices/${sensor.serial}/uplink` });
    const device = await mqtt.connectAsync(url!, { clientId: `dev-${sensor.serial}`, reconnectPeriod: 0 });
    const inbox = collect(device);
    await device.subscribeAsync([`devices/${sensor.serial}/ack`, `devices/${sensor.serial}/errors`], { qos: 1 });
    await ingest.ready;
    // the device key travels in the body, as on every path through an external broker (docs/device-protocol.md)
    const uplink = (body: unknown) => device.publishAsync(`devices/${sensor.serial}/uplink`, typeof body === 'string' ? body : JSON.stringify({ ...(body as object), deviceKey: sensor.deviceKey }), { qos: 1 });
    const stored = async () => (await s.ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM measurements WHERE sensor_id = $1', [sensor.id]))[0].n;
    const tearDown = async () => {
      await device.endAsync();
      await ingest.stop();
      await tap.close();
      // drop the persistent session, so no later run's uplinks are queued for it
      for (const c of ingest.clients) await (await mqtt.connectAsync(url!, { clientId: c.clientId, clean: true, reconnectPeriod: 0 })).endAsync();
    };
    return { sensor, tap, ingest, inbox, uplink, stored, tearDown };
  }

  it('acknowledges to the broker each uplink only after its commit, in the order they arrived on the connection (MQTT 5 4.6)', { timeout: 60_000 }, async () => {
    const t = await setUp('pipe');
    const batcher = batcherFor(s.ctx.db, s.ctx.log);
    try {
      const release = batcher.hold();
      const t0 = Date.UTC(2026, 8, 5);
      // the third is refused at once (not JSON): acknowledged, but only after the two before it
      const bodies = [0, 1, 'not json', 3, 4, 5].map((i) => (typeof i === 'string' ? i : { measurements: [{ time: t0 + i * 60_000, rawDistance: 800 + i }] }));
      for (const b of bodies) await t.uplink(b);
      // every stored one waits for the commit at once: five uplinks in flight on one connection
      await vi.waitFor(() => expect(batcher.queued).toBe(5), { timeout: 10_000, interval: 20 });
      // (other servers on the broker, in their own groups, answer on the device's topics too: the tap shows ours)
      await vi.waitFor(() => expect(t.tap.of('client', 'publish').some((p) => p.topic.endsWith('/errors'))).toBe(true));
      await sleep(100); // time for a PUBACK of the refused one, sent too early, to reach the broker
      expect(t.tap.of('client', 'puback')).toEqual([]);
      expect(await t.stored()).toBe(0);
      // the connection's socket writes from here on (to the tap's port)
      const sockets = Socket.prototype as unknown as Record<'_write' | '_writev', () => void>;
      const writes = [vi.spyOn(sockets, '_write'), vi.spyOn(sockets, '_writev')];
      release();
      await vi.waitFor(() => expect(t.tap.of('client', 'puback')).toHaveLength(bodies.length), { timeout: 10_000, interval: 20 });
      const tapPort = Number(new URL(t.tap.url).port);
      const toTap = writes.flatMap((w) => w.mock.contexts as unknown as Socket[]).filter((socket) => socket.remotePort === tapPort);
      for (const w of writes) w.mockRestore();
      // the batch's five acks to the device and the six PUBACKs left in one write
      expect(toTap).toHaveLength(1);
      const arrived = t.tap.of('broker', 'publish').map((p) => p.messageId);
      expect(t.tap.of('client', 'puback').map((p) => p.messageId)).toEqual(arrived);
      expect(await t.stored()).toBe(5);
      await vi.waitFor(() => expect(t.inbox.messages.filter((m) => m.topic.endsWith('/ack'))).toHaveLength(5));
    } finally {
      await t.tearDown();
    }
  });

  it('does not acknowledge an uplink that failed to store: the broker delivers it again and it is stored once', { timeout: 60_000 }, async () => {
    const t = await setUp('retry');
    const batcher = batcherFor(s.ctx.db, s.ctx.log);
    // a database failure for this one uplink (not a refusal, which would be acknowledged)
    const submit = vi.spyOn(batcher, 'submit').mockRejectedValueOnce(new Error('connection to the database lost'));
    try {
      const time = Date.UTC(2026, 8, 6);
      await t.uplink({ measurements: [{ time, rawDistance: 901 }] });
      await t.inbox.next((m) => m.topic.endsWith('/errors') && m.body.code === 'NOT_STORED');
      expect((await t.inbox.next((m) => m.topic.endsWith('/ack'), 10_000)).body).toMatchObject({ stored: 1, duplicates: 0 });
      const deliveries = t.tap.of('broker', 'publish');
      expect(deliveries.map((p) => p.dup)).toEqual([false, true]); // the same message again, on a new connection
      expect(t.tap.of('client', 'connect')).toHaveLength(2);
      // the PUBACK follows the device's ack on the connection
      await vi.waitFor(() => expect(t.tap.of('client', 'puback').map((p) => p.messageId)).toEqual([deliveries[1].messageId]));
      expect(await t.stored()).toBe(1);
    } finally {
      submit.mockRestore();
      await t.tearDown();
    }
  });

  it('reconnects and takes uplinks again after the broker drops the connection', { timeout: 60_000 }, async () => {
    const t = await setUp('reconnect');
    const [conn] = t.ingest.clients;
    try {
      // another client takes over the session: the broker disconnects ours
      const intruder = await mqtt.connectAsync(url!, { clientId: conn.clientId, clean: false, protocolVersion: 5, properties: { sessionExpiryInterval: 60 }, reconnectPeriod: 0 });
      await vi.waitFor(() => expect(conn.connected).toBe(false), { timeout: 5_000, interval: 10 });
      await vi.waitFor(() => expect(conn.connected).toBe(true), { timeout: 10_000, interval: 20 });
      await intruder.endAsync().catch(() => {});
      const time = Date.UTC(2026, 8, 7);
      await t.uplink({ measurements: [{ time, rawDistance: 902 }] });
      expect((await t.inbox.next((m) => m.topic.endsWith('/ack'), 10_000)).body).toMatchObject({ stored: 1 });
      expect(await t.stored()).toBe(1);
    } finally {
      await t.tearDown();
    }
  });
});
