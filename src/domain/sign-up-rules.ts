import { PASSWORD_POLICY_MESSAGE } from './password-messages';

/**
 * The sign-up checks of the spec (monitoring-client 5, organisation-and-routes 5), each returning
 * the spec's error kind. The wizard runs them step by step and shows the first failure; the
 * server runs the same checks on POST /signup and /claim-sensor.
 */
export type SignUpErrorCode =
  | 'INVALID_SERIAL'
  | 'INVALID_CLAIM_CODE'
  | 'INVALID_EMAIL'
  | 'INVALID_EMAIL_CONFIRMATION'
  | 'INVALID_PASSWORD'
  | 'INVALID_PASSWORD_CONFIRMATION'
  | 'INVALID_NAME'
  | 'INVALID_ORG_NAME'
  | 'UNKNOWN_ERROR';

export interface RuleError {
  code: SignUpErrorCode;
  message: string;
}
/** A normalised value, or the first thing wrong with it. */
export type RuleResult = { ok: true; value: string } | { ok: false; error: RuleError };

export const NAME_MAX_LENGTH = 60;
export const ORG_NAME_MAX_LENGTH = 100;

export const SIGN_UP_MESSAGES = {
  serialRequired: 'Serial is required.',
  serialInvalid: 'Serial must be 6 or 8 characters of 0-9 and A-F.',
  claimCodeRequired: 'Claim code is required.',
  claimCodeInvalid: 'Invalid claim code. Please check the serial and claim code on your sensor.',
  emailRequired: 'Email is required.',
  emailInvalid: 'Please enter a valid email address.',
  emailExists: 'An account with this email already exists.',
  emailConfirmation: 'The two emails must match',
  passwordRequired: 'Password is required.',
  passwordPolicy: PASSWORD_POLICY_MESSAGE,
  passwordConfirmation: 'The two passwords must match',
  nameRequired: 'Name is required.',
  nameTooLong: `Name cannot be more than ${NAME_MAX_LENGTH} characters.`,
  orgNameTooShort: 'Name too short',
  orgNameTooLong: 'Name too long',
  orgNameSymbols: "Only the following symbols are allowed: '.-",
  orgNameLetter: 'Must contain at least 1 letter',
  /** the extra organisation-name check (monitoring-client 7), made by the server */
  orgNameTaken: 'An organisation with this name already exists. Please choose another name.',
} as const;

export const ok = (value: string): RuleResult => ({ ok: true, value });
export const fail = (code: SignUpErrorCode, message: string): RuleResult => ({ ok: false, error: { code, message } });

const SERIAL = /^(?:[0-9A-F]{6}|[0-9A-F]{8})$/;
const CLAIM_CODE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
// Deliberately simple: one @, no spaces, a dot in the domain; the verification email proves the rest.
const EMAIL = /^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)+$/;

export const normaliseSerial = (raw: string) => raw.trim().toUpperCase();
export const normaliseClaimCode = (raw: string) => raw.trim().toLowerCase();
export const normaliseEmail = (raw: string) => raw.trim().toLowerCase();

/** Sensor serial: trimmed, upper-cased, 6 or 8 hex characters. */
export function checkSerial(raw: string): RuleResult {
  const serial = normaliseSerial(raw);
  if (!serial) return fail('INVALID_SERIAL', SIGN_UP_MESSAGES.serialRequired);
  return SERIAL.test(serial) ? ok(serial) : fail('INVALID_SERIAL', SIGN_UP_MESSAGES.serialInvalid);
}

/** Claim code: trimmed, lower-cased, 8-4-4-4-12 hex groups. */
export function checkClaimCode(raw: string): RuleResult {
  const code = normaliseClaimCode(raw);
  if (!code) return fail('INVALID_CLAIM_CODE', SIGN_UP_MESSAGES.claimCodeRequired);
  return CLAIM_CODE.test(code) ? ok(code) : fail('INVALID_CLAIM_CODE', SIGN_UP_MESSAGES.claimCodeInvalid);
}

export const isEmail = (raw: string) => raw.length <= 254 && EMAIL.test(raw.trim());

/** Email: trimmed, lower-cased, a standard address. */
export function checkEmail(raw: string): RuleResult {
  const email = normaliseEmail(raw);
  if (!email) return fail('INVALID_EMAIL', SIGN_UP_MESSAGES.emailRequired);
  return isEmail(email) ? ok(email) : fail('INVALID_EMAIL', SIGN_UP_MESSAGES.emailInvalid);
}

/** Confirm email equals email (compared as they will be stored). */
export function checkEmailConfirmation(email: string, confirmation: string): RuleResult {
  return normaliseEmail(email) === normaliseEmail(confirmation)
    ? ok(normaliseEmail(confirmation))
    : fail('INVALID_EMAIL_CONFIRMATION', SIGN_UP_MESSAGES.emailConfirmation);
}

export function checkPasswordConfirmation(password: string, confirmation: string): RuleResult {
  return password === confirmation ? ok(confirmation) : fail('INVALID_PASSWORD_CONFIRMATION', SIGN_UP_MESSAGES.passwordConfirmation);
}

/** Person's name: non-blank, at most 60 characters once trimmed. */
export function checkName(raw: string): RuleResult {
  const name = raw.trim();
  if (!name) return fail('INVALID_NAME', SIGN_UP_MESSAGES.nameRequired);
  return name.length <= NAME_MAX_LENGTH ? ok(name) : fail('INVALID_NAME', SIGN_UP_MESSAGES.nameTooLong);
}

/** Organisation name: 1-100 characters; letters, digits, apostrophe, hyphen, period, space; a letter. */
export function checkOrganisationName(raw: string): RuleResult {
  const name = raw.trim();
  if (name.length < 1) return fail('INVALID_ORG_NAME', SIGN_UP_MESSAGES.orgNameTooShort);
  if (name.length > ORG_NAME_MAX_LENGTH) return fail('INVALID_ORG_NAME', SIGN_UP_MESSAGES.orgNameTooLong);
  if (!/^[\p{L}\p{M}\p{N}'.\- ]+$/u.test(name)) return fail('INVALID_ORG_NAME', SIGN_UP_MESSAGES.orgNameSymbols);
  if (!/\p{L}/u.test(name)) return fail('INVALID_ORG_NAME', SIGN_UP_MESSAGES.orgNameLetter);
  return ok(name);
}

/** Runs checks in order and returns the first failure, or every normalised value. */
export function firstFailure<K extends string>(checks: [K, () => RuleResult][]): { ok: true; value: Record<K, string> } | { ok: false; error: RuleError } {
  const value = {} as Record<K, string>;
  for (const [key, check] of checks) {
    const result = check();
    if (!result.ok) return result;
    value[key] = result.value;
  }
  return { ok: true, value };
}

/** Wizard step 1: claim a sensor. */
export const checkClaimStep = (input: { serial: string; claimCode: string }) =>
  firstFailure<'serial' | 'claimCode'>([
    ['serial', () => checkSerial(input.serial)],
    ['claimCode', () => checkClaimCode(input.claimCode)],
  ]);

/** Wizard step 2: account details. */
export const checkAccountStep = (input: { name: string; organisationName: string }) =>
  firstFailure<'name' | 'organisationName'>([
    ['name', () => checkName(input.name)],
    ['organisationName', () => checkOrganisationName(input.organisationName)],
  ]);
