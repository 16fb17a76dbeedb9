import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, testDrivers, type TestServer } from './harness';
import { addMember, makeOrg, makeSensor, makeUser } from './fixtures';
import { createApp } from '../../server/http/app';
import { UNCHECKED_VALUE } from '../../server/http/errors';

/**
 * Issue 9, bad input: no request answers 500. Every route Hono knows is called with hostile path
 * parameters, queries and bodies (NUL bytes, ids that look like UUIDs and are not, numbers past
 * bigint, malformed JSON), and the issue's own list is checked one by one for a clear 400.
 */
const NUL = 'a\u0000b';
const b64 = (s: string) => Buffer.from(s).toString('base64url');
const HOSTILE_PARAMS = ['x%00y', '-'.repeat(36), 'not-a-uuid', '9'.repeat(40), '%E0%A4%A', "'%20OR%201=1"];
const HOSTILE_QUERIES = [
  `email=a%00b&to=a%00b&type=a%00b&region=a%00b&resend=%00&order=%00&format=%00&start=%00`,
  `startTime=99999999999999999999&endTime=99999999999999999999&limit=99999999999999999999`,
  `startTime=0&endTime=1000&start=${b64('m1:99999999999999999999')}`,
  `startTime=0&start=${b64('99999999999999999999999:99999999999999999999999')}`,
  `startTime=-1&endTime=1e400&limit=NaN&start=${'A'.repeat(5000)}`,
];
const nulBody = {
  email: NUL, name: NUL, password: NUL, serial: NUL, claimCode: NUL, organisationName: NUL, mobile: NUL,
  role: 1, url: `https://h.example.com/${NUL}`, headers: [{ key: NUL, value: NUL }], displaySettings: { timeDisplay: NUL },
  measurements: [{ time: 1e300, rawDistance: 1 }], status: NUL, code: NUL, message: NUL,
};
const HOSTILE_BODIES = [JSON.stringify(nulBody), JSON.stringify(nulBody).replaceAll('\\u0000', '\\ud800'), JSON.stringify({ [NUL]: 1, headers: [{ key: 'X\r\nY', value: 'a\r\nb' }] }), '[]', 'null', '{"a":', '{"name":1e400,"email":{"$ne":1}}', '"\\u0000"'];
const COGNITO_OPS = [
  'InitiateAuth', 'RespondToAuthChallenge', 'GetTokensFromRefreshToken', 'GlobalSignOut', 'RevokeToken', 'SignUp', 'ConfirmSignUp',
  'ResendConfirmationCode', 'ForgotPassword', 'ConfirmForgotPassword', 'ChangePassword', 'GetUser', 'UpdateUserAttributes',
  'GetUserAttributeVerificationCode', 'VerifyUserAttribute',
];
const cognitoBody = (clientId: string) => ({
  AuthFlow: 'USER_PASSWORD_AUTH', ClientId: clientId, AuthParameters: { USERNAME: NUL, PASSWORD: NUL, REFRESH_TOKEN: NUL },
  ChallengeName: 'NEW_PASSWORD_REQUIRED', Session: NUL, ChallengeResponses: { USERNAME: NUL, NEW_PASSWORD: NUL },
  RefreshToken: NUL, Token: NUL, AccessToken: NUL, Username: NUL, Password: NUL, ConfirmationCode: NUL, PreviousPassword: NUL,
  ProposedPassword: NUL, UserAttributes: [{ Name: 'name', Value: NUL }, { Name: NUL, Value: 'x' }], AttributeName: NUL, Code: NUL,
});

describe.each(testDrivers)('hostile input never answers 500, on %s (issue 9)', (driver) => {
  let s: TestServer;
  let token: string;
  const real: Record<string, string> = {};

  beforeAll(async () => {
    s = await startTestServer(driver, { DEMO_MODE: 'true', IDENTITY_SELF_SIGN_UP: 'true' }); // SignUp's own checks are walked too
    const db = s.ctx.db;
    const org = await makeOrg(db);
    const user = await makeUser(db, { isSiteAdmin: true });
    await addMember(db, org.id, user.id, 3);
    await makeSensor(db, null, { serial: 'DEADBEE1', claimCode: 'deadbee1-0000-4000-8000-000000000001' });
    const sensor = await makeSensor(db, org.id);
    const integration = randomUUID();
    await db.query(`INSERT INTO integrations (id, org_id, type, url, headers, secret, created_at) VALUES ($1, $2, 'webhook', 'https://h.example.com/', '[]', 'whsec_eA==', 0)`, [integration, org.id]);
    Object.assign(real, { orgId: org.id, id: org.id, sensorId: sensor.id, integrationId: integration, memberId: user.id, pool: 'local_demo' });
    token = await s.tokenFor(user.id);
  });
  afterAll(() => s?.close());

  const call = (method: string, path: string, body?: string, headers: Record<string, string> = {}) =>
    fetch(`${s.url}${path}`, { method, body, headers: { Authorization: token, 'Content-Type': 'application/json', ...headers } });

  const cognito = async (op: string, body: object) => {
    const res = await call('POST', '/identity/', JSON.stringify({ ClientId: s.ctx.config.APP_CLIENT_ID, ...body }), {
      'X-Amz-Target': `AWSCognitoIdentityProviderService.${op}`,
      'Content-Type': 'application/x-amz-json-1.1',
    });
    return { status: res.status, body: (await res.json()) as { __type: string; message: string } };
  };

  it('answers the issue’s NUL cases on /identity with InvalidParameterException', async () => {
    const cases: [string, object][] = [
      ['InitiateAuth', { AuthFlow: 'USER_PASSWORD_AUTH', AuthParameters: { USERNAME: `owner${NUL}@x.test`, PASSWORD: 'Demo-pass-2026!' } }],
      ['ForgotPassword', { Username: `owner${NUL}@x.test` }],
      ['SignUp', { Username: 'n@x.test', Password: 'Demo-pass-2026!', UserAttributes: [{ Name: 'email', Value: 'n@x.test' }, { Name: 'name', Value: NUL }] }],
    ];
    for (const [op, body] of cases) {
      const r = await cognito(op, body);
      expect(r.status, op).toBe(400);
      expect(r.body.__type, op).toBe('InvalidParameterException');
      expect(r.body.message, op).toMatch(/control character/i);
    }
  });

  it('answers the issue’s gateway cases with a 400 and a clear message', async () => {
    const { orgId } = real;
    const cases: [string, string, unknown][] = [
      ['POST', '/api/signup', { email: 'new@x.test', password: 'Demo-pass-2026!', serial: 'DEADBEE1', claimCode: 'deadbee1-0000-4000-8000-000000000001', organisationName: 'Org', name: NUL }],
      ['PATCH', `/api/users/${real.memberId}`, { name: NUL }],
      ['POST', `/api/organisations/${orgId}/invite`, { email: 'i@x.test', name: NUL, role: 1 }],
      ['POST', `/api/organisations/${orgId}/invite`, { email: `i${NUL}@x.test`, name: 'Ivy', role: 1 }],
      ['POST', `/api/organisations/${orgId}/integrations`, { url: 'https://h.example.com/', headers: [{ key: 'X-A', value: NUL }] }],
      ['POST', `/api/organisations/${orgId}/integrations`, { url: `https://h.example.com/${NUL}`, headers: [] }],
      ['GET', '/dev/mailbox?to=a%00b', undefined],
      ['GET', '/api/organisations/------------------------------------/sensors', undefined],
      ['GET', `/api/organisations/${orgId}/sensors/${real.sensorId}/measurements?startTime=0&endTime=99999999999999999999`, undefined],
      ['GET', `/api/organisations/${orgId}/sensors/${real.sensorId}/measurements?startTime=0&endTime=1000&start=${b64('m1:9999999999999999')}`, undefined],
      ['GET', `/api/admin/sensors/${real.sensorId}/measurement-errors?start=${b64('99999999999999999999999:99999999999999999999999')}`, undefined],
    ];
    for (const [method, path, body] of cases) {
      const res = await call(method, path, body === undefined ? undefined : JSON.stringify(body));
      const json = (await res.json()) as { code: string; message: string };
      expect(res.status, `${method} ${path}`).toBe(400);
      expect(json.message.length, path).toBeGreaterThan(5);
    }
    expect((await s.ctx.db.query(`SELECT 1 FROM users WHERE email = 'new@x.test'`)).length).toBe(0);
  });
  it('walks every route with hostile params, queries and bodies: never 500, always JSON', async () => {
    const routes = createApp(s.ctx).routes.filter((r) => r.method !== 'ALL' && r.path !== '/*' && !r.path.startsWith('/map/') && !r.path.startsWith('/assets/'));
    expect(routes.length).toBeGreaterThan(20);
    const failures: string[] = [];
    let calls = 0;
    for (const route of routes) {
      const names = [...route.path.matchAll(/:(\w+)/g)].map((m) => m[1]);
      const fill = (over: Record<string, string>) => route.path.replace(/:(\w+)/g, (_m, n: string) => over[n] ?? real[n] ?? 'x').replace('/*', '/x');
      const paths = [fill({}), ...names.flatMap((n) => HOSTILE_PARAMS.map((v) => fill({ [n]: v })))];
      const queries = ['', ...HOSTILE_QUERIES];
      const bodies = route.method === 'GET' ? [undefined] : HOSTILE_BODIES;
      const targets = route.path.startsWith('/identity') && route.method === 'POST' ? COGNITO_OPS : [undefined];
      // every query with the first body, every body with no query: hostile parts one at a time
      const combos = [...queries.map((q) => [q, bodies[0]] as const), ...bodies.slice(1).map((body) => ['', body] as const)];
      for (const path of paths)
        for (const [q, body] of combos)
            for (const target of targets) {
              const cognito = target ? JSON.stringify(cognitoBody(s.ctx.config.APP_CLIENT_ID)) : undefined;
              for (const b of cognito ? [cognito, body] : [body]) {
                const res = await call(route.method, `${path}${q ? `?${q}` : ''}`, b, target ? { 'X-Amz-Target': `AWSCognitoIdentityProviderService.${target}` } : {});
                calls++;
                const type = res.headers.get('content-type') ?? '';
                const text = await res.text();
                // the database's own refusal (UNCHECKED_VALUE) is a last line, not validation: it must not be reached
                if (res.status >= 500 || !/json/.test(type) || text.includes(`"${UNCHECKED_VALUE}"`)) if (!failures.some((f) => f.startsWith(`${route.method} ${route.path} ${res.status}`))) failures.push(`${route.method} ${route.path} ${res.status}: ${path}?${q} ${target ?? ''} ${b?.slice(0, 40)} -> ${res.status} ${text.slice(0, 120)}`);
              }
            }
    }
    expect(calls).toBeGreaterThan(400);
    expect(failures.slice(0, 20)).toEqual([]);
  }, 240_000);
});
