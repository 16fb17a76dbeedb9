import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mqtt from 'mqtt';
import { startTestServer, testDrivers, type TestServer } from './harness';
import { makeOrg, makeSensor } from './fixtures';
import { collect, sendUplink } from './live-helpers';
import { startExternalIngest } from '../../server/broker/external-ingest';
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
    const ingest = startExternalIngest(s.ctx, url!, { connections: 2, clientIdPrefix: `test-ingest-${sensor.serial}` });
    try {
      await Promise.all(ingest.clients.map((c) => new Promise<void>((r) => (c.connected ? r() : c.once('connect', () => r())))));
      await new Promise((r) => setTimeout(r, 200)); // the shared subscription is in place
      const device = await mqtt.connectAsync(url!, { clientId: `dev-${sensor.serial}`, reconnectPeriod: 0 });
      const acks = collect(device);
      await device.subscribeAsync(`devices/${sensor.serial}/ack`);
      const time = Date.UTC(2026, 8, 2);
      await device.publishAsync(`devices/${sensor.serial}/uplink`, JSON.stringify({ measurements: [{ time, rawDistance: 654 }] }), { qos: 1 });
      const ack = await acks.next();
      expect(ack.body).toMatchObject({ stored: 1, duplicates: 0 });
      const rows = await s.ctx.db.query('SELECT raw_distance FROM measurements WHERE sensor_id = $1 AND time = $2', [sensor.id, time]);
      expect(rows).toEqual([{ raw_distance: 654 }]);
      await device.endAsync();
    } finally {
      await ingest.stop();
      // drop the persistent sessions, so no later run's uplinks are queued for them
      for (const c of ingest.clients) await (await mqtt.connectAsync(url!, { clientId: c.options.clientId, clean: true, reconnectPeriod: 0 })).endAsync();
    }
  });
});
