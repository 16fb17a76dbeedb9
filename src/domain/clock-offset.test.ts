import { describe, expect, it } from 'vitest';
import { clockOffset } from './clock-offset';

describe('clock offset from server time (monitoring-client 7: ignored under 5000 ms)', () => {
  it('ignores an offset under 5 s', () => {
    expect(clockOffset(1_000_004_999, 1_000_000_000, 1_000_000_000)).toBe(0);
  });
  it('corrects an offset of 5 s or more, either way, from the middle of the round trip', () => {
    expect(clockOffset(1_000_005_000, 1_000_000_000, 1_000_000_000)).toBe(5000);
    expect(clockOffset(1_000_000_000, 1_000_060_000, 1_000_060_200)).toBe(-60_100);
  });
});
