import { describe, expect, it } from 'vitest';
import { uplinkSchema } from '../../src/contract/uplink.schema';
import { nextUplink, takeAck, type DeviceState } from './device';

describe('the reference device (npm run device)', () => {
  it('sends uplinks the contract accepts, and reports the tasks its ack handed it in the next one', () => {
    const d: DeviceState = { serial: 'A1B2C3D4', level: 2000, battery: 100, applied: [] };
    const first = nextUplink(d, 1_790_000_000_000);
    expect(uplinkSchema.parse(first)).toEqual(first);
    expect(first.appliedTasks).toEqual([]);
    takeAck(d, { stored: 1, duplicates: 0, downlinks: [{ id: '9b1f3c52-0f0e-4a8c-b7f4-6ad0d0f5f7a2', type: 'SensorConfig', params: {} }] });
    const second = nextUplink(d, 1_790_000_010_000);
    expect(uplinkSchema.parse(second).appliedTasks).toEqual([{ id: '9b1f3c52-0f0e-4a8c-b7f4-6ad0d0f5f7a2', ok: true }]);
    expect(second.measurements[0].time).toBe(1_790_000_010_000);
  });
});
