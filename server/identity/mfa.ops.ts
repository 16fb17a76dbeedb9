import { errors } from './cognito-errors';
import { associateSoftwareTokenSchema, setUserMfaPreferenceSchema, verifySoftwareTokenSchema } from './cognito.schema';
import { findUserById, type UserRow } from './identity-users';
import { readChallengeSession, signChallengeSession } from './challenge-session';
import { MFA_SETUP, MFA_SETUP_VERIFIED } from './sign-in.ops';
import { mfaRequiredFor } from '../http/mfa-rule';
import { deleteRecoveryCodes } from './recovery-codes';
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

/**
 * Whose TOTP is being set up: the signed-in user of the access token, or, during a sign-in that
 * answered MFA_SETUP, the user of that challenge's Session (the password was given within its 3
 * minutes; a user who already has MFA on gets no such session).
 */
async function setupUser(op: OpContext, input: { AccessToken?: string; Session?: string }): Promise<{ user: UserRow; duringSignIn: boolean }> {
  if (input.AccessToken || !input.Session) return { user: await signedInUser(op, input.AccessToken), duringSignIn: false };
  const userId = await readChallengeSession(op.app.key, op.tokens.issuer, input.Session, MFA_SETUP, op.now);
  const user = userId ? await findUserById(op.app.db, userId) : undefined;
  if (!user || user.status !== 'CONFIRMED' || user.totp_enabled) throw errors.badSession();
  return { user, duringSignIn: true };
}

const setupSession = (op: OpContext, userId: string, challenge: string) => signChallengeSession(op.app.key, op.tokens.issuer, userId, challenge, op.now);

/**
 * A new secret, kept (sealed) as pending until VerifySoftwareToken proves the user's app has it.
 * During a sign-in, a new Session for the next step comes with it, as Cognito's does.
 */
export const associateSoftwareToken: Operation = async (op, body) => {
  const input = associateSoftwareTokenSchema.parse(body);
  const { user, duringSignIn } = await setupUser(op, input);
  const secret = newTotpSecret();
  await op.app.db.query('UPDATE users SET totp_pending = $2 WHERE id = $1', [user.id, await sealSecret(keys(op), secret)]);
  return duringSignIn ? { SecretCode: secret, Session: await setupSession(op, user.id, MFA_SETUP) } : { SecretCode: secret };
};

/**
 * The first right code makes the pending secret the user's; its time step is spent. During a
 * sign-in the answer's Session (MFA_SETUP_VERIFIED) is the one RespondToAuthChallenge's MFA_SETUP
 * needs: only a sign-in that proved the secret can finish it.
 */
export const verifySoftwareToken: Operation = async (op, body) => {
  const input = verifySoftwareTokenSchema.parse(body);
  const { user, duringSignIn } = await setupUser(op, input);
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
  return duringSignIn ? { Status: 'SUCCESS', Session: await setupSession(op, user.id, MFA_SETUP_VERIFIED) } : { Status: 'SUCCESS' };
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
    // a site admin, or a manager of an organisation that requires it, keeps the second factor
    if (await mfaRequiredFor(op.app.db, op.app.config, user)) throw errors.mfaRequired();
    await requireRecentReauthentication(op.app.db, user.id, user.signInId, op.now);
    await op.app.db.tx(async (q) => {
      await q.query('UPDATE users SET totp_enabled = false WHERE id = $1', [user.id]);
      await deleteRecoveryCodes(q, user.id);
      await queueSecurityNotice(q, user.email, op, 'mfa-off');
    });
  }
  return {};
};

/** GetUser's MFA fields, as Cognito names them (absent when no MFA is on). */
export const mfaFields = (u: { totp_enabled: boolean }) =>
  u.totp_enabled ? { PreferredMfaSetting: 'SOFTWARE_TOKEN_MFA', UserMFASettingList: ['SOFTWARE_TOKEN_MFA'] } : {};
