import { Hono, type Context } from 'hono';
import { ZodError } from 'zod';
import type { AppContext } from '../context';
import { clientAddress, publicOrigin } from '../http/origin';
import { asClient, HashQueueFull } from './hash-queue';
import { identityLimits } from './identity-limits';
import { CognitoError, errors } from './cognito-errors';
import { publicJwks } from './keys';
import { findBadText } from '../http/input-guard';
import { CONTROL_CHARACTERS, CONTROL_CHARACTER_MESSAGE, storableText } from '../../src/contract/safe-text';
import type { OpContext, Operation } from './op-context';
import { globalSignOut, getTokensFromRefreshToken, initiateAuth, respondToAuthChallenge, revokeToken } from './sign-in.ops';
import { changePassword, confirmForgotPassword, forgotPassword } from './password.ops';
import {
  confirmSignUp,
  getUser,
  getUserAttributeVerificationCode,
  resendConfirmationCode,
  signUp,
  updateUserAttributes,
  verifyUserAttribute,
} from './account.ops';
import { associateSoftwareToken, setUserMFAPreference, verifySoftwareToken } from './mfa.ops';

const TARGET_PREFIX = 'AWSCognitoIdentityProviderService.';
const PASSWORD_KEYS = new Set(['Password', 'PreviousPassword', 'ProposedPassword', 'PASSWORD', 'NEW_PASSWORD']);
const CONTENT_TYPE = 'application/x-amz-json-1.1';

/** Every user pool operation aws-amplify v6 calls in this product, by X-Amz-Target name. */
const operations: Record<string, Operation> = {
  InitiateAuth: initiateAuth,
  RespondToAuthChallenge: respondToAuthChallenge,
  GetTokensFromRefreshToken: getTokensFromRefreshToken,
  GlobalSignOut: globalSignOut,
  RevokeToken: revokeToken,
  SignUp: signUp,
  ConfirmSignUp: confirmSignUp,
  ResendConfirmationCode: resendConfirmationCode,
  ForgotPassword: forgotPassword,
  ConfirmForgotPassword: confirmForgotPassword,
  ChangePassword: changePassword,
  GetUser: getUser,
  UpdateUserAttributes: updateUserAttributes,
  GetUserAttributeVerificationCode: getUserAttributeVerificationCode,
  VerifyUserAttribute: verifyUserAttribute,
  AssociateSoftwareToken: associateSoftwareToken,
  VerifySoftwareToken: verifySoftwareToken,
  SetUserMFAPreference: setUserMFAPreference,
};

// Amplify parses every answer as JSON, errors included: always a JSON body in Cognito's content type.
const answer = (c: Context, body: object, status: 200 | 400 | 500) =>
  c.body(JSON.stringify(body), status, { 'Content-Type': CONTENT_TYPE, 'Cache-Control': 'no-store' });

const failure = (c: Context, err: CognitoError) => answer(c, { __type: err.type, message: err.message }, 400);

/** Cognito user pool JSON API (X-Amz-Target: AWSCognitoIdentityProviderService.<Op>) and its JWKS. */
export function identityRoutes(ctx: AppContext) {
  const r = new Hono();
  // every key in the database, so a token signed by any process verifies against any process's JWKS
  r.get('/.well-known/jwks.json', async (c) => c.json({ keys: await publicJwks(ctx.db) }));
  r.get('/:pool/.well-known/jwks.json', async (c) => c.json({ keys: await publicJwks(ctx.db) }));

  const limit = identityLimits(ctx.config, ctx.now);
  const handle = async (c: Context) => {
    const target = c.req.header('x-amz-target') ?? '';
    const name = target.startsWith(TARGET_PREFIX) ? target.slice(TARGET_PREFIX.length) : target;
    const operation = Object.hasOwn(operations, name) ? operations[name] : undefined;
    if (!operation) return failure(c, errors.unknownOperation(name || '(missing X-Amz-Target)'));
    let body: unknown;
    try {
      // any content type: Amplify sends application/x-amz-json-1.1, curl users often send nothing
      const raw = await c.req.text();
      body = raw ? JSON.parse(raw) : {};
    } catch {
      return failure(c, errors.invalidParameter('The request body is not valid JSON.'));
    }
    const address = clientAddress(c, ctx.config);
    try {
      limit(address, body);
    } catch (err) {
      ctx.log.info({ op: name, address }, 'identity rate limit');
      return failure(c, err as CognitoError);
    }
    // no user pool value (names, emails, codes, tokens) has a use for control characters; passwords
    // are never stored as typed, and the password policy answers for them in its own words
    const bad = findBadText(body, (s, key) => PASSWORD_KEYS.has(String(key)) || (storableText(s) && !CONTROL_CHARACTERS.test(s)));
    if (bad) return failure(c, errors.invalidParameter(`${bad}: ${CONTROL_CHARACTER_MESSAGE}`));
    const op: OpContext = {
      app: ctx,
      origin: publicOrigin(ctx, c.req.url),
      now: ctx.now(),
      tokens: { ...ctx.tokens, now: ctx.now },
    };
    try {
      const result = await asClient(address, () => operation(op, body));
      ctx.log.debug({ op: name }, 'identity operation');
      return answer(c, result, 200);
    } catch (err) {
      if (err instanceof CognitoError) {
        ctx.log.info({ op: name, error: err.type }, 'identity operation refused');
        return failure(c, err);
      }
      if (err instanceof HashQueueFull) return failure(c, errors.tooManyRequests());
      if (err instanceof ZodError) {
        const first = err.issues[0];
        return failure(c, errors.invalidParameter(`${first?.path.join('.') || 'request'}: ${first?.message ?? 'invalid value'}`));
      }
      ctx.log.error({ op: name, err }, 'identity operation failed');
      return answer(c, { __type: 'InternalErrorException', message: 'Internal error.' }, 500);
    }
  };
  r.post('/', handle);
  // a configured endpoint with a trailing slash (or a pool path) reaches the same API
  r.post('/*', handle);
  return r;
}
