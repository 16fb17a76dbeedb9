import { describe, expect, it } from 'vitest';
import { COMMON_PASSWORD_MESSAGE, CONTROL_CHARACTER_MESSAGE, meetsPasswordPolicy, passwordFormMessage, passwordPolicyViolation, passwordProblems } from './password-policy';
import { checkPassword } from './sign-up-password';

// organisation-and-routes 5 / 9: at least 8 characters with lowercase, uppercase, numeric and symbol.
describe('password policy', () => {
  it('accepts the demo password and other passwords with every character class', () => {
    expect(meetsPasswordPolicy('Demo-pass-2026!')).toBe(true);
    expect(meetsPasswordPolicy('aB3$aaaa')).toBe(true);
    expect(meetsPasswordPolicy('Ünïcode 9 ok!')).toBe(true);
  });

  it('needs at least 8 characters', () => {
    expect(passwordProblems('aB3$aaa')).toEqual(['too-short']);
  });

  it('names each missing character class', () => {
    expect(passwordProblems('AB3$AAAA')).toEqual(['no-lowercase']);
    expect(passwordProblems('ab3$aaaa')).toEqual(['no-uppercase']);
    expect(passwordProblems('aBc$aaaa')).toEqual(['no-digit']);
    expect(passwordProblems('aB3aaaaa')).toEqual(['no-symbol']);
    expect(passwordProblems('')).toEqual(['too-short', 'no-lowercase', 'no-uppercase', 'no-digit', 'no-symbol']);
  });

  it('does not count a space as the symbol', () => {
    expect(meetsPasswordPolicy('aB3 aaaa')).toBe(false);
  });

  it("words the identity service's answer like Cognito's InvalidPasswordException", () => {
    expect(passwordPolicyViolation('short1!')).toBe('Password did not conform with policy: Password not long enough');
    expect(passwordPolicyViolation('nouppercase1!')).toBe('Password did not conform with policy: Password must have uppercase characters');
    expect(passwordPolicyViolation('Demo-pass-2026!')).toBeNull();
  });
});

describe('common passwords and control characters (issue 9)', () => {
  it('refuses the commonest passwords, also dressed up with digits and symbols', () => {
    for (const p of ['Password1!', 'P@ssw0rd1', 'Qwerty123!', 'Summer2026!', '!Letmein99', 'Welcome1!'])
      expect(passwordProblems(p), p).toEqual(['common']);
    expect(passwordPolicyViolation('Password1!')).toBe('Password did not conform with policy: Password is too common');
    expect(passwordFormMessage('Password1!')).toBe(COMMON_PASSWORD_MESSAGE);
    expect(checkPassword('Password1!')).toMatchObject({ ok: false, error: { message: COMMON_PASSWORD_MESSAGE } });
  });
  it('keeps passphrase-like passwords', () => {
    for (const p of ['Demo-pass-2026!', 'Tidewatch-River-7!', 'Own-choice-2026!']) expect(passwordProblems(p), p).toEqual([]);
  });
  it('refuses control characters', () => {
    expect(passwordProblems('Good-pass-2026!\u0000')).toEqual(['control-character']);
    expect(passwordProblems('Good-pass\n2026!')).toEqual(['control-character']);
    expect(passwordFormMessage('Good-pass\t2026!')).toBe(CONTROL_CHARACTER_MESSAGE);
  });
});
