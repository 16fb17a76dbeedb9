import { randomUUID } from 'node:crypto';
import { passwordPolicyViolation } from '../../src/domain/password-policy';
import { checkEmail, checkName } from '../../src/domain/sign-up-rules';
import type { Queryable } from '../db/db';
import { queueEmail, queueSecurityNotice } from './mail';
import { errors } from './cognito-errors';
import { attributeCodeSchema, confirmSignUpSchema, accessTokenSchema, resendConfirmationCodeSchema, signUpSchema, updateUserAttributesSchema, verifyUserAttributeSchema } from './cognito.schema';
import { consumeCode, issueCode, voidCodes } from './codes';
import { requireRecentReauthentication } from './reauth';
import { verificationEmail } from './emails';
import { emailDelivery, findUserById, findUserByUsername, insertUser, isUniqueViolation, maskEmail, userAttributes } from './identity-users';
import { requireClient, userFromAccessToken, type OpContext, type Operation } from './op-context';
import { hashPassword } from './passwords';
import { mfaFields } from './mfa.ops';

/** Issues an email verification code and queues the email with its link; false when rate-limited. */
async function sendVerification(op: OpContext, q: Queryable, userId: string, email: string): Promise<boolean> {
  const code = await issueCode(q, userId, 'verify_email', op.now);
  if (!code) return false;
  await queueEmail(q, email, verificationEmail(op.origin, code));
  return true;
}

function onlyEmailAttribute(name: string) {
  if (name !== 'email') throw errors.invalidParameter(`Verification of ${name} is not supported; only email is.`);
}

/**
 * Self-service sign-up through the user pool (the product's wizard uses POST /api/signup instead).
 * Off unless IDENTITY_SELF_SIGN_UP=true, as Cognito's "allow only administrators to create users":
 * refused before anything is read, so it tells nobody which addresses have accounts (issue 35).
 */
export const signUp: Operation = async (op, body) => {
  if (!op.app.config.IDENTITY_SELF_SIGN_UP) throw errors.signUpNotPermitted();
  const input = signUpSchema.parse(body);
  requireClient(op, input.ClientId);
  const email = checkEmail(input.Username);
  if (!email.ok) throw errors.invalidParameter('Username should be an email.');
  const violation = passwordPolicyViolation(input.Password);
  if (violation) throw errors.invalidPassword(violation);
  const nameAttr = input.UserAttributes?.find((a) => a.Name === 'name');
  const name = nameAttr ? checkName(nameAttr.Value) : undefined;
  if (name && !name.ok) throw errors.invalidParameter(name.error.message);
  const hash = await hashPassword(input.Password);
  try {
    const userId = await op.app.db.tx(async (q) => {
      if (await findUserByUsername(q, email.value)) throw errors.usernameExists();
      const id = await insertUser(q, { email: email.value, name: name?.ok ? name.value : '', passwordHash: hash, status: 'UNCONFIRMED', emailVerified: false, profileCreated: false }, op.now);
      await sendVerification(op, q, id, email.value);
      return id;
    });
    return { UserConfirmed: false, UserSub: userId, CodeDeliveryDetails: emailDelivery(email.value) };
  } catch (err) {
    if (isUniqueViolation(err)) throw errors.usernameExists();
    throw err;
  }
};

export const confirmSignUp: Operation = async (op, body) => {
  const input = confirmSignUpSchema.parse(body);
  requireClient(op, input.ClientId);
  const user = await findUserByUsername(op.app.db, input.Username);
  // unknown, already confirmed or a wrong code: one answer, so the account's existence and status stay private
  const waiting = user?.status === 'UNCONFIRMED' ? user : undefined;
  await consumeCode(op.app.db, waiting?.id ?? randomUUID(), 'verify_email', input.ConfirmationCode, op.now, true);
  if (!waiting) throw errors.codeMismatch();
  await op.app.db.query(`UPDATE users SET status = 'CONFIRMED', email_verified = true WHERE id = $1`, [waiting.id]);
  return {};
};

/** Same answer whether or not the account exists or still needs confirming. */
export const resendConfirmationCode: Operation = async (op, body) => {
  const input = resendConfirmationCodeSchema.parse(body);
  requireClient(op, input.ClientId);
  const user = await findUserByUsername(op.app.db, input.Username);
  if (user?.status === 'UNCONFIRMED') await op.app.db.tx((q) => sendVerification(op, q, user.id, user.email));
  return { CodeDeliveryDetails: emailDelivery(input.Username.includes('@') ? input.Username : (user?.email ?? input.Username)) };
};

export const getUser: Operation = async (op, body) => {
  const { AccessToken } = accessTokenSchema.parse(body);
  const user = await userFromAccessToken(op, AccessToken);
  return { Username: user.id, UserAttributes: userAttributes(user), ...mfaFields(user) };
};

/**
 * name, and email. Like Cognito's "keep original attribute value active when an update is
 * pending": a new email is only pending (a code goes to it); the old address stays the sign-in
 * address, verified, until VerifyUserAttribute proves the new one.
 */
export const updateUserAttributes: Operation = async (op, body) => {
  const input = updateUserAttributesSchema.parse(body);
  const user = await userFromAccessToken(op, input.AccessToken);
  let name: string | undefined;
  let email: string | undefined;
  for (const attr of input.UserAttributes) {
    if (attr.Name === 'name') {
      const r = checkName(attr.Value);
      if (!r.ok) throw errors.invalidParameter(r.error.message);
      name = r.value;
    } else if (attr.Name === 'email') {
      const r = checkEmail(attr.Value);
      if (!r.ok) throw errors.invalidParameter('Invalid email address format.');
      if (r.value !== user.email) email = r.value;
      else if (user.pending_email)
        // withdrawn: nothing pending, and the link sent to that address proves nothing any more
        await op.app.db.tx(async (q) => {
          await q.query('UPDATE users SET pending_email = NULL WHERE id = $1', [user.id]);
          await voidCodes(q, user.id, 'verify_email', op.now);
        });
    } else {
      throw errors.invalidParameter(`user.${attr.Name}: Attribute does not exist in the schema or cannot be changed.`);
    }
  }
  // moving the account to another address needs this sign-in to have proved the password again
  // (ASVS V7.5.1, POST /api/reauthenticate): a stolen session alone cannot take the account
  if (email !== undefined) await requireRecentReauthentication(op.app.db, user.id, user.signInId, op.now);
  try {
    const delivered = await op.app.db.tx(async (q) => {
      if (name !== undefined) await q.query('UPDATE users SET name = $2 WHERE id = $1', [user.id, name]);
      if (email === undefined) return false;
      if (await findUserByUsername(q, email)) throw errors.aliasExists();
      await q.query('UPDATE users SET pending_email = $2 WHERE id = $1', [user.id, email]);
      // no fresh code, no change: an older code (sent to the old address) must never prove this one
      if (!(await sendVerification(op, q, user.id, email))) throw errors.attemptLimit();
      return true;
    });
    return { CodeDeliveryDetailsList: delivered && email ? [emailDelivery(email)] : [] };
  } catch (err) {
    if (isUniqueViolation(err)) throw errors.aliasExists();
    throw err;
  }
};

export const getUserAttributeVerificationCode: Operation = async (op, body) => {
  const input = attributeCodeSchema.parse(body);
  const user = await userFromAccessToken(op, input.AccessToken);
  onlyEmailAttribute(input.AttributeName);
  const to = user.pending_email ?? user.email;
  const sent = await op.app.db.tx((q) => sendVerification(op, q, user.id, to));
  if (!sent) throw errors.attemptLimit();
  return { CodeDeliveryDetails: emailDelivery(to) };
};

export const verifyUserAttribute: Operation = async (op, body) => {
  const input = verifyUserAttributeSchema.parse(body);
  const user = await userFromAccessToken(op, input.AccessToken);
  onlyEmailAttribute(input.AttributeName);
  await consumeCode(op.app.db, user.id, 'verify_email', input.Code, op.now);
  try {
    await op.app.db.tx(async (q) => {
      const u = await findUserById(q, user.id, true);
      if (u?.pending_email) {
        // the new address is proven: it becomes the sign-in address now
        if (await findUserByUsername(q, u.pending_email)) throw errors.aliasExists();
        await q.query('UPDATE users SET email = pending_email, pending_email = NULL, email_verified = true WHERE id = $1', [user.id]);
        // both addresses hear of it: the old one may be the owner's, with the session stolen
        await queueSecurityNotice(q, u.email, op, 'email-moved-away', { maskedNewEmail: maskEmail(u.pending_email) });
        await queueSecurityNotice(q, u.pending_email, op, 'email-changed');
      } else await q.query('UPDATE users SET email_verified = true WHERE id = $1', [user.id]);
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw errors.aliasExists();
    throw err;
  }
  return {};
};
