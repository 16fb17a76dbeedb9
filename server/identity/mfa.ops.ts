import { errors } from './cognito-errors';
import { associateSoftwareTokenSchema, setUserMfaPreferenceSchema, verifySoftwareTokenSchema } from './cognito.schema';
import { findUserById } from './identity-users';
import { userFromAccessToken, type OpContext, type Operation } from './op-context';
import { requireRecentReauthentication } from './reauth';
import { codeStep, newTotpSecret, openSecret, sealSecret, spendStep } from './totp';
import { queueSecurityNotice } from './mail';

/**
 * Software token (TOTP) MFA as Cognito's user pool API offers it, for aws-amplify's setUpTOTP,
 * verifyTOTPSetup, updateMFAPreference and fetchMFAPreference. TOTP is the only factor offered,
 * so a user with it enabled has it as the preferred one.
 */
const keys = (op: OpContext) => ({ db: op.app.db, config: op.app.config });

async function signedInUser(op: OpContext, accessToken: string | undefined) {
  if (!accessToken) throw errors.invalidParameter('Missing required parameter AccessToken');
  return userFromAccessToken(op, accessToken);
}

/** A new secret, kept (sealed) as pending until VerifySoftwareToken proves the user's app has it. */
export const associateSoftwareToken: Operation = async (op, body) => {
  const input = associateSoftwareTokenSchema.parse(body);
  const user = await signedInUser(op, input.AccessToken);
  const secret = newTotpSecret();
  await op.app.db.query('UPDATE users SET totp_pending = $2 WHERE id = $1', [user.id, await sealSecret(keys(op), secret)]);
  return { SecretCode: secret };
};

/** The first right code makes the pending secret the user's; its time step is spent. */
export const verifySoftwareToken: Operation = async (op, body) => {
  const input = verifySoftwareTokenSchema.parse(body);
  const user = await signedInUser(op, input.AccessToken);
  if (!user.totp_pending) throw errors.noSoftwareToken();
  const secret = await openSecret(keys(op), user.totp_pending);
  const step = codeStep(secret, input.UserCode.trim(), op.now);
  if (step === null) throw errors.setupCodeMismatch();
  await op.app.db.tx(async (q) => {
    const u = await findUserById(q, user.id, true);
    if (u?.totp_pending !== user.totp_pending) throw errors.setupCodeMismatch(); // another setup began meanwhile
    if (!(await spendStep(q, user.id, step))) throw errors.setupCodeMismatch();
    await q.query('UPDATE users SET totp_secret = totp_pending, totp_pending = NULL WHERE id = $1', [user.id]);
  });
  return { Status: 'SUCCESS' };
};

/**
 * Turns TOTP MFA on (needs a verified secret) or off (needs a recent re-authentication of this
 * sign-in: a stolen session alone cannot remove the second factor). SMS and email MFA are not
 * offered; asking to turn them off is accepted, as it changes nothing.
 */
export const setUserMFAPreference: Operation = async (op, body) => {
  const input = setUserMfaPreferenceSchema.parse(body);
  const user = await signedInUser(op, input.AccessToken);
  if (input.SMSMfaSettings?.Enabled || input.SMSMfaSettings?.PreferredMfa) throw errors.mfaTypeNotOffered('SMS MFA');
  if (input.EmailMfaSettings?.Enabled || input.EmailMfaSettings?.PreferredMfa) throw errors.mfaTypeNotOffered('Email MFA');
  const totp = input.SoftwareTokenMfaSettings;
  if (!totp || totp.Enabled === undefined) return {};
  if (totp.Enabled) {
    if (!user.totp_secret) throw errors.totpNotVerified();
    if (!user.totp_enabled)
      await op.app.db.tx(async (q) => {
        await q.query('UPDATE users SET totp_enabled = true WHERE id = $1', [user.id]);
        await queueSecurityNotice(q, user.email, op, 'mfa-on');
      });
  } else if (user.totp_enabled) {
    await requireRecentReauthentication(op.app.db, user.id, user.signInId, op.now);
    await op.app.db.tx(async (q) => {
      await q.query('UPDATE users SET totp_enabled = false WHERE id = $1', [user.id]);
      await queueSecurityNotice(q, user.email, op, 'mfa-off');
    });
  }
  return {};
};

/** GetUser's MFA fields, as Cognito names them (absent when no MFA is on). */
export const mfaFields = (u: { totp_enabled: boolean }) =>
  u.totp_enabled ? { PreferredMfaSetting: 'SOFTWARE_TOKEN_MFA', UserMFASettingList: ['SOFTWARE_TOKEN_MFA'] } : {};
