import { fromPromise } from 'xstate';
import { confirmResetPassword, confirmSignIn, fetchAuthSession, resetPassword, signIn, signOut } from 'aws-amplify/auth';
import { authMachine, type Credentials, type ResetConfirmation, type SignInResult } from '../../machines/auth.machine';
import { currentUserSchema, type CurrentUser } from '../contract/user.schema';
import { api } from '../shared/api';
import { AUTH_FLOW } from '../shared/amplify';
import { closeLive } from '../shared/live-config';
import { dropEarlyReads, startEarlyReads } from '../shared/early-reads';
import { PRODUCT_NAME } from '../shared/page-title';
import { preloadSignedIn } from './page-code';

/** The identity service (aws-amplify) and the gateway behind the auth machine's named actors. */

const NEW_PASSWORD_STEP = 'CONFIRM_SIGN_IN_WITH_NEW_PASSWORD_REQUIRED';
const TOTP_STEP = 'CONFIRM_SIGN_IN_WITH_TOTP_CODE';
/** Cognito's MFA_SETUP with TOTP the only factor offered: the key of the authenticator to set up. */
const TOTP_SETUP_STEP = 'CONTINUE_SIGN_IN_WITH_TOTP_SETUP';

type SignInOutput = Awaited<ReturnType<typeof signIn>>;

/** The machine's TOTP_SETUP_REQUIRED from aws-amplify's CONTINUE_SIGN_IN_WITH_TOTP_SETUP step, or null for another step. */
function totpSetupStep(result: SignInOutput, email: string): SignInResult | null {
  const next = result.nextStep;
  if (next.signInStep !== TOTP_SETUP_STEP) return null;
  const details = next.totpSetupDetails;
  return { step: 'TOTP_SETUP_REQUIRED', secret: details.sharedSecret, uri: details.getSetupUri(PRODUCT_NAME, email).href };
}

async function passwordSignIn({ email, password }: Credentials): Promise<SignInResult> {
  const attempt = () => signIn({ username: email, password, options: { authFlowType: AUTH_FLOW } });
  let result;
  try {
    result = await attempt();
  } catch (err) {
    // A stale local session blocks a new sign-in; drop it and try once more.
    if ((err as Error).name !== 'UserAlreadyAuthenticatedException') throw err;
    await signOut();
    result = await attempt();
  }
  if (result.isSignedIn) return 'SIGNED_IN';
  if (result.nextStep.signInStep === NEW_PASSWORD_STEP) return 'NEW_PASSWORD_REQUIRED';
  if (result.nextStep.signInStep === TOTP_STEP) return 'TOTP_REQUIRED';
  const setup = totpSetupStep(result, email);
  if (setup) return setup;
  throw Object.assign(new Error(`Unsupported sign-in step ${result.nextStep.signInStep}`), { name: 'UnsupportedSignInStep' });
}

/** The email of the stored session when the machine has none yet (a reload). */
async function sessionEmail(known: string): Promise<string> {
  if (known) return known;
  const session = await fetchAuthSession();
  const email = session.tokens?.idToken?.payload.email;
  if (typeof email !== 'string') throw new Error('current user has no email attribute');
  return email;
}

export const liveAuthMachine = authMachine.provide({
  actors: {
    checkSession: fromPromise(async () => {
      const session = await fetchAuthSession();
      return Boolean(session.tokens?.idToken);
    }),
    signIn: fromPromise(({ input }: { input: Credentials }) => passwordSignIn(input)),
    completeNewPassword: fromPromise(async ({ input }: { input: { password: string } }) => {
      await confirmSignIn({ challengeResponse: input.password });
      // The spec's flow: the new password is set, then the user signs in with it.
      await signOut();
    }),
    confirmTotp: fromPromise(async ({ input }: { input: { code: string } }) => {
      const done = await confirmSignIn({ challengeResponse: input.code });
      if (!done.isSignedIn) throw Object.assign(new Error(`Unsupported sign-in step ${done.nextStep.signInStep}`), { name: 'UnsupportedSignInStep' });
    }),
    confirmTotpSetup: fromPromise(async ({ input }: { input: { code: string } }) => {
      // aws-amplify proves the code with VerifySoftwareToken, then answers MFA_SETUP
      const done = await confirmSignIn({ challengeResponse: input.code });
      if (!done.isSignedIn) throw Object.assign(new Error(`Unsupported sign-in step ${done.nextStep.signInStep}`), { name: 'UnsupportedSignInStep' });
    }),
    loadCurrentUser: fromPromise(async ({ input }: { input: { email: string } }): Promise<CurrentUser> => {
      // the pages after this read the organisations (and a linked sensor's record, the notifications
      // or the fleet): begin those reads now, beside it, and fetch the page's code behind them
      const { pathname, search } = window.location;
      void startEarlyReads(pathname, search).then(() => preloadSignedIn(pathname));
      const email = await sessionEmail(input.email);
      return api.get('/users/current-v2', { query: { email }, schema: currentUserSchema });
    }),
    createSelf: fromPromise(async ({ input }: { input: { email: string } }) => {
      await api.post('/create-self', { email: await sessionEmail(input.email) });
    }),
    signOut: fromPromise(async () => {
      dropEarlyReads();
      closeLive();
      await signOut();
    }),
    requestReset: fromPromise(async ({ input }: { input: { email: string } }) => {
      await resetPassword({ username: input.email });
    }),
    confirmReset: fromPromise(async ({ input }: { input: ResetConfirmation }) => {
      await confirmResetPassword({ username: input.email, confirmationCode: input.code, newPassword: input.password });
    }),
    acceptInvite: fromPromise(async ({ input }: { input: ResetConfirmation }): Promise<SignInResult> => {
      const step = await passwordSignIn({ email: input.email, password: input.code });
      if (step !== 'NEW_PASSWORD_REQUIRED') return step;
      const done = await confirmSignIn({ challengeResponse: input.password });
      // an invitation to manage an organisation that requires MFA: the authenticator comes next
      const setup = totpSetupStep(done, input.email);
      if (setup) return setup;
      if (!done.isSignedIn) throw new Error(`Unsupported sign-in step ${done.nextStep.signInStep}`);
      return 'SIGNED_IN';
    }),
  },
});
