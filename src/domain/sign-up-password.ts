import { passwordFormMessage } from './password-policy';
import {
  SIGN_UP_MESSAGES,
  checkClaimCode,
  checkEmail,
  checkEmailConfirmation,
  checkName,
  checkOrganisationName,
  checkPasswordConfirmation,
  checkSerial,
  fail,
  firstFailure,
  ok,
  type RuleResult,
} from './sign-up-rules';

// The sign-up checks that apply the password policy, and with it the common-password list
// (password-policy.ts): apart from sign-up-rules.ts so that only the wizard's credentials step
// and the server load the list, not every form that checks a name or an email.

/** Password: present and meeting the policy (never trimmed: spaces are part of a password). */
export function checkPassword(password: string): RuleResult {
  if (!password) return fail('INVALID_PASSWORD', SIGN_UP_MESSAGES.passwordRequired);
  const message = passwordFormMessage(password);
  return message ? fail('INVALID_PASSWORD', message) : ok(password);
}

/** Wizard step 3: email, confirm email, password, confirm password. */
export const checkCredentialsStep = (input: { email: string; confirmEmail: string; password: string; confirmPassword: string }) =>
  firstFailure<'email' | 'confirmEmail' | 'password' | 'confirmPassword'>([
    ['email', () => checkEmail(input.email)],
    ['confirmEmail', () => checkEmailConfirmation(input.email, input.confirmEmail)],
    ['password', () => checkPassword(input.password)],
    ['confirmPassword', () => checkPasswordConfirmation(input.password, input.confirmPassword)],
  ]);

/** The server's check of a whole POST /signup body, in the wizard's order. */
export const checkSignUp = (input: { serial: string; claimCode: string; name: string; organisationName: string; email: string; password: string }) =>
  firstFailure<'serial' | 'claimCode' | 'name' | 'organisationName' | 'email' | 'password'>([
    ['serial', () => checkSerial(input.serial)],
    ['claimCode', () => checkClaimCode(input.claimCode)],
    ['name', () => checkName(input.name)],
    ['organisationName', () => checkOrganisationName(input.organisationName)],
    ['email', () => checkEmail(input.email)],
    ['password', () => checkPassword(input.password)],
  ]);
