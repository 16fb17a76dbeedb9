import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { lostDownlink } from './fleet';

describe('simulated downlink loss (issue 12: some tasks never answer and time out)', () => {
  it('loses about one in four downlinks to a weak Sigfox device, the same task always alike, and none elsewhere', () => {
    const ids = Array.from({ length: 2000 }, () => randomUUID());
    const weak = { radio: 'sigfox', signalBase: -128 };
    const share = ids.filter((id) => lostDownlink(weak, id)).length / ids.length;
    expect(share).toBeGreaterThan(0.18);
    expect(share).toBeLessThan(0.32);
    expect(ids.map((id) => lostDownlink(weak, id))).toEqual(ids.map((id) => lostDownlink(weak, id)));
    expect(ids.some((id) => lostDownlink({ radio: 'sigfox', signalBase: -118 }, id))).toBe(false);
    expect(ids.some((id) => lostDownlink({ radio: 'cellular', signalBase: 2 }, id))).toBe(false);
  });
});
