import { describe, expect, it } from 'vitest';
import { meetsPasswordPolicy, passwordPolicyViolation, passwordProblems } from './password-policy';

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
