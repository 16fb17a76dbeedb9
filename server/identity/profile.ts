import { getCountryCallingCode, parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js';
import type { CurrentUser } from '../../src/contract/user.schema';
import type { UserRow } from './identity-users';

/** The users row as GET /users/current-v2 answers it. */
export const toCurrentUser = (u: UserRow): CurrentUser => ({
  cognitoIdentityId: u.id,
  email: u.email,
  name: u.name,
  mobile: u.mobile,
  emailVerified: u.email_verified,
  pendingEmail: u.pending_email,
  isSiteAdmin: u.is_site_admin,
  displaySettings: { timeDisplay: u.display_settings?.timeDisplay ?? 'Friendly' },
});

/** Countries whose mobile numbers the product supports (organisation-and-routes 5). */
export const MOBILE_COUNTRIES: CountryCode[] = ['NZ', 'AU', 'US', 'CA', 'GB', 'IE', 'ZA'];

/**
 * E.164 form of a supported mobile number, or null when it is not one. Local numbers are read as NZ.
 * `possible` also takes a number of the right shape that the numbering plan does not know: the
 * invite form lets one through with its soft warning, 'This mobile number might be invalid, please
 * check.' (organisation-and-routes 5), so the invite call must too.
 */
export function normaliseMobile(raw: string, opts: { possible?: boolean } = {}): string | null {
  const phone = parsePhoneNumberFromString(raw.trim(), 'NZ');
  if (!phone) return null;
  if (phone.isValid()) return phone.country && MOBILE_COUNTRIES.includes(phone.country) ? phone.number : null;
  const supported = phone.country ? MOBILE_COUNTRIES.includes(phone.country) : MOBILE_COUNTRIES.some((c) => getCountryCallingCode(c) === phone.countryCallingCode);
  return opts.possible && phone.isPossible() && supported ? phone.number : null;
}
