import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { randomBytes } from 'node:crypto';
import mqtt from 'mqtt';
import { startTestServer, testDrivers, type TestServer } from './harness';
import { addMember, makeOrg, makeSensor, makeUser } from './fixtures';
import { collect, connectWs, sendUplink } from './live-helpers';
import { sharedUplinks, startExternalIngest } from '../../server/broker/external-ingest';
import { haveMosquitto, startDeployedBroker, type DeployedBroker } from './mosquitto-helpers';

// deploy/mosquitto as shipped, on a Mosquitto of the test's own (not this machine's, which allows anonymous clients)
const available = haveMosquitto();
if (!available) console.warn('SKIPPED: mosquitto-deploy.test.ts needs mosquitto and mosquitto_passwd on the PATH');

describe.skipIf(!available).each(testDrivers)('the shipped Mosquitto configuration (deploy/mosquitto), on %s (issue 39)', (driver) => {
  let s: TestServer;
  let broker: DeployedBroker;
  let org: { id: string };
  let a: Awaited<ReturnType<typeof makeSensor>>;
  let b: Awaited<ReturnType<typeof makeSensor>>;
  let ingest: ReturnType<typeof startExternalIngest>;
  const clients: mqtt.MqttClient[] = [];
  const device = async (serial: string, password: string) => {
    const c = await mqtt.connectAsync(broker.url, { username: serial, password, clientId: `dev-${serial}-${clients.length}`, reconnectPeriod: 0, protocolVersion: 5 });
    clients.push(c);
    return c;
  };

  beforeAll(async () => {
    // the devices' serials and keys go into the broker's password file, and into the server's sensors
    const provisioned = [0, 1].map(() => ({ serial: randomBytes(4).toString('hex').toUpperCase(), deviceKey: randomBytes(16).toString('hex') }));
    broker = await startDeployedBroker(provisioned, 'server-secret-39');
    s = await startTestServer(driver, { MQTT_URL: broker.serverUrl });
    org = await makeOrg(s.ctx.db);
    a = await makeSensor(s.ctx.db, org.id, provisioned[0]);
    b = await makeSensor(s.ctx.db, org.id, provisioned[1]);
    ingest = startExternalIngest(s.ctx, broker.serverUrl, { connections: 1, clientIdPrefix: `deploy-${a.serial}`, subscription: sharedUplinks('deploy') });
    await ingest.ready;
  });
  afterAll(async () => {
    for (const c of clients) await c.endAsync().catch(() => {});
    await ingest?.stop();
    await s?.close();
    await broker?.stop();
  });

  it('refuses an anonymous client: it can publish neither an uplink nor a live message', async () => {
    await expect(mqtt.connectAsync(broker.url, { reconnectPeriod: 0, protocolVersion: 5 })).rejects.toThrow(/Not authorized|Bad User Name or Password/i);
    await expect(mqtt.connectAsync(broker.url, { reconnectPeriod: 0, protocolVersion: 4 })).rejects.toThrow(/Not authorized/i);
  });

  it('lets a device publish only its own uplink, read only its own answers, and never a live topic; its uplink is stored', async () => {
    const dev = await device(a.serial, a.deviceKey);
    const inbox = collect(dev);
    // another device's answers and the live topics: Mosquitto grants the SUBSCRIBE but delivers nothing (its ACL is checked per message)
    const other = await device(b.serial, b.deviceKey);
    const othersInbox = collect(other);
    await other.subscribeAsync(`devices/${b.serial}/ack`, { qos: 1 });
    await dev.subscribeAsync([`devices/${b.serial}/ack`, `orgs/${org.id}/#`, `devices/${a.serial}/ack`, `devices/${a.serial}/errors`], { qos: 1 });
    const server = await mqtt.connectAsync(broker.serverUrl, { reconnectPeriod: 0, protocolVersion: 5 });
    clients.push(server);
    await server.publishAsync(`devices/${b.serial}/ack`, JSON.stringify({ stored: 0, duplicates: 0, downlinks: [] }), { qos: 1 });
    await server.publishAsync(`orgs/${org.id}/sensors/${b.id}/measurements`, '{}', { qos: 1 });
    await othersInbox.next();
    const time = Date.UTC(2026, 8, 10);
    // another device's uplink topic and a live topic: the broker refuses the PUBLISH
    await expect(dev.publishAsync(`devices/${b.serial}/uplink`, JSON.stringify({ deviceKey: a.deviceKey, measurements: [{ time, rawDistance: 1 }] }), { qos: 1 })).rejects.toThrow(/135|Not authorized/i);
    await expect(dev.publishAsync(`orgs/${org.id}/sensors/${b.id}/measurements`, '{}', { qos: 1 })).rejects.toThrow(/135|Not authorized/i);
    // its own: through the broker to the server, stored and acknowledged
    await dev.publishAsync(`devices/${a.serial}/uplink`, JSON.stringify({ measurements: [{ time, rawDistance: 555 }] }), { qos: 1, properties: { userProperties: { 'device-key': a.deviceKey } } });
    expect((await inbox.next((m) => m.topic.endsWith('/ack'))).body).toMatchObject({ stored: 1 });
    // by now the broker has long delivered the other device's ack and the live message, had it been allowed to
    expect(inbox.messages.map((m) => m.topic)).toEqual([`devices/${a.serial}/ack`]);
    expect(await s.ctx.db.query('SELECT sensor_id, raw_distance FROM measurements WHERE time = $1', [time])).toEqual([{ sensor_id: a.id, raw_distance: 555 }]);
  });

  it('a device with a wrong password cannot connect; an uplink with a forged device key through the broker is refused and stores nothing', async () => {
    await expect(mqtt.connectAsync(broker.url, { username: a.serial, password: 'wrong', reconnectPeriod: 0, protocolVersion: 5 })).rejects.toThrow(/Not authorized|Bad User Name or Password/i);
    const dev = await device(b.serial, b.deviceKey);
    const inbox = collect(dev);
    await dev.subscribeAsync(`devices/${b.serial}/errors`, { qos: 1 });
    const time = Date.UTC(2026, 8, 11);
    await dev.publishAsync(`devices/${b.serial}/uplink`, JSON.stringify({ deviceKey: a.deviceKey, measurements: [{ time, rawDistance: 1 }] }), { qos: 1 });
    expect((await inbox.next()).body).toEqual({ code: 'INVALID_DEVICE_KEY', message: 'Unknown sensor or wrong device key.' });
    expect(await s.ctx.db.query('SELECT count(*)::int AS n FROM measurements WHERE time = $1', [time])).toEqual([{ n: 0 }]);
  });

  it('lets server processes do their work: what one publishes on the live topics reaches a browser on /mqtt', async () => {
    const user = await makeUser(s.ctx.db);
    await addMember(s.ctx.db, org.id, user.id, 1);
    const browser = await connectWs(s, await s.tokenFor(user.id));
    clients.push(browser);
    const inbox = collect(browser);
    await browser.subscribeAsync(`orgs/${org.id}/#`);
    const time = Date.UTC(2026, 8, 12);
    expect((await sendUplink(s, b.deviceKey, { serial: b.serial, measurements: [{ time, rawDistance: 777 }] })).status).toBe(200);
    await vi.waitFor(async () => expect((await inbox.next((m) => m.topic === `orgs/${org.id}/sensors/${b.id}/measurements`)).body).toMatchObject({ measurements: [{ time, rawDistance: 777 }] }));
  });
});
