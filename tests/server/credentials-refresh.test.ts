import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { Amplify } from 'aws-amplify';
import { signIn, signOut } from 'aws-amplify/auth';
import { decodeJwt } from 'jose';
import { startTestServer, type TestServer } from './harness';
import { hashPassword } from '../../server/identity/passwords';
import { insertUser } from '../../server/identity/identity-users';
import { currentIdToken, heldIdToken } from '../../src/shared/amplify';

/**
 * Monitoring-client 9: "Credentials refresh when within 60 s of expiry." The real aws-amplify v6
 * against the identity endpoint, with the client's token source (src/shared/amplify.ts) that the
 * gateway client, the data worker and the MQTT connection share; the clock is moved with fake Date.
 */
describe('the client refreshes its ID token within 60 s of expiry, not at Amplify\'s 5 s', () => {
  let s: TestServer;
  const PASSWORD = 'Demo-pass-2026!';

  beforeAll(async () => {
    // the server reads the same (faked) clock as the client, as two machines with set clocks would
    s = await startTestServer('pglite', { ID_TOKEN_TTL_SECONDS: '3600' }, { now: () => Date.now() });
    Amplify.configure({ Auth: { Cognito: { userPoolId: s.ctx.config.USER_POOL_ID, userPoolClientId: s.ctx.config.APP_CLIENT_ID, userPoolEndpoint: `${s.url}/identity` } } });
    await insertUser(s.ctx.db, { email: 'refresh@test.local', name: 'R', passwordHash: await hashPassword(PASSWORD), status: 'CONFIRMED', emailVerified: true, profileCreated: true }, Date.now());
    await signIn({ username: 'refresh@test.local', password: PASSWORD, options: { authFlowType: 'USER_PASSWORD_AUTH' } });
  });
  afterEach(() => vi.useRealTimers());
  afterAll(async () => {
    await signOut().catch(() => {});
    await s?.close();
  });

  it('keeps a token with more than 60 s left, replaces one with 50 s left by one the gateway accepts for the next hour', async () => {
    const first = (await currentIdToken())!;
    const exp = decodeJwt(first).exp! * 1000;
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(exp - 90_000);
    expect(await currentIdToken()).toBe(first);
    vi.setSystemTime(exp - 50_000); // Amplify alone would hand this token out for 45 s more
    const [a, b] = await Promise.all([currentIdToken(), currentIdToken()]);
    expect(a).not.toBe(first);
    expect(b).toBe(a); // concurrent callers share one refresh
    expect(decodeJwt(a!).exp! * 1000).toBeGreaterThan(Date.now() + 3_000_000);
    expect((await s.api('/organisations', { token: a })).status).toBe(200);
    expect(await currentIdToken()).toBe(a); // the fresh token is not refreshed again
  });

  it('hands out the held token without asking Amplify until it is due, and holds none once signed out', async () => {
    const t = (await currentIdToken())!;
    expect(heldIdToken()).toBe(t);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(decodeJwt(t).exp! * 1000 - 50_000);
    expect(heldIdToken()).toBeUndefined(); // due: the next currentIdToken refreshes
    vi.useRealTimers();
    await signOut(); // Amplify's Hub tells of it: the held token is dropped
    expect(heldIdToken()).toBeUndefined();
    expect(await currentIdToken()).toBeUndefined();
  });
});
