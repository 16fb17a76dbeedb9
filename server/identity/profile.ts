import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js';
import type { CurrentUser } from '../../src/contract/user.schema';
import type { UserRow } from './identity-users';

/** The users row as GET /users/current-v2 answers it. */
export const toCurrentUser = (u: UserRow): CurrentUser => ({
  cognitoIdentityId: u.id,
  email: u.email,
  name: u.name,
  mobile: u.mobile,
  emailVerified: u.email_verified,
  isSiteAdmin: u.is_site_admin,
  displaySettings: { timeDisplay: u.display_settings?.timeDisplay ?? 'Friendly' },
});

/** Countries whose mobile numbers the product supports (organisation-and-routes 5). */
export const MOBILE_COUNTRIES: CountryCode[] = ['NZ', 'AU', 'US', 'CA', 'GB', 'IE', 'ZA'];

/** E.164 form of a supported mobile number, or null when it is not one. Local numbers are read as NZ. */
export function normaliseMobile(raw: string): string | null {
  const phone = parsePhoneNumberFromString(raw.trim(), 'NZ');
  if (!phone || !phone.isValid() || !phone.country || !MOBILE_COUNTRIES.includes(phone.country)) return null;
  return phone.number;
}
