import { request } from 'node:http';
import { networkInterfaces } from 'node:os';
import { expect } from 'vitest';
import type { TestServer } from './harness';
import { hashPassword } from '../../server/identity/passwords';
import { insertUser } from '../../server/identity/identity-users';

export const CLIENT = 'tidewatch-web';

export interface CognitoAnswer {
  status: number;
  body: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** Calls the identity endpoint as aws-amplify does; extra headers (X-Forwarded-For) when given. */
export function cognitoClient(s: () => Pick<TestServer, 'url'>) {
  return async (op: string, body: object, headers: Record<string, string> = {}): Promise<CognitoAnswer> => {
    const res = await fetch(`${s().url}/identity`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': `AWSCognitoIdentityProviderService.${op}`, ...headers },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as CognitoAnswer['body'] };
  };
}

/** A raw HTTP request with a Host header of our choosing (fetch will not forge Host). */
export function rawRequest(url: string, opts: { method?: string; host?: string; headers?: Record<string, string>; body?: string } = {}) {
  const u = new URL(url);
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; text: string }>((resolve, reject) => {
    const req = request(
      { hostname: u.hostname, port: u.port, path: u.pathname + u.search, method: opts.method ?? 'GET', headers: { ...(opts.host ? { host: opts.host } : {}), ...opts.headers } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      },
    );
    req.on('error', reject);
    req.end(opts.body);
  });
}

/** This machine's first non-loopback IPv4 address: a client that is not on loopback. */
export function externalAddress(): string {
  for (const list of Object.values(networkInterfaces())) for (const a of list ?? []) if (a.family === 'IPv4' && !a.internal) return a.address;
  throw new Error('this test needs a non-loopback network interface');
}

/**
 * Accounts for identity tests: `account` inserts a confirmed, verified user with `password`;
 * `signIn` asks as aws-amplify's USER_PASSWORD_AUTH does; `tokensOf` signs in and expects success.
 */
export function identityAccounts(s: () => TestServer, password: string, name = 'Ana') {
  const cognito = cognitoClient(s);
  const hash = hashPassword(password);
  const account = async (email: string) =>
    insertUser(s().ctx.db, { email, name, passwordHash: await hash, status: 'CONFIRMED', emailVerified: true, profileCreated: true }, Date.now());
  const signIn = (email: string, pass = password) =>
    cognito('InitiateAuth', { AuthFlow: 'USER_PASSWORD_AUTH', ClientId: CLIENT, AuthParameters: { USERNAME: email, PASSWORD: pass } });
  const tokensOf = async (email: string, pass = password) => {
    const r = await signIn(email, pass);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body.AuthenticationResult as { IdToken: string; AccessToken: string; RefreshToken: string };
  };
  return { cognito, account, signIn, tokensOf };
}
