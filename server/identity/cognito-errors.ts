/**
 * Errors in Cognito's shape: HTTP 400 with `{ "__type": name, "message": ... }`. aws-amplify reads the
 * name from `__type` and the client maps it to the spec's messages exactly as against AWS.
 */
export type CognitoErrorName =
  | 'NotAuthorizedException'
  | 'UserNotFoundException'
  | 'UserNotConfirmedException'
  | 'UsernameExistsException'
  | 'AliasExistsException'
  | 'InvalidPasswordException'
  | 'CodeMismatchException'
  | 'ExpiredCodeException'
  | 'LimitExceededException'
  | 'TooManyRequestsException'
  | 'InvalidParameterException'
  | 'PasswordResetRequiredException'
  | 'ResourceNotFoundException'
  | 'UnsupportedTokenTypeException'
  | 'UnknownOperationException'
  | 'EnableSoftwareTokenMFAException'
  | 'SoftwareTokenMFANotFoundException'
  // ours, not Cognito's (docs/decisions.md): a code that a newer one replaced
  | 'CodeSupersededException';

export class CognitoError extends Error {
  constructor(
    readonly type: CognitoErrorName,
    message: string,
  ) {
    super(message);
  }
}

const err = (type: CognitoErrorName, message: string) => new CognitoError(type, message);

/** The messages AWS uses, so logs and clients read the same as in production. */
export const errors = {
  badCredentials: () => err('NotAuthorizedException', 'Incorrect username or password.'),
  lockedOut: () => err('NotAuthorizedException', 'Password attempts exceeded'),
  tempPasswordExpired: () => err('NotAuthorizedException', 'Temporary password has expired and must be reset by an administrator.'),
  // an invitation link's one-time code that can no longer set a first password (ours, with why: INVITE_LINK_MESSAGES)
  invitationLink: (message: string) => err('NotAuthorizedException', message),
  badSession: () => err('NotAuthorizedException', 'Invalid session for the user, session is expired.'),
  badRefreshToken: () => err('NotAuthorizedException', 'Invalid Refresh Token'),
  expiredRefreshToken: () => err('NotAuthorizedException', 'Refresh Token has expired'),
  revokedRefreshToken: () => err('NotAuthorizedException', 'Refresh Token has been revoked'),
  badAccessToken: () => err('NotAuthorizedException', 'Invalid Access Token'),
  expiredAccessToken: () => err('NotAuthorizedException', 'Access Token has expired'),
  revokedAccessToken: () => err('NotAuthorizedException', 'Access Token has been revoked'),
  notConfirmed: () => err('UserNotConfirmedException', 'User is not confirmed.'),
  usernameExists: () => err('UsernameExistsException', 'An account with the given email already exists.'),
  aliasExists: () => err('AliasExistsException', 'An account with the given email already exists.'),
  userNotFound: () => err('UserNotFoundException', 'Username/client id combination not found.'),
  codeMismatch: () => err('CodeMismatchException', 'Invalid verification code provided, please try again.'),
  codeExpired: () => err('ExpiredCodeException', 'Invalid code provided, please request a code again.'),
  // not one of Cognito's: a code the user's own later request replaced (its link in an older email)
  codeSuperseded: () => err('CodeSupersededException', 'This code was replaced by a newer one. Please use the code in the latest email.'),
  tooManyRequests: () => err('TooManyRequestsException', 'Too many requests. Please try again later.'),
  attemptLimit: () => err('LimitExceededException', 'Attempt limit exceeded, please try after some time.'),
  invalidPassword: (message: string) => err('InvalidPasswordException', message),
  invalidParameter: (message: string) => err('InvalidParameterException', message),
  unknownClient: (clientId: string) => err('ResourceNotFoundException', `User pool client ${clientId} does not exist.`),
  unsupportedToken: () => err('UnsupportedTokenTypeException', 'The token is not a valid refresh token.'),
  setupCodeMismatch: () => err('EnableSoftwareTokenMFAException', 'Code mismatch and fail enable Software Token MFA'),
  mfaCodeMismatch: () => err('CodeMismatchException', 'Invalid code received for user'),
  noSoftwareToken: () => err('SoftwareTokenMFANotFoundException', 'Software Token MFA has not been set up for the user.'),
  totpNotVerified: () => err('InvalidParameterException', 'User has not verified software token mfa'),
  mfaRequired: () =>
    err('InvalidParameterException', 'Two-factor authentication is required for this account (a site admin, or a manager of an organisation that requires it); it cannot be turned off.'),
  mfaTypeNotOffered: (type: string) => err('InvalidParameterException', `${type} is not offered by this user pool; only software token (TOTP) MFA is.`),
  // Cognito's answer when the pool allows administrators only to create users (AllowAdminCreateUserOnly)
  signUpNotPermitted: () => err('NotAuthorizedException', 'SignUp is not permitted for this user pool.'),
  reauthenticationRequired: () => err('NotAuthorizedException', 'Confirm your current password first (re-authentication required).'),
  unknownOperation: (op: string) => err('UnknownOperationException', `Unknown operation ${op}`),
};
