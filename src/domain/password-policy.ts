import { isCommonPassword } from './common-passwords';
import { COMMON_PASSWORD_MESSAGE, CONTROL_CHARACTER_MESSAGE, PASSWORD_POLICY_MESSAGE } from './password-messages';

export { COMMON_PASSWORD_MESSAGE, CONTROL_CHARACTER_MESSAGE, PASSWORD_POLICY_MESSAGE };

/**
 * The password policy of sign-up, settings and the identity service (spec: at least 8 characters
 * with lowercase, uppercase, numeric and symbol characters). Shared by client and server so the
 * form and the identity endpoint can never disagree.
 */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 256;

export type PasswordProblem = 'too-short' | 'too-long' | 'no-lowercase' | 'no-uppercase' | 'no-digit' | 'no-symbol' | 'control-character' | 'common';

// Cognito counts these as symbols; we also accept any other non-alphanumeric, non-space character.
const SYMBOL = /[^\p{L}\p{N}\s]/u;

/** Every way a password falls short of the policy, in the order a user should fix them. */
export function passwordProblems(password: string): PasswordProblem[] {
  const problems: PasswordProblem[] = [];
  if (password.length < PASSWORD_MIN_LENGTH) problems.push('too-short');
  if (password.length > PASSWORD_MAX_LENGTH) problems.push('too-long');
  if (!/\p{Ll}/u.test(password)) problems.push('no-lowercase');
  if (!/\p{Lu}/u.test(password)) problems.push('no-uppercase');
  if (!/\p{N}/u.test(password)) problems.push('no-digit');
  if (!SYMBOL.test(password)) problems.push('no-symbol');
  // a control character cannot be typed back reliably (and has no place in a secret we log around)
  if (/\p{Cc}/u.test(password)) problems.push('control-character');
  // beyond the composition rules: the passwords an attacker tries first are refused
  if (!problems.length && isCommonPassword(password)) problems.push('common');
  return problems;
}

export const meetsPasswordPolicy = (password: string) => passwordProblems(password).length === 0;


/** The form message for a password, or null when it is fine: the same rule the server applies. */
export function passwordFormMessage(password: string): string | null {
  const problems = passwordProblems(password);
  if (!problems.length) return null;
  if (problems.includes('control-character')) return CONTROL_CHARACTER_MESSAGE;
  if (problems[0] === 'common') return COMMON_PASSWORD_MESSAGE;
  return PASSWORD_POLICY_MESSAGE;
}

// The identity service's wording (Cognito's InvalidPasswordException messages).
const SERVICE_MESSAGES: Record<PasswordProblem, string> = {
  'too-short': 'Password not long enough',
  'too-long': 'Password is too long',
  'no-lowercase': 'Password must have lowercase characters',
  'no-uppercase': 'Password must have uppercase characters',
  'no-digit': 'Password must have numeric characters',
  'no-symbol': 'Password must have symbol characters',
  'control-character': 'Password must not contain control characters',
  common: 'Password is too common',
};

/** Cognito-style "Password did not conform with policy: ..." message, or null when the password is fine. */
export function passwordPolicyViolation(password: string): string | null {
  const [first] = passwordProblems(password);
  return first ? `Password did not conform with policy: ${SERVICE_MESSAGES[first]}` : null;
}
