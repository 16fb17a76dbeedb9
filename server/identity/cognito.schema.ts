import { z } from 'zod';

/**
 * Request bodies of the Cognito user pool operations we implement, as aws-amplify v6 sends them.
 * Unknown keys (UserContextData, ClientMetadata, DeviceKey...) are accepted and ignored.
 */
const text = (max = 2048) => z.string().min(1).max(max);
const attributeList = z.array(z.object({ Name: text(64), Value: z.string().max(2048) })).max(50);

export const initiateAuthSchema = z.object({
  AuthFlow: text(64),
  ClientId: text(128),
  AuthParameters: z.record(z.string(), z.string()).default({}),
});

export const respondToAuthChallengeSchema = z.object({
  ChallengeName: text(64),
  ClientId: text(128),
  Session: text(4096),
  ChallengeResponses: z.record(z.string(), z.string()).default({}),
});

export const refreshSchema = z.object({ ClientId: text(128), RefreshToken: text(4096) });
export const revokeTokenSchema = z.object({ ClientId: text(128), Token: text(4096) });
export const accessTokenSchema = z.object({ AccessToken: text(4096) });

export const signUpSchema = z.object({
  ClientId: text(128),
  Username: text(256),
  Password: text(256),
  UserAttributes: attributeList.optional(),
});
export const confirmSignUpSchema = z.object({ ClientId: text(128), Username: text(256), ConfirmationCode: text(64) });
export const resendConfirmationCodeSchema = z.object({ ClientId: text(128), Username: text(256) });

export const forgotPasswordSchema = z.object({ ClientId: text(128), Username: text(256) });
export const confirmForgotPasswordSchema = z.object({
  ClientId: text(128),
  Username: text(256),
  ConfirmationCode: text(64),
  Password: text(256),
});
export const changePasswordSchema = z.object({ AccessToken: text(4096), PreviousPassword: text(256), ProposedPassword: text(256) });

export const updateUserAttributesSchema = z.object({ AccessToken: text(4096), UserAttributes: attributeList });
export const attributeCodeSchema = z.object({ AccessToken: text(4096), AttributeName: text(64) });
export const verifyUserAttributeSchema = z.object({ AccessToken: text(4096), AttributeName: text(64), Code: text(64) });

export const associateSoftwareTokenSchema = z.object({ AccessToken: text(4096).optional(), Session: text(4096).optional() });
export const verifySoftwareTokenSchema = z.object({
  AccessToken: text(4096).optional(),
  Session: text(4096).optional(),
  UserCode: text(16),
  FriendlyDeviceName: z.string().max(256).optional(),
});
const mfaSettings = z.object({ Enabled: z.boolean().optional(), PreferredMfa: z.boolean().optional() }).optional();
export const setUserMfaPreferenceSchema = z.object({
  AccessToken: text(4096),
  SMSMfaSettings: mfaSettings,
  SoftwareTokenMfaSettings: mfaSettings,
  EmailMfaSettings: mfaSettings,
});
