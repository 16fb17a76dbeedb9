import { describe, expect, it } from 'vitest';
import { checkAccount, displayChange, mobileE164, splitMobile, USER_SETTINGS_MESSAGES } from './user-settings';

describe('account form rules (organisation-and-routes 5 "Account form")', () => {
  const current = { name: 'Mere Tane', mobile: '+64211234567' };
  it('nothing changed: no call (changes null), surrounding spaces included', () => {
    expect(checkAccount({ name: ' Mere Tane ', mobile: '021 123 4567', country: 'NZ' }, current)).toEqual({ ok: true, changes: null });
  });
  it('name required; only a changed, non-blank name is sent, trimmed', () => {
    expect(checkAccount({ name: '  ', mobile: '', country: 'NZ' }, current)).toMatchObject({ ok: false, errors: { name: expect.any(String) } });
    expect(checkAccount({ name: ' Mere T ', mobile: '021 123 4567', country: 'NZ' }, current)).toEqual({ ok: true, changes: { name: 'Mere T' } });
  });
  it("mobile must be valid in a supported country, else 'Invalid mobile phone number'; empty removes it", () => {
    expect(checkAccount({ name: 'Mere Tane', mobile: '12345', country: 'NZ' }, current)).toEqual({ ok: false, errors: { mobile: USER_SETTINGS_MESSAGES.invalidMobile } });
    expect(checkAccount({ name: 'Mere Tane', mobile: '+33 6 12 34 56 78', country: 'NZ' }, current)).toEqual({ ok: false, errors: { mobile: 'Invalid mobile phone number' } });
    expect(checkAccount({ name: 'Mere Tane', mobile: '0412 345 678', country: 'AU' }, current)).toEqual({ ok: true, changes: { mobile: '+61412345678' } });
    expect(checkAccount({ name: 'Mere Tane', mobile: '', country: 'NZ' }, current)).toEqual({ ok: true, changes: { mobile: null } });
  });
  it('a stored mobile splits into its country and national number; none defaults to NZ', () => {
    expect(splitMobile('+61412345678')).toEqual({ country: 'AU', number: '0412 345 678' });
    expect(splitMobile(null)).toEqual({ country: 'NZ', number: '' });
    expect(mobileE164(splitMobile('+447400123456').number, 'GB')).toBe('+447400123456');
  });
});

describe('display settings (organisation-and-routes 5: saved only if a valid value and changed)', () => {
  it('answers the new value, or null', () => {
    expect(displayChange('AmericanLocal', 'Friendly')).toBe('AmericanLocal');
    expect(displayChange('Friendly', 'Friendly')).toBeNull();
    expect(displayChange('Metric', 'Friendly')).toBeNull();
  });
});
