/**
 * Organisation settings rules and messages (organisation-and-routes 2.1, 4, 5, 8). Pure: no
 * React, no IO. Where the spec says a text exists but does not show it, the wording is ours.
 */
import { ROLES, type Role } from '../contract/organisation.schema';
import { REAUTHENTICATION_REQUIRED_MESSAGE } from './messages';

export const ORG_SETTINGS_MESSAGES = {
  // texts not shown by the spec (section 8 "Organisation update")
  detailsUpdated: 'Organisation details updated.',
  detailsFailed: 'Updating the organisation failed. Please check your internet connection and try again later.',
  removeConfirm: 'Are you sure you want to remove this member?',
  cancelConfirm: 'Are you sure you want to cancel this invitation?',
  resendTooMany: 'Too many attempts: an invitation can be sent at most once every 10 minutes. Please try again later.',
  resendFailed: 'Resending the invitation failed. Please check your internet connection and try again later.',
  resendSent: (email: string) => `The invitation has been sent to ${email} again.`,
  testSent: 'Test notification has been sent.',
  testFailed: 'Send test notification failed. Please check your internet connection and try again.',
  changeSettingsFailed: 'Change settings failed. Please check your internet connection and try again later.',
  alreadyMember: 'This user is already a member of your organisation.',
  alreadyInvited: 'The email already exists or have been invited',
} as const;

/**
 * What the Remove (whose 'Their') and Leave (whose 'Your') confirmations add about the member's
 * unfinished route tasks, which the removal or the leave unassigns (issue 36): the number when
 * there are any, nothing when there are none, and a sentence without a number when it could not
 * be read (null).
 */
export function unassignNotice(count: number | null, whose: 'Their' | 'Your'): string | null {
  if (count === null) return `${whose} unfinished route tasks, if any, will be unassigned.`;
  if (count <= 0) return null;
  return `${whose} ${count} unfinished route ${count === 1 ? 'task' : 'tasks'} will be unassigned.`;
}

/** Invite expiry limit (organisation-and-routes 9): 90 days. */
export const INVITE_EXPIRY_MS = 7_776_000_000;

export const ROLE_LABELS: Record<Role, string> = {
  [ROLES.NO_ROLE]: 'No Role',
  [ROLES.MEMBER]: 'Member',
  [ROLES.ADMIN]: 'Admin',
  [ROLES.OWNER]: 'Owner',
  [ROLES.METER_READER]: 'Meter Reader',
};

export const isManager = (role: Role) => role === ROLES.ADMIN || role === ROLES.OWNER;

/**
 * Whether the Integration section shows, and with which parts: managers only; with the REST API
 * parts (organisation id, key, token, documentation) when the organisation has a REST API
 * (organisation-and-routes 2.1), and without them when it has none but has a Sigfox or Myriota
 * sensor, whose network's console needs the radio callbacks (docs/decisions.md). Where it shows,
 * the radio callbacks always do. Null: hidden.
 */
export function integrationParts(isManagerHere: boolean, org: { restApi?: unknown; radioNetworkSensors?: boolean }): { restApi: boolean } | null {
  if (!isManagerHere) return null;
  if (org.restApi) return { restApi: true };
  return org.radioNetworkSensors ? { restApi: false } : null;
}

/** The radios whose network's cloud calls Tidewatch with the organisation's callback secret. */
export const needsRadioCallbacks = (radio: { type: string }) => radio.type === 'sigfox' || radio.type === 'myriota';

/**
 * The organisation's record says it has no Sigfox or Myriota sensor, but the sensor just added (or
 * given such a radio) is one: the record is stale, and re-read, so a manager finds the radio
 * callbacks in Integration without a reload (docs/decisions.md).
 */
export const radioFlagStale = (org: { radioNetworkSensors?: boolean }, sensor: { radio: { type: string } }) => !org.radioNetworkSensors && needsRadioCallbacks(sensor.radio);

/**
 * The Integration section is hidden from this manager only because the record says the
 * organisation has no Sigfox or Myriota sensor: opening the settings re-reads the record, which may
 * be stale (a sensor claimed in another tab, a radio changed). Members never see the section, and
 * an organisation with a REST API always shows it to managers: neither is re-read.
 */
export const integrationMayAppear = (isManagerHere: boolean, org: { restApi?: unknown; radioNetworkSensors?: boolean }) => isManagerHere && integrationParts(isManagerHere, org) === null;

/** The member-list actions (organisation-and-routes 2.1, 4; resetMfa: issue 35). */
export type MemberAction = 'makeAdmin' | 'makeMeterReader' | 'changeToMember' | 'remove' | 'resend' | 'cancelInvite' | 'resetMfa';
export const MEMBER_ACTION_LABELS: Record<MemberAction, string> = {
  makeAdmin: 'Make Admin',
  makeMeterReader: 'Make Meter Reader',
  changeToMember: 'Change to Member',
  remove: 'Remove',
  resend: 'Resend Invitation',
  cancelInvite: 'Cancel Invitation',
  resetMfa: 'Reset two-factor authentication',
};
/** The role a role-change action gives. */
export const ACTION_ROLE: Partial<Record<MemberAction, 1 | 2 | 4>> = { makeAdmin: ROLES.ADMIN, makeMeterReader: ROLES.METER_READER, changeToMember: ROLES.MEMBER };

export interface MemberRow {
  name: string;
  email: string;
  role: Role;
  status: 'Active' | 'Invited';
  cognitoIdentityId: string | null;
  lastInviteAt: number | null;
  /** Two-factor authentication on; the list tells only the owner and site admins (absent otherwise). */
  mfaEnabled?: boolean;
}
export interface Viewer {
  /** The signed-in user's identity id and email. */
  selfId: string;
  selfEmail: string;
  role: Role;
  meterReading: boolean;
  /** A site admin may reset anyone's two-factor authentication, whatever their role here. */
  siteAdmin: boolean;
}

const isOwnRow = (m: MemberRow, v: Viewer) => m.cognitoIdentityId === v.selfId || (m.status === 'Active' && m.email.toLowerCase() === v.selfEmail.toLowerCase());

/**
 * What a viewer may do to a row: managers only, never on their own row; an invitation can be
 * resent or cancelled; a member can become admin (or meter reader with meter reading), an admin or
 * meter reader can become member; anyone but the owner can be removed; the owner's role is fixed.
 * The owner and site admins may also reset the two-factor authentication of an active member who
 * has it on (issue 35), never their own.
 */
export function memberActions(m: MemberRow, v: Viewer): MemberAction[] {
  if (isOwnRow(m, v)) return [];
  const resetMfa: MemberAction[] = (v.role === ROLES.OWNER || v.siteAdmin) && m.status === 'Active' && m.mfaEnabled === true ? ['resetMfa'] : [];
  return [...managerActions(m, v), ...resetMfa];
}

function managerActions(m: MemberRow, v: Viewer): MemberAction[] {
  if (!isManager(v.role)) return [];
  if (m.status === 'Invited') return ['resend', 'cancelInvite'];
  if (m.role === ROLES.OWNER) return [];
  if (m.role === ROLES.MEMBER) return v.meterReading ? ['makeAdmin', 'makeMeterReader', 'remove'] : ['makeAdmin', 'remove'];
  if (m.role === ROLES.ADMIN || m.role === ROLES.METER_READER) return ['changeToMember', 'remove'];
  return ['remove'];
}

/** 'Expired', or when a pending invitation stops working (organisation-and-routes 4). */
export function invitationStatus(lastInviteAt: number | null, now: number): { expired: true } | { expired: false; expiresAt: number } {
  if (lastInviteAt === null || lastInviteAt + INVITE_EXPIRY_MS < now) return { expired: true };
  return { expired: false, expiresAt: lastInviteAt + INVITE_EXPIRY_MS };
}

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
];
/** 'in 89 days', 'in 5 hours': the relative time of the invitation's expiry. */
export function relativeTime(at: number, now: number): string {
  const fmt = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
  const diff = at - now;
  for (const [unit, ms] of UNITS) if (Math.abs(diff) >= ms) return fmt.format(Math.round(diff / ms), unit);
  return fmt.format(Math.round(diff / 60_000), 'minute');
}

/**
 * Reset two-factor authentication (issue 35): what the confirmation says happens, and the
 * refusals of POST .../members/{memberId}/reset-mfa by code, in the server's words (the route
 * answers with these texts).
 */
export const MFA_RESET_MESSAGES = {
  confirm:
    'Reset this member\'s two-factor authentication? Their authenticator app and recovery codes stop working at once. At their next sign-in they must set up an authenticator again where their role requires one; otherwise the password alone signs them in until they turn it on again. They will get an email saying you did this.',
  done: (who: string) => `The two-factor authentication of ${who} has been reset.`,
  failed: 'Resetting two-factor authentication failed. Please check your internet connection and try again later.',
  refused: {
    FORBIDDEN: 'You do not have permission to do this.',
    ORGANISATION_NOT_FOUND: 'Organisation not found.',
    MEMBER_NOT_FOUND: 'This person is not a member of the organisation.',
    SITE_ADMIN_PROTECTED: 'Only a site admin can reset the two-factor authentication of a site admin.',
    CANNOT_ACT_ON_SELF: 'Turn your own two-factor authentication off in Account settings.',
    MFA_NOT_SET_UP: 'This member has no two-factor authentication to reset.',
    REAUTHENTICATION_REQUIRED: REAUTHENTICATION_REQUIRED_MESSAGE,
  },
} as const;

/** The notices of the member actions; those the spec does not show are ours. */
export const memberActionNotice = {
  done(action: MemberAction, m: Pick<MemberRow, 'name' | 'email'>): string {
    const who = m.name.trim() || m.email;
    if (action === 'resetMfa') return MFA_RESET_MESSAGES.done(who);
    if (action === 'resend') return ORG_SETTINGS_MESSAGES.resendSent(m.email);
    if (action === 'cancelInvite') return `The invitation to ${m.email} has been cancelled.`;
    if (action === 'remove') return `${who} has been removed from the organisation.`;
    return `${who} is now ${ROLE_LABELS[ACTION_ROLE[action]!].toLowerCase()}.`;
  },
  /** `error`: the gateway's refusal, whose code names the reset's reason (the other actions keep their one message). */
  failed(action: MemberAction, tooManyRequests: boolean, error?: unknown): string {
    if (action === 'resetMfa') {
      const code = (error as { code?: unknown } | undefined)?.code;
      return typeof code === 'string' && Object.hasOwn(MFA_RESET_MESSAGES.refused, code) ? (MFA_RESET_MESSAGES.refused as Record<string, string>)[code]! : MFA_RESET_MESSAGES.failed;
    }
    if (action === 'resend') return tooManyRequests ? ORG_SETTINGS_MESSAGES.resendTooMany : ORG_SETTINGS_MESSAGES.resendFailed;
    if (action === 'cancelInvite') return 'Cancelling the invitation failed. Please check your internet connection and try again later.';
    if (action === 'remove') return 'Removing the member failed. Please check your internet connection and try again later.';
    return 'Changing the role failed. Please check your internet connection and try again later.';
  },
};

/** Resend's once-per-10-minutes refusal: the error's code or message carries TOO_MANY_REQUESTS (organisation-and-routes 8). */
export function isTooManyRequests(err: unknown): boolean {
  const e = err as { code?: string; message?: string } | undefined;
  return e?.code === 'TOO_MANY_REQUESTS' || !!e?.message?.includes('TOO_MANY_REQUESTS');
}
