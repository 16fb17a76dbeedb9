import { describe, expect, it } from 'vitest';
import { INVITE_EXPIRY_MS, invitationStatus, isTooManyRequests, relativeTime, unassignNotice } from './org-settings';
import { checkInvite, checkMobile, emptyInvite } from './invite-form';

describe('invitation status (organisation-and-routes 4, 9: 90-day limit)', () => {
  const now = Date.UTC(2026, 10, 23);
  it("'Expired' without lastInviteAt or past the limit; otherwise when it expires", () => {
    expect(INVITE_EXPIRY_MS).toBe(7_776_000_000);
    expect(invitationStatus(null, now)).toEqual({ expired: true });
    expect(invitationStatus(now - INVITE_EXPIRY_MS - 1, now)).toEqual({ expired: true });
    expect(invitationStatus(now - INVITE_EXPIRY_MS, now)).toEqual({ expired: false, expiresAt: now });
    expect(invitationStatus(now - 86_400_000, now)).toEqual({ expired: false, expiresAt: now - 86_400_000 + INVITE_EXPIRY_MS });
  });
  it('the relative time reads in days, hours or minutes', () => {
    expect(relativeTime(now + 89 * 86_400_000, now)).toBe('in 89 days');
    expect(relativeTime(now + 5 * 3_600_000, now)).toBe('in 5 hours');
    expect(relativeTime(now + 30 * 60_000, now)).toBe('in 30 minutes');
  });
});

describe('resend refusal (organisation-and-routes 8)', () => {
  it('TOO_MANY_REQUESTS in the code or in the message', () => {
    expect(isTooManyRequests({ code: 'TOO_MANY_REQUESTS' })).toBe(true);
    expect(isTooManyRequests({ code: 'HTTP_429', message: 'TOO_MANY_REQUESTS: once every 10 minutes' })).toBe(true);
    expect(isTooManyRequests({ code: 'INTERNAL_ERROR', message: 'boom' })).toBe(false);
  });
});

describe('invite form rules (organisation-and-routes 5)', () => {
  it('mobile: supported countries only, NZ by default, E.164 out', () => {
    expect(checkMobile('', 'NZ')).toEqual({ kind: 'empty' });
    expect(checkMobile('021 555 0199', 'NZ')).toEqual({ kind: 'valid', e164: '+64215550199' });
    expect(checkMobile('0412 345 678', 'AU')).toEqual({ kind: 'valid', e164: '+61412345678' });
    expect(checkMobile('+33 6 12 34 56 78', 'NZ')).toEqual({ kind: 'invalid' });
    expect(checkMobile('abc', 'NZ')).toEqual({ kind: 'invalid' });
  });
  it('lower-cased email, trimmed name; meter reader only with meter reading', () => {
    const v = { ...emptyInvite(), email: ' Nia@Example.COM ', name: '  Nia  ', role: 4 as const };
    expect(checkInvite(v, true, false).request).toEqual({ email: 'nia@example.com', name: 'Nia', role: 4, mobile: null });
    expect(checkInvite(v, false, false).errors).toEqual({ role: 'Role is required.' });
    expect(checkInvite({ ...v, role: 1, mobile: 'abc' }, false, true).request?.mobile, 'a found account sends no mobile').toBeNull();
  });
});

describe('the unassigned route tasks a removal or a leave announces (issue 36)', () => {
  it('says how many when there are any, nothing when none, and a sentence without a number when unknown', () => {
    expect(unassignNotice(3, 'Their')).toBe('Their 3 unfinished route tasks will be unassigned.');
    expect(unassignNotice(1, 'Your')).toBe('Your 1 unfinished route task will be unassigned.');
    expect(unassignNotice(0, 'Their')).toBeNull();
    expect(unassignNotice(null, 'Your')).toBe('Your unfinished route tasks, if any, will be unassigned.');
  });
});
