import { Hono } from 'hono';
import type { AppContext } from '../context';

/** Cognito user pool JSON API (X-Amz-Target: AWSCognitoIdentityProviderService.<Op>). */
export function identityRoutes(ctx: AppContext) {
  const r = new Hono();
  r.get('/.well-known/jwks.json', (c) => c.json({ keys: [ctx.key.publicJwk] }));
  r.get('/:pool/.well-known/jwks.json', (c) => c.json({ keys: [ctx.key.publicJwk] }));
  return r;
}
