import { randomUUID } from 'node:crypto';
import { passwordPolicyViolation } from '../../src/domain/password-policy';
import { queueEmailIf, queueSecurityNotice } from './mail';
import { errors } from './cognito-errors';
import { changePasswordSchema, confirmForgotPasswordSchema, forgotPasswordSchema } from './cognito.schema';
import { consumeCode, issueCode } from './codes';
import { resetEmail } from './emails';
import { emailDelivery, findUserById, findUserByUsername } from './identity-users';
import { isLocked, recordFailure, recordSuccess } from './lockout';
import { requireClient, userFromAccessToken, type Operation } from './op-context';
import { hashPassword, verifyPassword } from './passwords';
import { revokeSignIns } from './tokens';

function assertPolicy(password: string) {
  const violation = passwordPolicyViolation(password);
  if (violation) throw errors.invalidPassword(violation);
}

/**
 * Sends a reset code. With PREVENT_USER_EXISTENCE_ERRORS (the default) known and unknown accounts get
 * the same answer, and an unknown one (or one sent too many codes this hour) simply gets no email;
 * with it off an unknown account is told apart with UserNotFoundException, after the same work.
 * The work is the same for both: one transaction of the same statements (an unknown account's for
 * an id no user has, writing nothing), a code made and hashed, and the email rendered.
 */
export const forgotPassword: Operation = async (op, body) => {
  const input = forgotPasswordSchema.parse(body);
  requireClient(op, input.ClientId);
  const user = await findUserByUsername(op.app.db, input.Username);
  await op.app.db.tx(async (q) => {
    const code = await issueCode(q, user?.id ?? randomUUID(), 'reset_password', op.now, !!user);
    await queueEmailIf(q, code !== null, user?.email ?? input.Username, resetEmail(code ?? '000000'));
  });
  if (!user && !op.app.config.PREVENT_USER_EXISTENCE_ERRORS) throw errors.userNotFound();
  return { CodeDeliveryDetails: emailDelivery(input.Username.includes('@') ? input.Username : (user?.email ?? input.Username)) };
};

/** Sets the new password with the emailed code; every existing sign-in of the account ends. */
export const confirmForgotPassword: Operation = async (op, body) => {
  const input = confirmForgotPasswordSchema.parse(body);
  requireClient(op, input.ClientId);
  assertPolicy(input.Password);
  const user = await findUserByUsername(op.app.db, input.Username);
  // an unknown address: the same look-up a real one makes, then the same answer as a wrong code
  await consumeCode(op.app.db, user?.id ?? randomUUID(), 'reset_password', input.ConfirmationCode, op.now, true);
  if (!user) throw errors.codeMismatch();
  const hash = await hashPassword(input.Password);
  await op.app.db.tx(async (q) => {
    const u = await findUserById(q, user.id, true);
    if (!u) throw errors.codeMismatch();
    // the code came by email: the address is proven, and an invited user has now chosen a password
    await q.query(
      `UPDATE users SET password_hash = $2, status = 'CONFIRMED', email_verified = true, failed_logins = 0, locked_until = 0 WHERE id = $1`,
      [u.id, hash],
    );
    // an invited user who reset instead of following the link: the reset proves the address, not a
    // choice of organisation, so their invitations stay pending for the app to ask about, each on its own
    if (u.status === 'FORCE_CHANGE_PASSWORD') await q.query('UPDATE users SET profile_created = true WHERE id = $1', [u.id]);
    await revokeSignIns(q, { userId: u.id }, op.now);
    await queueSecurityNotice(q, u.email, op, 'password-reset');
  });
  return {};
};

export const changePassword: Operation = async (op, body) => {
  const input = changePasswordSchema.parse(body);
  const user = await userFromAccessToken(op, input.AccessToken);
  assertPolicy(input.ProposedPassword);
  if (isLocked(user, op.now)) throw errors.lockedOut();
  if (!(await verifyPassword(input.PreviousPassword, user.password_hash))) {
    await recordFailure(op.app.db, user.id, op.now);
    throw errors.badCredentials();
  }
  await recordSuccess(op.app.db, user.id);
  const hash = await hashPassword(input.ProposedPassword);
  await op.app.db.tx(async (q) => {
    await q.query('UPDATE users SET password_hash = $2 WHERE id = $1', [user.id, hash]);
    // whoever else held a session (maybe the reason for the change) is signed out; this one stays
    await revokeSignIns(q, { userId: user.id, except: user.signInId }, op.now);
    await queueSecurityNotice(q, user.email, op, 'password-changed');
  });
  return {};
};
