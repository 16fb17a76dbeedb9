import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js';
import { checkName } from './sign-up-rules';
import type { TimeDisplay } from './time-format';

/**
 * The signed-in user's settings (organisation-and-routes 2.2, 5 "Account form", 8). Pure: no
 * React, no IO. Where the spec says a notice exists but does not show its text, the wording is ours.
 */
export const USER_SETTINGS_MESSAGES = {
  invalidMobile: 'Invalid mobile phone number',
  // spelling as in the product (spec 8)
  displayFailed: 'Updating user settings failed. Pleaes check your internet connection and try again later.',
  displayUpdated: 'User settings updated.',
  accountUpdated: 'Your account details have been updated.',
  noChanges: 'Nothing has changed, so nothing was saved.',
  accountFailed: (serverMessage: string) => `Updating your account failed: ${serverMessage}`,
  emailChangeSent: (email: string) => `A verification link was sent to ${email}. Click it to make it your sign-in email; until then you keep signing in with your current address.`,
  left: (name: string) => `You have left organisation ${name}.`,
  leaveFailed: (name: string) => `Leaving ${name} failed. Please check your internet connection and try again.`,
  unverified: 'Your email address is not verified, so alert emails may not reach you. Verify it from the profile menu.',
  mfaOn: 'Two-factor authentication is on. Signing in asks for a code from your authenticator app.',
  mfaOff: 'Two-factor authentication is off. Turn it on so that a stolen password alone cannot open your account.',
  mfaTurnedOn: 'Two-factor authentication is on.',
  mfaTurnedOff: 'Two-factor authentication is off.',
  mfaCodeWrong: 'That code is not right. Enter the code your authenticator app shows now.',
  mfaCodeFormat: 'Enter the 6-digit code from your authenticator app.',
  passwordWrong: 'Incorrect password.',
  passwordRequired: 'Enter your current password.',
} as const;

/** Spec 9: the supported mobile countries, NZ first (the default). */
export const MOBILE_COUNTRIES: { code: CountryCode; label: string }[] = [
  { code: 'NZ', label: 'New Zealand (+64)' },
  { code: 'AU', label: 'Australia (+61)' },
  { code: 'US', label: 'United States (+1)' },
  { code: 'CA', label: 'Canada (+1)' },
  { code: 'GB', label: 'United Kingdom (+44)' },
  { code: 'IE', label: 'Ireland (+353)' },
  { code: 'ZA', label: 'South Africa (+27)' },
];
const SUPPORTED = new Set(MOBILE_COUNTRIES.map((c) => c.code));

/** A typed mobile in E.164, or null when it is not a valid number of a supported country. */
export function mobileE164(raw: string, country: CountryCode): string | null {
  const phone = parsePhoneNumberFromString(raw.trim(), country);
  return phone && phone.isValid() && phone.country && SUPPORTED.has(phone.country) ? phone.number : null;
}

/** The country and national number of a stored mobile, for the form (NZ when there is none). */
export function splitMobile(e164: string | null): { country: CountryCode; number: string } {
  const phone = e164 ? parsePhoneNumberFromString(e164) : undefined;
  if (phone?.country && SUPPORTED.has(phone.country)) return { country: phone.country, number: phone.formatNational() };
  return { country: 'NZ', number: e164 ?? '' };
}

export interface AccountForm {
  name: string;
  mobile: string;
  country: CountryCode;
}

export type AccountCheck =
  | { ok: false; errors: { name?: string; mobile?: string } }
  | { ok: true; changes: { name?: string; mobile?: string | null } | null };

/**
 * Spec 5: name required and updated only if non-blank and changed; mobile valid or empty (which
 * removes it); `changes` null when nothing changed (a notice, and no call).
 */
export function checkAccount(form: AccountForm, current: { name: string; mobile: string | null }): AccountCheck {
  const errors: { name?: string; mobile?: string } = {};
  const name = checkName(form.name);
  if (!name.ok) errors.name = name.error.message;
  let mobile: string | null = null;
  if (form.mobile.trim()) {
    mobile = mobileE164(form.mobile, form.country);
    if (!mobile) errors.mobile = USER_SETTINGS_MESSAGES.invalidMobile;
  }
  if (errors.name || errors.mobile) return { ok: false, errors };
  const changes: { name?: string; mobile?: string | null } = {};
  if (name.ok && name.value !== current.name) changes.name = name.value;
  if (mobile !== (current.mobile ?? null)) changes.mobile = mobile;
  return { ok: true, changes: Object.keys(changes).length ? changes : null };
}

/** Spec 5: display settings are saved only if the value is one of the two and differs. */
export const TIME_DISPLAYS: { value: TimeDisplay; label: string }[] = [
  { value: 'Friendly', label: 'Friendly' },
  { value: 'AmericanLocal', label: 'American (local)' },
];
export const displayChange = (value: string, current: TimeDisplay): TimeDisplay | null =>
  TIME_DISPLAYS.some((d) => d.value === value) && value !== current ? (value as TimeDisplay) : null;
