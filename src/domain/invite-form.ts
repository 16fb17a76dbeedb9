/**
 * The invite form's rules (organisation-and-routes 3, 5): Email, Name and Role required, the
 * email in a standard form and lower-cased, an optional mobile of a supported country. Pure.
 */
import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js';
import { ROLES } from '../contract/organisation.schema';
import type { InviteRequest } from '../contract/invitation.schema';
import { isNetworkError, NETWORK_MESSAGE } from './messages';
import { isEmail, NAME_MAX_LENGTH, normaliseEmail } from './sign-up-rules';

/** Supported mobile countries with their calling codes; NZ is the default. */
export const MOBILE_COUNTRIES: { code: CountryCode; name: string; dial: string }[] = [
  { code: 'NZ', name: 'New Zealand', dial: '+64' },
  { code: 'AU', name: 'Australia', dial: '+61' },
  { code: 'US', name: 'United States', dial: '+1' },
  { code: 'CA', name: 'Canada', dial: '+1' },
  { code: 'GB', name: 'United Kingdom', dial: '+44' },
  { code: 'IE', name: 'Ireland', dial: '+353' },
  { code: 'ZA', name: 'South Africa', dial: '+27' },
];
export const DEFAULT_MOBILE_COUNTRY: CountryCode = 'NZ';

export const INVITE_MESSAGES = {
  emailRequired: 'Email is required.',
  emailFormat: 'Please enter an email in the format name@example.com',
  nameRequired: 'Name is required.',
  nameTooLong: `Name cannot be more than ${NAME_MAX_LENGTH} characters.`,
  roleRequired: 'Role is required.',
  mobileInvalid: 'Please enter a valid phone number',
  mobileWarning: 'This mobile number might be invalid, please check.',
  alreadyMember: 'This user is already a member of your organisation.',
  alreadyInvited: 'The email already exists or have been invited',
  failed: 'Inviting the member failed. Please check your internet connection and try again.',
  /** The organisation's hourly limit of new invitations (issue 35; the server's 429 TOO_MANY_REQUESTS). */
  tooMany: 'Your organisation has sent too many invitations in the last hour. Please try again later.',
} as const;

export type InviteRole = 1 | 2 | 4;
export interface InviteValues {
  email: string;
  name: string;
  role: InviteRole | null;
  mobile: string;
  country: CountryCode;
}
export type InviteField = 'email' | 'name' | 'role' | 'mobile';
export type InviteErrors = Partial<Record<InviteField, string>>;

export const emptyInvite = (): InviteValues => ({ email: '', name: '', role: ROLES.MEMBER, mobile: '', country: DEFAULT_MOBILE_COUNTRY });

/** Roles offered: member (default), admin, and meter reader only with the meterReading feature. */
export const inviteRoles = (meterReading: boolean): { value: InviteRole; label: string }[] => [
  { value: ROLES.MEMBER, label: 'Member' },
  { value: ROLES.ADMIN, label: 'Admin' },
  ...(meterReading ? [{ value: ROLES.METER_READER as InviteRole, label: 'Meter Reader' }] : []),
];

/**
 * A mobile number read in the chosen country: 'empty', 'invalid' (not a phone number at all:
 * blocks the invite), 'doubtful' (a possible number the country's rules do not know: the soft
 * warning) or 'valid'. The E.164 form goes to the server.
 */
export function checkMobile(raw: string, country: CountryCode): { kind: 'empty' } | { kind: 'invalid' } | { kind: 'doubtful' | 'valid'; e164: string } {
  const text = raw.trim();
  if (!text) return { kind: 'empty' };
  const phone = parsePhoneNumberFromString(text, country);
  if (!phone || !phone.isPossible() || !MOBILE_COUNTRIES.some((c) => c.code === phone.country || (!phone.country && c.dial === `+${phone.countryCallingCode}`)))
    return { kind: 'invalid' };
  return { kind: phone.isValid() ? 'valid' : 'doubtful', e164: phone.number };
}

export const emailLooksValid = (raw: string) => isEmail(normaliseEmail(raw));

/** Every rule of the form; `found` means the email belongs to an existing account (mobile not sent). */
export function checkInvite(v: InviteValues, meterReading: boolean, found: boolean): { errors: InviteErrors; request: InviteRequest | null } {
  const errors: InviteErrors = {};
  const email = normaliseEmail(v.email);
  if (!email) errors.email = INVITE_MESSAGES.emailRequired;
  else if (!isEmail(email)) errors.email = INVITE_MESSAGES.emailFormat;
  const name = v.name.trim();
  if (!name) errors.name = INVITE_MESSAGES.nameRequired;
  else if (name.length > NAME_MAX_LENGTH) errors.name = INVITE_MESSAGES.nameTooLong;
  if (v.role === null || !inviteRoles(meterReading).some((r) => r.value === v.role)) errors.role = INVITE_MESSAGES.roleRequired;
  const mobile = found ? ({ kind: 'empty' } as const) : checkMobile(v.mobile, v.country);
  if (mobile.kind === 'invalid') errors.mobile = INVITE_MESSAGES.mobileInvalid;
  if (Object.keys(errors).length) return { errors, request: null };
  return { errors, request: { email, name, role: v.role!, mobile: 'e164' in mobile ? mobile.e164 : null } };
}

/** The red alert's text for a failed invite (organisation-and-routes 8). */
export function inviteFailure(err: unknown): string {
  const code = (err as { code?: string } | undefined)?.code;
  if (code === 'ALREADY_A_MEMBER') return INVITE_MESSAGES.alreadyMember;
  if (code === 'ALREADY_INVITED') return INVITE_MESSAGES.alreadyInvited;
  if (code === 'TOO_MANY_REQUESTS') return INVITE_MESSAGES.tooMany;
  if (isNetworkError(err)) return NETWORK_MESSAGE;
  return INVITE_MESSAGES.failed;
}
