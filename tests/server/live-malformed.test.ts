import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness';
import { addMember, makeOrg, makeSensor, makeUser } from './fixtures';
import { sendUplink } from './live-helpers';
import { closeLive, configureLive, setDroppedLiveMessageReporter, subscribeLive, subscribeOrg } from '../../src/shared/live';
import type { LiveMeasurementMessage } from '../../src/contract/live.schema';

/**
 * Issue 9, gap 12: one malformed live message must not end live mode. The browser's transport
 * (src/shared/live.ts) against the real broker: a bad message is dropped and logged, the chart's
 * error callback (which turns live mode off) is not called, and the next good message arrives.
 */
describe('a malformed live message is dropped, logged, and live data keeps coming', () => {
  let s: TestServer;
  let org: { id: string };
  let sensor: Awaited<ReturnType<typeof makeSensor>>;
  const dropped: { topic: string; reason: string }[] = [];

  beforeAll(async () => {
    s = await startTestServer('pglite');
    org = await makeOrg(s.ctx.db);
    const user = await makeUser(s.ctx.db);
    await addMember(s.ctx.db, org.id, user.id, 1);
    sensor = await makeSensor(s.ctx.db, org.id);
    configureLive({ url: `${s.url.replace('http', 'ws')}/mqtt`, getIdToken: () => s.tokenFor(user.id) });
    setDroppedLiveMessageReporter((topic, reason) => dropped.push({ topic, reason }));
  });
  afterAll(async () => {
    closeLive();
    await s?.close();
  });

  it('the chart subscription survives a message missing its fields', async () => {
    const topic = `orgs/${org.id}/sensors/${sensor.id}/measurements`;
    const errors: Error[] = [];
    const got: LiveMeasurementMessage[] = [];
    const off = subscribeLive({ orgId: org.id, sensorId: sensor.id }, (m) => got.push(m), (e) => errors.push(e));
    const orgErrors: Error[] = [];
    const offOrg = subscribeOrg(org.id, { onError: (e) => orgErrors.push(e) });
    // the subscription settles asynchronously: publish bad messages until one is seen dropped
    for (let i = 0; i < 40 && !dropped.some((d) => d.topic === topic); i++) {
      await s.ctx.publisher.publish(topic, { sensorId: sensor.id, measurements: 'not a list' });
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(dropped.find((d) => d.topic === topic)?.reason).toMatch(/serial|measurements|latestData/);
    const time = Date.UTC(2026, 6, 1);
    for (let i = 0; i < 20 && got.length === 0; i++) {
      await sendUplink(s, sensor.deviceKey, { serial: sensor.serial, measurements: [{ time: time + i * 60_000, rawDistance: 1234 }] });
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(got[0]).toMatchObject({ sensorId: sensor.id, measurements: [{ rawDistance: 1234 }] });
    expect(errors).toEqual([]);
    expect(orgErrors).toEqual([]);
    off();
    offOrg();
  });
});
