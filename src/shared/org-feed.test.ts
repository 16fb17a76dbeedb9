import { describe, expect, it } from 'vitest';
import { orgFeed } from './org-feed';

// A view is sent only the topics of the handlers it gives: the notifications page and a
// dashboard's alerts are not sent a fleet's every uplink.
describe('orgFeed', () => {
  const none = () => {};
  it('listens only to the topics of the handlers given', () => {
    expect(orgFeed('o1', { onNotification: none }, none).map((l) => l.filter)).toEqual(['orgs/o1/notifications']);
    expect(orgFeed('o1', { onSensor: none, onSensorSettings: none }, none).map((l) => l.filter)).toEqual([
      'orgs/o1/sensors/+/measurements',
      'orgs/o1/sensors/+/state',
      'orgs/o1/sensors/+/settings',
    ]);
    expect(orgFeed('o1', { onSensor: none }, none).map((l) => l.filter)).toEqual(['orgs/o1/sensors/+/measurements', 'orgs/o1/sensors/+/state']);
  });
  it('hands on a valid message and reports a malformed one, going on', () => {
    const seen: string[] = [];
    const dropped: string[] = [];
    const [measurements] = orgFeed('o1', { onSensor: (m) => seen.push(m.sensorId) }, (topic, reason) => dropped.push(`${topic}: ${reason}`));
    measurements!.onMessage('orgs/o1/sensors/s1/measurements', { sensorId: 's1', serial: 'A1', latestData: {} });
    measurements!.onMessage('orgs/o1/sensors/s2/measurements', { serial: 'A2' });
    measurements!.onMessage('orgs/o1/sensors/s3/measurements', { sensorId: 's3', serial: 'A3', latestData: {}, measurements: [{ time: 1, rawDistance: 2 }] });
    expect(seen).toEqual(['s1', 's3']);
    expect(dropped).toHaveLength(1);
    expect(dropped[0]).toMatch(/^orgs\/o1\/sensors\/s2\/measurements: sensorId/);
  });
});
