import { describe, expect, it } from 'vitest';
import {
  SIGN_UP_MESSAGES,
  checkAccountStep,
  checkClaimCode,
  checkClaimStep,
  checkEmail,
  checkEmailConfirmation,
  checkName,
  checkOrganisationName,
  checkPasswordConfirmation,
  checkSerial,
} from './sign-up-rules';
import { checkCredentialsStep, checkPassword, checkSignUp } from './sign-up-password';

const codeOf = (r: { ok: boolean; error?: { code: string } }) => (r.ok ? 'OK' : r.error?.code);

describe('sensor serial (monitoring-client 5: trimmed, upper-cased, 6 or 8 hex)', () => {
  it('normalises and accepts 6 and 8 hex characters', () => {
    expect(checkSerial('  c0ffee01 ')).toEqual({ ok: true, value: 'C0FFEE01' });
    expect(checkSerial('a3b4c5')).toEqual({ ok: true, value: 'A3B4C5' });
  });
  it('rejects empty, wrong length and non-hex with INVALID_SERIAL', () => {
    expect(checkSerial('   ')).toEqual({ ok: false, error: { code: 'INVALID_SERIAL', message: SIGN_UP_MESSAGES.serialRequired } });
    for (const bad of ['C0FFE', 'C0FFEE0', 'C0FFEE011', 'G0FFEE01', 'C0FF EE01']) expect(codeOf(checkSerial(bad))).toBe('INVALID_SERIAL');
    expect(checkSerial('C0FFEE0')).toEqual({ ok: false, error: { code: 'INVALID_SERIAL', message: SIGN_UP_MESSAGES.serialInvalid } });
  });
});

describe('claim code (monitoring-client 5: trimmed, lower-cased, 8-4-4-4-12 hex)', () => {
  it('normalises and accepts the format', () => {
    expect(checkClaimCode(' C0FFEE01-0000-4000-8000-000000000001\n')).toEqual({ ok: true, value: 'c0ffee01-0000-4000-8000-000000000001' });
  });
  it('rejects empty and malformed codes with INVALID_CLAIM_CODE', () => {
    expect(checkClaimCode('')).toEqual({ ok: false, error: { code: 'INVALID_CLAIM_CODE', message: SIGN_UP_MESSAGES.claimCodeRequired } });
    for (const bad of ['c0ffee01000040008000000000000001', 'c0ffee01-0000-4000-8000-00000000001', 'z0ffee01-0000-4000-8000-000000000001'])
      expect(codeOf(checkClaimCode(bad))).toBe('INVALID_CLAIM_CODE');
  });
});

describe('email and confirmations (monitoring-client 5: sign-up step 3)', () => {
  it('lower-cases a valid email', () => {
    expect(checkEmail(' New.User@Example.COM ')).toEqual({ ok: true, value: 'new.user@example.com' });
  });
  it('rejects missing and malformed emails with INVALID_EMAIL', () => {
    for (const bad of ['', 'user', 'user@', '@example.com', 'user@example', 'us er@example.com', 'a@b@c.com']) expect(codeOf(checkEmail(bad))).toBe('INVALID_EMAIL');
  });
  it('confirm email must equal email, ignoring case and surrounding spaces', () => {
    expect(codeOf(checkEmailConfirmation('a@b.co', ' A@B.co'))).toBe('OK');
    expect(checkEmailConfirmation('a@b.co', 'a@b.com')).toEqual({ ok: false, error: { code: 'INVALID_EMAIL_CONFIRMATION', message: 'The two emails must match' } });
  });
  it('password must meet the policy and the confirmation must match exactly', () => {
    expect(checkPassword('')).toEqual({ ok: false, error: { code: 'INVALID_PASSWORD', message: SIGN_UP_MESSAGES.passwordRequired } });
    expect(codeOf(checkPassword('password'))).toBe('INVALID_PASSWORD');
    expect(checkPassword(' Demo-pass-2026! ')).toEqual({ ok: true, value: ' Demo-pass-2026! ' });
    expect(checkPasswordConfirmation('Demo-pass-2026!', 'Demo-pass-2026')).toEqual({
      ok: false,
      error: { code: 'INVALID_PASSWORD_CONFIRMATION', message: 'The two passwords must match' },
    });
  });
});

describe('names (monitoring-client 5 step 2; organisation-and-routes 5 organisation name)', () => {
  it('name is non-blank and at most 60 characters', () => {
    expect(checkName('  Ana  ')).toEqual({ ok: true, value: 'Ana' });
    expect(codeOf(checkName('   '))).toBe('INVALID_NAME');
    expect(codeOf(checkName('x'.repeat(60)))).toBe('OK');
    expect(checkName('x'.repeat(61))).toEqual({ ok: false, error: { code: 'INVALID_NAME', message: 'Name cannot be more than 60 characters.' } });
  });
  it('organisation name gives each of the spec messages', () => {
    const msg = (s: string) => {
      const r = checkOrganisationName(s);
      return r.ok ? r.value : `${r.error.code}: ${r.error.message}`;
    };
    expect(msg("  O'Brien-Smith Farms Ltd. 2 ")).toBe("O'Brien-Smith Farms Ltd. 2");
    expect(msg('Ngāti Whātua')).toBe('Ngāti Whātua');
    expect(msg('   ')).toBe('INVALID_ORG_NAME: Name too short');
    expect(msg('a'.repeat(100))).toBe('a'.repeat(100));
    expect(msg('a'.repeat(101))).toBe('INVALID_ORG_NAME: Name too long');
    expect(msg('Acme & Sons')).toBe("INVALID_ORG_NAME: Only the following symbols are allowed: '.-");
    expect(msg('123 - 456')).toBe('INVALID_ORG_NAME: Must contain at least 1 letter');
  });
});

describe('step checks run in order and report the first failure (monitoring-client 4)', () => {
  it('claim step', () => {
    expect(codeOf(checkClaimStep({ serial: 'bad', claimCode: 'bad' }))).toBe('INVALID_SERIAL');
    expect(checkClaimStep({ serial: 'c0ffee01', claimCode: 'C0FFEE01-0000-4000-8000-000000000001' })).toEqual({
      ok: true,
      value: { serial: 'C0FFEE01', claimCode: 'c0ffee01-0000-4000-8000-000000000001' },
    });
  });
  it('account step', () => {
    expect(codeOf(checkAccountStep({ name: '', organisationName: '' }))).toBe('INVALID_NAME');
    expect(codeOf(checkAccountStep({ name: 'Ana', organisationName: '!' }))).toBe('INVALID_ORG_NAME');
  });
  it('credentials step', () => {
    const good = { email: 'a@b.co', confirmEmail: 'a@b.co', password: 'Demo-pass-2026!', confirmPassword: 'Demo-pass-2026!' };
    expect(codeOf(checkCredentialsStep(good))).toBe('OK');
    expect(codeOf(checkCredentialsStep({ ...good, email: 'x', confirmEmail: 'y' }))).toBe('INVALID_EMAIL');
    expect(codeOf(checkCredentialsStep({ ...good, confirmEmail: 'c@d.co', password: '' }))).toBe('INVALID_EMAIL_CONFIRMATION');
    expect(codeOf(checkCredentialsStep({ ...good, password: 'weak', confirmPassword: 'x' }))).toBe('INVALID_PASSWORD');
    expect(codeOf(checkCredentialsStep({ ...good, confirmPassword: 'x' }))).toBe('INVALID_PASSWORD_CONFIRMATION');
  });
  it('the whole sign-up body as the server checks it', () => {
    const body = { serial: 'c0ffee01', claimCode: 'c0ffee01-0000-4000-8000-000000000001', name: 'Ana', organisationName: 'Acme', email: 'A@B.co', password: 'Demo-pass-2026!' };
    expect(checkSignUp(body)).toEqual({ ok: true, value: { ...body, serial: 'C0FFEE01', email: 'a@b.co' } });
    expect(codeOf(checkSignUp({ ...body, name: '', email: 'bad' }))).toBe('INVALID_NAME');
  });
});
