/**
 * The spec's user-facing messages (monitoring-client 8, organisation-and-routes 8) and the
 * mapping from error names and codes to them. Pure: no React, no IO.
 */

export const NETWORK_MESSAGE = 'Unable to connect to the product. Please check your internet connection and try again.';
export const DEFAULT_MESSAGE = 'Something went wrong.';
/** The organisation's sensors could not be loaded (monitoring-client 3, 8): the sensors page, and the notifications page's sensor filter. */
export const SENSORS_LOAD_FAILED = 'Unable to load sensor information';

export const LOGIN_MESSAGES = {
  badCredentials: 'Incorrect email or password.',
  network: 'Login failed. Please check your internet connection and try again.',
  currentUser: 'Login failed. Please check your internet connection and ensure the date and time on your device is correct.',
  other: 'Login failed. Please contact support for more information.',
  passwordChanged: 'Password changed successfully. Please use the new password to login.',
  passwordsMustMatch: 'The two passwords must match',
  emailRequired: 'Email is required.',
  passwordRequired: 'Password is required.',
} as const;

/**
 * An invitation link's one-time code that can no longer set a first password (issue 35): the
 * server's NotAuthorizedException message, shown as it is on /accept and the login form.
 */
export const INVITE_LINK_MESSAGES = {
  used: 'This invitation link has already been used. Sign in with your email and password.',
  hasPassword: 'Your account already has a password. Sign in with your email and password to answer the invitation.',
  expired: "This invitation link has expired. Ask your organisation's admin to send the invitation again.",
  superseded: 'This invitation link was replaced by a newer one. Please use the link in the latest invitation email.',
  cancelled: 'This invitation has been cancelled.',
} as const;

const INVITE_LINK_TEXTS: readonly string[] = Object.values(INVITE_LINK_MESSAGES);

/** The sign-in's second step: the code of the user's authenticator app (TOTP MFA). */
export const MFA_MESSAGES = {
  codeFormat: 'Enter the 6-digit code from your authenticator app.',
  /** The sign-in's code step also takes a recovery code (a lost authenticator). */
  signInCodeFormat: 'Enter the 6-digit code from your authenticator app, or one of your recovery codes.',
  codeWrong: 'That code is not right. Enter the code your authenticator app shows now.',
  sessionExpired: 'The sign-in took too long. Please log in again.',
  tooManyAttempts: 'Too many attempts, please try again later',
} as const;

/**
 * The gateway's 403 REAUTHENTICATION_REQUIRED (making recovery codes, resetting a member's two-factor
 * authentication): the current password was not proved again on this sign-in within 5 minutes.
 */
export const REAUTHENTICATION_REQUIRED_MESSAGE = 'Confirm your current password first.';

export const RESET_MESSAGES = {
  unknownUser: 'There are no accounts with that email address',
  emailNotVerified: 'Unable to change password, please verify your email first',
  tooManyAttempts: 'Too many attempts, please try again later',
  codeFailed: 'Unable to send a verification code. Please try again later.',
  changeFailed: 'Change password failed. Please check your internet connection and try again.',
  codeMismatch: 'Invalid verification code provided, please try again.',
  codeExpired: 'The verification code has expired. Please request a new one.',
  codeNumeric: 'The code is the number in the email we sent you.',
} as const;

export const VERIFY_EMAIL_MESSAGES = {
  waiting: 'Verifying your email...',
  success: 'Your email has been verified. Taking you back to the app...',
  failure: 'Sorry, we cannot verify your email. Please make sure you have logged into the right account.',
  // the link of an email whose code a newer one replaced (the user asked for another code)
  superseded: 'This link was replaced by a newer one. Please use the link in the latest email we sent you.',
  sent: (email: string) => `A verification link has been sent to ${email}. Please click the link in the email to verify your address.`,
} as const;

export const METER_READER_MESSAGE =
  'Meter readers are not authorised to access data in the web app. Please contact your organisation admins.';

/** Gateway error codes with a message of their own; anything else reads DEFAULT_MESSAGE. */
const CODE_MESSAGES: Record<string, string> = {
  NETWORK_ERROR: NETWORK_MESSAGE,
  NOT_LOGGED_IN: 'User is not logged in',
  ALREADY_A_MEMBER: 'This user is already a member of your organisation.',
  NOTHING_UPDATED: 'Nothing is edited. Please edit something and submit again.',
  SOME_METERS_NOT_FOUND: 'Some meters do not exist, please make sure all the meters in the file has been previously imported.',
  SOME_METER_READINGS_NOT_FOUND:
    'Some meters do not have a history reading, please make sure all the meters in the file has been previously imported.',
  DUPLICATE_METERS:
    'Failed to import some file(s) as there are reading rows referring to the same property, please double check the file(s).',
  UNAUTHORIZED: 'User is not logged in',
  FORBIDDEN: 'You do not have permission to do this.',
  TOO_MANY_REQUESTS: 'Too many attempts, please try again later',
  INVALID_DATE_RANGE: 'The start of the date range must not be after its end.',
};

/** An error as the client meets it: an ApiError (code), an Amplify/Cognito error (name) or a fetch TypeError. */
export interface ErrorLike {
  name?: string;
  code?: string;
  message?: string;
}

const asErrorLike = (err: unknown): ErrorLike => (typeof err === 'object' && err !== null ? (err as ErrorLike) : { message: String(err) });

/** True when the error means the network, not the service, failed. */
export function isNetworkError(err: unknown): boolean {
  const e = asErrorLike(err);
  return e.name === 'NetworkError' || e.code === 'NETWORK_ERROR' || e.message === 'Failed to fetch' || (e.name === 'TypeError' && /fetch|network/i.test(e.message ?? ''));
}

/**
 * Gateway error -> the spec's user message ('Failed to fetch' reads as the connection message).
 * The one mapping for every error the client shows: a raw server body, a zod dump of an answer
 * that did not parse, or an unknown code all read DEFAULT_MESSAGE, never their own text.
 */
export function messageForError(err: unknown): string {
  const e = asErrorLike(err);
  if (isNetworkError(e)) return NETWORK_MESSAGE;
  if (e.code && CODE_MESSAGES[e.code]) return CODE_MESSAGES[e.code];
  return DEFAULT_MESSAGE;
}

/** Sign-in failure -> the login form's message (monitoring-client 8); a dead invitation link's code says why. */
export function loginErrorMessage(err: unknown): string {
  const e = asErrorLike(err);
  if (e.name === 'NotAuthorizedException' && INVITE_LINK_TEXTS.includes(e.message ?? '')) return e.message!;
  if (e.name === 'NotAuthorizedException' || e.name === 'UserNotFoundException') return LOGIN_MESSAGES.badCredentials;
  if (isNetworkError(e)) return LOGIN_MESSAGES.network;
  return LOGIN_MESSAGES.other;
}

/** Where a refused authenticator code leaves the sign-in: still at the code (wrong, offline) or back at the login form. */
export function mfaCodeError(err: unknown): { message: string; backToLogin: boolean } {
  const e = asErrorLike(err);
  // a wrong first code of an authenticator being set up is EnableSoftwareTokenMFAException
  if (e.name === 'CodeMismatchException' || e.name === 'EnableSoftwareTokenMFAException') return { message: MFA_MESSAGES.codeWrong, backToLogin: false };
  if (isNetworkError(e)) return { message: LOGIN_MESSAGES.network, backToLogin: false };
  if (e.name === 'TooManyRequestsException' || e.name === 'LimitExceededException' || (e.name === 'NotAuthorizedException' && e.message === 'Password attempts exceeded'))
    return { message: MFA_MESSAGES.tooManyAttempts, backToLogin: true };
  if (e.name === 'NotAuthorizedException') return { message: MFA_MESSAGES.sessionExpired, backToLogin: true };
  return { message: LOGIN_MESSAGES.other, backToLogin: true };
}

/** Requesting a reset code failed (organisation-and-routes 8, monitoring-client 8). */
export function resetCodeErrorMessage(err: unknown): string {
  const e = asErrorLike(err);
  if (e.name === 'UserNotFoundException') return RESET_MESSAGES.unknownUser;
  if (e.name === 'InvalidParameterException') return RESET_MESSAGES.emailNotVerified;
  if (e.name === 'LimitExceededException' || e.name === 'TooManyRequestsException') return RESET_MESSAGES.tooManyAttempts;
  if (isNetworkError(e)) return RESET_MESSAGES.changeFailed;
  return RESET_MESSAGES.codeFailed;
}

/** Confirming the new password failed: the code error is shown, otherwise the generic reset failure. */
export function resetConfirmErrorMessage(err: unknown): string {
  const e = asErrorLike(err);
  if (e.name === 'CodeMismatchException') return RESET_MESSAGES.codeMismatch;
  if (e.name === 'ExpiredCodeException') return RESET_MESSAGES.codeExpired;
  if (e.name === 'LimitExceededException' || e.name === 'TooManyRequestsException') return RESET_MESSAGES.tooManyAttempts;
  if (e.name === 'InvalidPasswordException' || e.name === 'InvalidParameterException') return e.message ?? RESET_MESSAGES.changeFailed;
  return RESET_MESSAGES.changeFailed;
}
