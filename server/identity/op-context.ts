import type { AppContext } from '../context';
import { errors } from './cognito-errors';
import { findUserById, type UserRow } from './identity-users';
import { TokenError, verifyToken, type TokenSettings } from './tokens';

/** What one identity operation gets: the app, the request's origin (for links) and the clock. */
export interface OpContext {
  app: AppContext;
  origin: string;
  now: number;
  /** Token settings bound to the server clock. */
  tokens: TokenSettings;
}

export type Operation = (op: OpContext, body: unknown) => Promise<object>;

/** Operations named with a ClientId must name ours. */
export function requireClient(op: OpContext, clientId: string) {
  if (clientId !== op.app.config.APP_CLIENT_ID) throw errors.unknownClient(clientId);
}

/** The signed-in user behind an access token (GetUser, ChangePassword, GlobalSignOut...). */
export async function userFromAccessToken(op: OpContext, accessToken: string): Promise<UserRow & { signInId: string }> {
  try {
    const claims = await verifyToken(op.app.db, op.app.key, op.tokens, accessToken, 'access');
    const user = await findUserById(op.app.db, claims.sub);
    if (!user) throw errors.badAccessToken();
    // the sign-in (refresh token jti) this access token came from
    return { ...user, signInId: claims.origin_jti };
  } catch (err) {
    if (err instanceof TokenError) {
      if (err.reason === 'expired') throw errors.expiredAccessToken();
      if (err.reason === 'revoked') throw errors.revokedAccessToken();
      throw errors.badAccessToken();
    }
    throw err;
  }
}
