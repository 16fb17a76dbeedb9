import { hashPassword, dummyHash, verifyPassword } from './passwords';
import { passwordPolicyViolation } from '../../src/domain/password-policy';
import { errors } from './cognito-errors';
import { initiateAuthSchema, refreshSchema, respondToAuthChallengeSchema, revokeTokenSchema, accessTokenSchema } from './cognito.schema';
import { findUserById, findUserByUsername, tokenUser, type UserRow } from './identity-users';
import { FREE_FAILURES, isLocked, recordFailure, recordSuccess } from './lockout';
import { queueSecurityNotice } from './mail';
import { recordUnknownFailure, unknownIsLocked } from './unknown-lockout';
import { readChallengeClaims, readChallengeSession, signChallengeSession } from './challenge-session';
import { temporaryPasswordUsable } from './invitations';
import { invitationTokenSignIn, spendInvitationToken } from './invitation-tokens';
import { issueTokens, revokeSignIns, TokenError, verifyToken } from './tokens';
import { requireClient, userFromAccessToken, type OpContext, type Operation } from './op-context';
import { checkName } from '../../src/domain/sign-up-rules';
import { codeStep, openSecret, spendStep } from './totp';
import { mfaRequiredFor } from '../http/mfa-rule';
import { looksLikeRecoveryCode, spendRecoveryCode } from './recovery-codes';

const NEW_PASSWORD_REQUIRED = 'NEW_PASSWORD_REQUIRED';
const SOFTWARE_TOKEN_MFA = 'SOFTWARE_TOKEN_MFA';
/**
 * Cognito's challenge for a user who must have MFA and has none: AssociateSoftwareToken and
 * VerifySoftwareToken take its Session instead of an access token (mfa.ops.ts), and the session
 * VerifySoftwareToken hands back (MFA_SETUP_VERIFIED, ours) answers it with RespondToAuthChallenge.
 */
export const MFA_SETUP = 'MFA_SETUP';
export const MFA_SETUP_VERIFIED = 'MFA_SETUP_VERIFIED';

/** Amplify reads the tokens from AuthenticationResult; it must carry no NewDeviceMetadata. */
async function authenticated(op: OpContext, user: UserRow) {
  const t = await issueTokens(op.app.db, op.app.key, op.tokens, tokenUser(user));
  return { AuthenticationResult: t, ChallengeParameters: {} };
}

/**
 * USER_PASSWORD_AUTH. Every answer costs one scrypt run, and an unknown username is counted and
 * locked out like a real account (unknown-lockout.ts), so neither the answer ('Incorrect
 * username or password.' or 'Password attempts exceeded') nor its timing tells whether an
 * account exists.
 */
async function passwordAuth(op: OpContext, params: Record<string, string>) {
  const username = params.USERNAME;
  const password = params.PASSWORD;
  if (!username) throw errors.invalidParameter('Missing required parameter USERNAME');
  if (!password) throw errors.invalidParameter('Missing required parameter PASSWORD');
  const { db } = op.app;
  const user = await findUserByUsername(db, username);
  if (!user) {
    const locked = await unknownIsLocked(db, username, op.now);
    await verifyPassword(password, await dummyHash());
    await invitationTokenSignIn(db, undefined, password, op.now); // the look-up an account's wrong password costs
    if (locked) throw errors.lockedOut();
    await recordUnknownFailure(db, username, op.now);
    throw errors.badCredentials();
  }
  if (isLocked(user, op.now)) {
    // the same work as any other answer: a locked account must not answer faster
    await verifyPassword(password, await dummyHash());
    throw errors.lockedOut();
  }
  if (!(await verifyPassword(password, user.password_hash))) {
    // an invitation link's one-time code: the first password is chosen next (or why it cannot be)
    const invitationToken = await invitationTokenSignIn(db, user, password, op.now);
    if (invitationToken) return newPasswordChallenge(op, user, { tok: invitationToken });
    await recordFailure(db, user.id, op.now);
    throw errors.badCredentials();
  }
  // with MFA on, the password alone is not a success: the failure count (which the code's wrong
  // tries add to) must not start again each time the password is given
  if (!mfaOn(user)) await recordSuccess(db, user.id);
  // each sign-in adds a refresh token row; the user's expired ones are of no further use
  await db.query('DELETE FROM refresh_tokens WHERE user_id = $1 AND expires_at < $2', [user.id, op.now]);
  if (user.status === 'UNCONFIRMED') throw errors.notConfirmed();
  if (user.status === 'FORCE_CHANGE_PASSWORD') {
    if (!(await temporaryPasswordUsable(db, user.id, op.now))) throw errors.tempPasswordExpired();
    return newPasswordChallenge(op, user);
  }
  if (mfaOn(user)) {
    return {
      ChallengeName: SOFTWARE_TOKEN_MFA,
      Session: await signChallengeSession(op.app.key, op.tokens.issuer, user.id, SOFTWARE_TOKEN_MFA, op.now),
      ChallengeParameters: { USER_ID_FOR_SRP: user.id },
    };
  }
  if (await mfaRequiredFor(db, op.app.config, user)) return mfaSetupChallenge(op, user);
  await noticeAfterLockout(op, user);
  return authenticated(op, user);
}

/**
 * The account must choose its first password: after the temporary password `npm run create-user`
 * printed, or an invitation link's token (`tok`, its hash: the answer spends it and accepts that invitation).
 */
async function newPasswordChallenge(op: OpContext, user: UserRow, extra: { tok?: string } = {}) {
  return {
    ChallengeName: NEW_PASSWORD_REQUIRED,
    Session: await signChallengeSession(op.app.key, op.tokens.issuer, user.id, NEW_PASSWORD_REQUIRED, op.now, extra),
    ChallengeParameters: {
      USER_ID_FOR_SRP: user.id,
      requiredAttributes: '[]',
      userAttributes: JSON.stringify({ email: user.email, email_verified: String(user.email_verified), name: user.name }),
    },
  };
}

/** A site admin, or a manager of an organisation that requires it, without MFA: no tokens until TOTP is set up. */
async function mfaSetupChallenge(op: OpContext, user: UserRow) {
  return {
    ChallengeName: MFA_SETUP,
    Session: await signChallengeSession(op.app.key, op.tokens.issuer, user.id, MFA_SETUP, op.now),
    ChallengeParameters: { MFAS_CAN_SETUP: '["SOFTWARE_TOKEN_MFA"]' },
  };
}

/**
 * MFA_SETUP answered: VerifySoftwareToken proved the new secret within this sign-in (its session
 * says so), so TOTP is turned on and the sign-in completes.
 */
async function mfaSetupComplete(op: OpContext, session: string, responses: Record<string, string>) {
  const userId = await readChallengeSession(op.app.key, op.tokens.issuer, session, MFA_SETUP_VERIFIED, op.now);
  if (!userId) throw errors.badSession();
  const { db } = op.app;
  const named = responses.USERNAME ? await findUserByUsername(db, responses.USERNAME) : undefined;
  if (!named || named.id !== userId || named.status !== 'CONFIRMED' || !named.totp_secret) throw errors.badSession();
  if (isLocked(named, op.now)) throw errors.lockedOut();
  const user = await db.tx(async (q) => {
    const u = await findUserById(q, userId, true);
    if (!u?.totp_secret) throw errors.badSession();
    if (!u.totp_enabled) {
      await q.query('UPDATE users SET totp_enabled = true WHERE id = $1', [userId]);
      await queueSecurityNotice(q, u.email, op, 'mfa-on');
    }
    return (await findUserById(q, userId))!;
  });
  await recordSuccess(db, user.id);
  await noticeAfterLockout(op, named);
  return authenticated(op, user);
}

const mfaOn = (u: UserRow) => u.totp_enabled && !!u.totp_secret;

/** A sign-in that succeeds after the account was locked by failed attempts tells its owner (a security notice). */
async function noticeAfterLockout(op: OpContext, user: UserRow) {
  if (user.failed_logins > FREE_FAILURES) await queueSecurityNotice(op.app.db, user.email, op, 'signed-in-after-lockout');
}

/**
 * SOFTWARE_TOKEN_MFA: the code from the user's authenticator app, within the 3-minute session the
 * password opened, or one of the user's recovery codes (a lost authenticator; each works once and
 * its use is told to the account's address). Wrong codes count in the sign-in lockout like wrong
 * passwords; a code (its time step) is accepted once.
 */
async function softwareTokenChallenge(op: OpContext, session: string, responses: Record<string, string>) {
  const userId = await readChallengeSession(op.app.key, op.tokens.issuer, session, SOFTWARE_TOKEN_MFA, op.now);
  if (!userId) throw errors.badSession();
  const { db } = op.app;
  const named = responses.USERNAME ? await findUserByUsername(db, responses.USERNAME) : undefined;
  if (!named || named.id !== userId || named.status !== 'CONFIRMED' || !mfaOn(named)) throw errors.badSession();
  if (isLocked(named, op.now)) throw errors.lockedOut();
  const code = responses.SOFTWARE_TOKEN_MFA_CODE?.trim();
  if (!code) throw errors.invalidParameter('Missing required parameter SOFTWARE_TOKEN_MFA_CODE');
  if (looksLikeRecoveryCode(code)) {
    const spent = await db.tx(async (q) => {
      if (!(await spendRecoveryCode(q, named.id, code, op.now))) return false;
      await queueSecurityNotice(q, named.email, op, 'recovery-code-used');
      return true;
    });
    if (!spent) {
      await recordFailure(db, named.id, op.now);
      throw errors.mfaCodeMismatch();
    }
    await recordSuccess(db, named.id);
    await noticeAfterLockout(op, named);
    return authenticated(op, named);
  }
  const step = codeStep(await openSecret({ db, config: op.app.config }, named.totp_secret!), code, op.now);
  if (step === null || !(await spendStep(db, named.id, step))) {
    await recordFailure(db, named.id, op.now);
    throw errors.mfaCodeMismatch();
  }
  await recordSuccess(db, named.id);
  await noticeAfterLockout(op, named);
  return authenticated(op, named);
}

/** New ID and access tokens from a refresh token, in the same sign-in (same origin_jti). */
async function refresh(op: OpContext, clientId: string, refreshToken: string) {
  requireClient(op, clientId);
  let claims;
  try {
    claims = await verifyToken(op.app.db, op.app.key, op.tokens, refreshToken, 'refresh');
  } catch (err) {
    if (!(err instanceof TokenError)) throw err;
    if (err.reason === 'expired') throw errors.expiredRefreshToken();
    if (err.reason === 'revoked') throw errors.revokedRefreshToken();
    throw errors.badRefreshToken();
  }
  if (claims.client_id !== clientId) throw errors.badRefreshToken();
  const user = await findUserById(op.app.db, claims.sub);
  if (!user || user.status !== 'CONFIRMED') throw errors.badRefreshToken();
  const { IdToken, AccessToken, ExpiresIn, TokenType } = await issueTokens(op.app.db, op.app.key, op.tokens, tokenUser(user), String(claims.jti));
  return { AuthenticationResult: { IdToken, AccessToken, ExpiresIn, TokenType }, ChallengeParameters: {} };
}

export const initiateAuth: Operation = async (op, body) => {
  const input = initiateAuthSchema.parse(body);
  requireClient(op, input.ClientId);
  switch (input.AuthFlow) {
    case 'USER_PASSWORD_AUTH':
      return passwordAuth(op, input.AuthParameters);
    case 'REFRESH_TOKEN_AUTH':
    case 'REFRESH_TOKEN': {
      const token = input.AuthParameters.REFRESH_TOKEN;
      if (!token) throw errors.invalidParameter('Missing required parameter REFRESH_TOKEN');
      return refresh(op, input.ClientId, token);
    }
    default:
      throw errors.invalidParameter(`${input.AuthFlow} flow is not enabled for this client.`);
  }
};

export const getTokensFromRefreshToken: Operation = async (op, body) => {
  const input = refreshSchema.parse(body);
  const { AuthenticationResult } = await refresh(op, input.ClientId, input.RefreshToken);
  return { AuthenticationResult };
};

/**
 * SOFTWARE_TOKEN_MFA and MFA_SETUP (above), or NEW_PASSWORD_REQUIRED: the user chooses a first
 * password and is confirmed; from an invitation link, its token is spent and the user joins that
 * invitation's organisation only (any other invitation waits for its answer in the app).
 */
export const respondToAuthChallenge: Operation = async (op, body) => {
  const input = respondToAuthChallengeSchema.parse(body);
  requireClient(op, input.ClientId);
  if (input.ChallengeName === SOFTWARE_TOKEN_MFA) return softwareTokenChallenge(op, input.Session, input.ChallengeResponses);
  if (input.ChallengeName === MFA_SETUP) return mfaSetupComplete(op, input.Session, input.ChallengeResponses);
  if (input.ChallengeName !== NEW_PASSWORD_REQUIRED) throw errors.invalidParameter(`Unsupported challenge ${input.ChallengeName}.`);
  const claims = await readChallengeClaims(op.app.key, op.tokens.issuer, input.Session, NEW_PASSWORD_REQUIRED, op.now);
  if (!claims) throw errors.badSession();
  const userId = claims.sub;
  const invitationToken = typeof claims.tok === 'string' ? claims.tok : undefined;
  const responses = input.ChallengeResponses;
  const named = responses.USERNAME ? await findUserByUsername(op.app.db, responses.USERNAME) : undefined;
  if (!named || named.id !== userId) throw errors.badSession();
  const newPassword = responses.NEW_PASSWORD;
  if (!newPassword) throw errors.invalidParameter('Missing required parameter NEW_PASSWORD');
  const violation = passwordPolicyViolation(newPassword);
  if (violation) throw errors.invalidPassword(violation);
  let name: string | undefined;
  if (responses['userAttributes.name'] !== undefined) {
    const checked = checkName(responses['userAttributes.name']);
    if (!checked.ok) throw errors.invalidParameter(checked.error.message);
    name = checked.value;
  }
  const hash = await hashPassword(newPassword);
  const user = await op.app.db.tx(async (q) => {
    const u = await findUserById(q, userId, true);
    if (!u || u.status !== 'FORCE_CHANGE_PASSWORD') throw errors.badSession();
    if (invitationToken) await spendInvitationToken(q, invitationToken, u, op.now);
    // the link or the temporary password came by email, so the address is proven
    await q.query(
      `UPDATE users SET password_hash = $2, status = 'CONFIRMED', email_verified = true, profile_created = true,
         failed_logins = 0, locked_until = 0, name = COALESCE($3, name) WHERE id = $1`,
      [userId, hash, name ?? null],
    );
    return (await findUserById(q, userId))!;
  });
  // as Cognito: a user who must have MFA sets it up before the first tokens
  if (!mfaOn(user) && (await mfaRequiredFor(op.app.db, op.app.config, user))) return mfaSetupChallenge(op, user);
  return authenticated(op, user);
};

export const globalSignOut: Operation = async (op, body) => {
  const { AccessToken } = accessTokenSchema.parse(body);
  const user = await userFromAccessToken(op, AccessToken);
  await revokeSignIns(op.app.db, { userId: user.id }, op.now);
  return {};
};

/** Sign-out: the refresh token and every token derived from it stop working. */
export const revokeToken: Operation = async (op, body) => {
  const input = revokeTokenSchema.parse(body);
  requireClient(op, input.ClientId);
  try {
    const claims = await verifyToken(op.app.db, op.app.key, op.tokens, input.Token, 'refresh');
    await revokeSignIns(op.app.db, { jti: String(claims.jti) }, op.now);
  } catch (err) {
    if (!(err instanceof TokenError)) throw err;
    // already revoked or expired: nothing left to revoke
    if (err.reason === 'invalid') throw errors.unsupportedToken();
  }
  return {};
};
