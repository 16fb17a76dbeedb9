import { describe, expect, it, vi } from 'vitest';
import type { MqttClient } from 'mqtt';
import type { Follower } from '../../server/broker/external';
import { loadConfig } from '../../server/config';
import { startServer, type RunningServer } from '../../server/start';
import { issueTokens } from '../../server/identity/tokens';
import { markServiceUsed, serviceUrl } from './services';
import { emptyPostgres } from './cluster-helpers';
import { addMember, makeOrg, makeSensor, makeUser } from './fixtures';
import { collect, connectWs, sendUplink, sleep } from './live-helpers';

const pgUrl = serviceUrl('postgres');
const mqttUrl = serviceUrl('mqtt');

describe.skipIf(!pgUrl || !mqttUrl)('live fan-out across processes through an external broker (issue 17)', () => {
  it('an uplink ingested on B reaches a browser on A\'s /mqtt, once, and B\'s own browser once', { timeout: 60_000 }, async () => {
    const store = await emptyPostgres();
    markServiceUsed('mqtt');
    const config = loadConfig({ DATABASE_URL: store.url, PUBLIC_URL: 'https://tidewatch.example', MQTT_URL: mqttUrl!, MQTT_INGEST_GROUP: `cluster-live-${process.pid}`, PORT: '0', HOST: '127.0.0.1', SIMULATOR: 'false', LOG_LEVEL: 'warn' });
    const servers: RunningServer[] = await Promise.all([startServer(config, { background: false }), startServer(config, { background: false })]);
    const [a, b] = servers;
    const browsers: Awaited<ReturnType<typeof connectWs>>[] = [];
    try {
      // /config.json still sends browsers to the process's own /mqtt
      expect(((await (await fetch(`${a.url}/config.json`)).json()) as { mqtt: { url: string } }).mqtt.url).toBe('wss://tidewatch.example/mqtt');
      const org = await makeOrg(a.ctx.db);
      const user = await makeUser(a.ctx.db);
      await addMember(a.ctx.db, org.id, user.id, 1);
      const sensor = await makeSensor(a.ctx.db, org.id);
      const u = { id: user.id, email: user.email, name: 'Test User', email_verified: true, is_site_admin: false };
      const token = (await issueTokens(a.ctx.db, a.ctx.key, a.ctx.tokens, u)).IdToken;
      // a process takes an organisation's live messages from the broker only while a browser of it is here
      const follower = (s: RunningServer) => s.ctx.publisher as unknown as Follower & { client: MqttClient };
      for (const s of [a, b]) expect(follower(s).following()).toEqual([]);
      for (const s of [a, b]) browsers.push(await connectWs(s, token));
      const inboxes = browsers.map((c) => collect(c));
      for (const c of browsers) expect((await c.subscribeAsync(`orgs/${org.id}/#`))[0].qos).toBe(0);
      for (const s of [a, b]) expect(follower(s).following()).toEqual([org.id]);
      // a stranger's organisation stays refused on /mqtt, as without the external broker
      const other = await makeOrg(a.ctx.db);
      await expect(browsers[0].subscribeAsync(`orgs/${other.id}/#`)).rejects.toThrow(/Subscribe error/);

      const time = Date.UTC(2026, 9, 1);
      expect((await sendUplink(b, sensor.deviceKey, { serial: sensor.serial, measurements: [{ time, rawDistance: 777 }] })).status).toBe(200);
      const topic = `orgs/${org.id}/sensors/${sensor.id}/measurements`;
      for (const inbox of inboxes) expect((await inbox.next((m) => m.topic === topic)).body).toMatchObject({ sensorId: sensor.id, measurements: [{ time, rawDistance: 777 }] });
      await sleep(500); // time for a second copy, were there one
      for (const inbox of inboxes) expect(inbox.messages.filter((m) => m.topic === topic)).toHaveLength(1);
      // and nothing of the other organisation reached A's browser, nor A's process
      const reachedA: string[] = [];
      follower(a).client.on('message', (t) => reachedA.push(t));
      const otherSensor = await makeSensor(a.ctx.db, other.id);
      expect((await sendUplink(b, otherSensor.deviceKey, { serial: otherSensor.serial, measurements: [{ time, rawDistance: 1 }] })).status).toBe(200);
      await sleep(500);
      for (const inbox of inboxes) expect(inbox.messages.filter((m) => m.topic.includes(other.id))).toEqual([]);
      expect(reachedA).toEqual([]);
      // once A's browser has gone, A no longer takes the organisation's messages; B, whose browser stays, does
      await browsers[0].endAsync();
      await vi.waitFor(() => expect(follower(a).following()).toEqual([]));
      await sleep(200); // the UNSUBSCRIBE reaches the broker
      expect((await sendUplink(b, sensor.deviceKey, { serial: sensor.serial, measurements: [{ time: time + 60_000, rawDistance: 778 }] })).status).toBe(200);
      await inboxes[1].next((m) => m.topic === topic && (m.body as { measurements: { rawDistance: number }[] }).measurements[0]?.rawDistance === 778);
      await sleep(300);
      expect(reachedA).toEqual([]);
      expect(follower(b).following()).toEqual([org.id]);
    } finally {
      await Promise.all(browsers.map((c) => c.endAsync()));
      await Promise.all(servers.map((s) => s.stop()));
      await store.drop();
    }
  });
});
