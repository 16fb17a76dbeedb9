import { describe, expect, it } from 'vitest';
import { isLocked, lockDelayMs } from './lockout';

// Cognito's lockout (DESIGN "Identity and the gateway"): after 5 failures, 1 s doubling up to 15 minutes.
describe('lockDelayMs', () => {
  it('does not lock for the first 4 failures', () => {
    expect([0, 1, 2, 3, 4].map(lockDelayMs)).toEqual([0, 0, 0, 0, 0]);
  });
  it('locks 1 s after the 5th failure and doubles with each further one', () => {
    expect([5, 6, 7, 8, 9].map(lockDelayMs)).toEqual([1000, 2000, 4000, 8000, 16000]);
  });
  it('never locks longer than 15 minutes', () => {
    expect(lockDelayMs(14)).toBe(512_000);
    expect(lockDelayMs(15)).toBe(900_000);
    expect(lockDelayMs(200)).toBe(900_000);
  });
  it('an account is locked only after 5 failures and until its lock ends', () => {
    expect(isLocked({ failed_logins: 4, locked_until: 2000 }, 1000)).toBe(false);
    expect(isLocked({ failed_logins: 5, locked_until: 2000 }, 1999)).toBe(true);
    expect(isLocked({ failed_logins: 5, locked_until: 2000 }, 2000)).toBe(false);
  });
});
