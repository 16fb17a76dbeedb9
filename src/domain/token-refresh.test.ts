import { describe, expect, it } from 'vitest';
import { credentialsRefreshDue } from './token-refresh';

describe('credentials refresh (monitoring-client 9: within 60 s of expiry)', () => {
  const iat = 1_800_000_000;
  const token = { iat, exp: iat + 3600 };
  const at = (secondsAfterIssue: number) => (iat + secondsAfterIssue) * 1000;

  it('a token with more than 60 s left is kept; at 60 s or less it is refreshed', () => {
    expect(credentialsRefreshDue(token, at(0))).toBe(false);
    expect(credentialsRefreshDue(token, at(3539))).toBe(false);
    expect(credentialsRefreshDue(token, at(3540))).toBe(true);
    expect(credentialsRefreshDue(token, at(3595))).toBe(true); // where Amplify's own 5 s margin would still use it
    expect(credentialsRefreshDue(token, at(4000))).toBe(true);
  });
  it('counts on the server clock: a device 2 minutes slow still refreshes in time', () => {
    const slow = -120_000; // the device reads 2 minutes earlier than the server
    expect(credentialsRefreshDue(token, at(3540) + slow, 120_000)).toBe(true);
    expect(credentialsRefreshDue(token, at(3540) + slow, 0)).toBe(false);
  });
  it('a short-lived token is refreshed at half its life, not on every call', () => {
    const short = { iat, exp: iat + 90 };
    expect(credentialsRefreshDue(short, at(10))).toBe(false);
    expect(credentialsRefreshDue(short, at(45))).toBe(true);
  });
});
