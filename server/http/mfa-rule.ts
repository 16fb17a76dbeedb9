import type { Config } from '../config';
import { one, type Queryable } from '../db/db';
import { HttpError } from './errors';

/**
 * MFA required by role: site admins must have multi-factor authentication, and an organisation's
 * owner may require it of the organisation's managers (admins and owners). Sign-in asks such a user
 * without it to set it up (the MFA_SETUP challenge); a session they already hold is refused the
 * organisation's data (and a site admin's powers) with 403 MFA_REQUIRED until it is on.
 *
 * The demo world's accounts have published passwords (README), so a second factor there protects
 * nothing: site admins need it everywhere but demo mode.
 */
export const siteAdminMfaRequired = (config: Pick<Config, 'DEMO_MODE'>) => !config.DEMO_MODE;

/**
 * SQL: true when the membership row aliased `m` is a manager's in an organisation that requires
 * MFA of its managers and the member has none on.
 */
export const mfaMissingSql = (m = 'm') =>
  `(${m}.role IN (2, 3) AND EXISTS (SELECT 1 FROM organisations mfa_o WHERE mfa_o.id = ${m}.org_id AND mfa_o.manager_mfa_required)
    AND NOT EXISTS (SELECT 1 FROM users mfa_u WHERE mfa_u.id = ${m}.user_id AND mfa_u.totp_enabled))`;

export const MFA_REQUIRED = 'MFA_REQUIRED';

export const mfaRequiredForManagers = () =>
  new HttpError(
    403,
    MFA_REQUIRED,
    'This organisation requires its managers to use two-factor authentication. Set it up in Account settings to open the organisation.',
  );

export const mfaRequiredForSiteAdmins = () =>
  new HttpError(403, MFA_REQUIRED, 'Site admins must use two-factor authentication. Set it up in Account settings to use site admin tools.');

/** Must this user have MFA on (a site admin, or a manager of an organisation that requires it)? */
export async function mfaRequiredFor(q: Queryable, config: Pick<Config, 'DEMO_MODE'>, user: { id: string; is_site_admin: boolean }): Promise<boolean> {
  if (user.is_site_admin && siteAdminMfaRequired(config)) return true;
  const row = await one(
    q,
    `SELECT 1 FROM memberships m JOIN organisations o ON o.id = m.org_id
      WHERE m.user_id = $1 AND m.role IN (2, 3) AND o.manager_mfa_required LIMIT 1`,
    [user.id],
  );
  return !!row;
}
