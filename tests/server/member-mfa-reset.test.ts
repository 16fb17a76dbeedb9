import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, testDrivers, type TestServer } from './harness';
import { identityAccounts } from './security-helpers';
import { addMember, makeOrg } from './fixtures';
import { MFA_RESET_MESSAGES } from '../../src/domain/org-settings';
import { REAUTHENTICATION_REQUIRED_MESSAGE } from '../../src/domain/messages';

/**
 * A lost authenticator reset by someone else (issue 35): an organisation's owner resets the MFA of
 * a member of their organisation (not another organisation's, not a site admin's, not their own), a
 * site admin anyone's; the member is told by a security notice, and where their role requires MFA
 * the next sign-in sets an authenticator up again (MFA_SETUP). Like turning one's own MFA off, the
 * reset needs the caller's password proved again on that sign-in within 5 minutes.
 */
const PASSWORD = 'Demo-pass-2026!';

describe.each(testDrivers)('owner or site admin resets a lost authenticator on %s (issue 35)', (driver) => {
  let s: TestServer;
  let clock = Date.now();
  const ids: Record<string, string> = {};
  let strict = ''; // requires MFA of its managers
  let other = '';
  const accounts = identityAccounts(() => s, PASSWORD);
  const withMfa = (id: string) => s.ctx.db.query("UPDATE users SET totp_enabled = true, totp_secret = 'fixture' WHERE id = $1", [id]);
  const mfaOf = async (id: string) => (await s.ctx.db.query<{ totp_enabled: boolean; totp_secret: string | null }>('SELECT totp_enabled, totp_secret FROM users WHERE id = $1', [id]))[0];
  // a new sign-in of `who`, which proves the password again (POST /reauthenticate) unless told not to
  const reauthenticate = async (token: string, password = PASSWORD) => (await s.api('/reauthenticate', { method: 'POST', token, json: { password } })).status;
  const signedIn = async (who: string, reauth = true) => {
    const token = await s.tokenFor(ids[who]!);
    if (reauth) expect(await reauthenticate(token)).toBe(204);
    return token;
  };
  const reset = async (who: string, orgId: string, target: string, token?: string) => {
    const res = await s.api(`/organisations/${orgId}/members/${ids[target]}/reset-mfa`, { method: 'POST', token: token ?? (await signedIn(who)) });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const notices = async (email: string) =>
    (await s.ctx.db.query<{ payload: { kind: string; subject: string; text: string } }>('SELECT payload FROM outbox WHERE recipient = $1 ORDER BY created_at', [email])).map((r) => r.payload).filter((p) => p.kind === 'security-notice');

  beforeAll(async () => {
    s = await startTestServer(driver, { DEMO_MODE: 'false' }, { now: () => clock });
    for (const who of ['owner', 'admin', 'member', 'siteadmin', 'otherOwner', 'stranger']) ids[who] = await accounts.account(`${who.toLowerCase()}@mfa-reset.test`);
    await s.ctx.db.query('UPDATE users SET is_site_admin = true WHERE id = $1', [ids.siteadmin]);
    strict = (await makeOrg(s.ctx.db, { name: 'Strict Water' })).id;
    other = (await makeOrg(s.ctx.db, { name: 'Other Water' })).id;
    await s.ctx.db.query('UPDATE organisations SET manager_mfa_required = true WHERE id = $1', [strict]);
    await addMember(s.ctx.db, strict, ids.owner!, 3);
    await addMember(s.ctx.db, strict, ids.admin!, 2);
    await addMember(s.ctx.db, strict, ids.member!, 1);
    await addMember(s.ctx.db, strict, ids.siteadmin!, 1);
    await addMember(s.ctx.db, other, ids.otherOwner!, 3);
    for (const who of ['owner', 'admin', 'member', 'siteadmin', 'otherOwner']) await withMfa(ids[who]!);
  });
  afterAll(() => s?.close());

  it('who may not: an admin, a member, another organisation’s owner, a stranger, the owner for a site admin or themself', async () => {
    // the members screen shows each refusal's message as the server words it
    expect(await reset('admin', strict, 'member')).toMatchObject({ status: 403, body: { code: 'FORBIDDEN', message: MFA_RESET_MESSAGES.refused.FORBIDDEN } });
    expect(await reset('member', strict, 'admin')).toMatchObject({ status: 403, body: { code: 'FORBIDDEN' } });
    expect(await reset('otherOwner', strict, 'member')).toMatchObject({ status: 404, body: { code: 'ORGANISATION_NOT_FOUND' } });
    expect(await reset('stranger', strict, 'member')).toMatchObject({ status: 404, body: { code: 'ORGANISATION_NOT_FOUND', message: MFA_RESET_MESSAGES.refused.ORGANISATION_NOT_FOUND } });
    // the owner of one organisation for a member of another, named through their own organisation
    expect(await reset('otherOwner', other, 'member')).toMatchObject({ status: 404, body: { code: 'MEMBER_NOT_FOUND', message: MFA_RESET_MESSAGES.refused.MEMBER_NOT_FOUND } });
    expect(await reset('owner', strict, 'siteadmin')).toMatchObject({ status: 403, body: { code: 'SITE_ADMIN_PROTECTED', message: MFA_RESET_MESSAGES.refused.SITE_ADMIN_PROTECTED } });
    expect(await reset('owner', strict, 'owner')).toMatchObject({ status: 403, body: { code: 'CANNOT_ACT_ON_SELF', message: MFA_RESET_MESSAGES.refused.CANNOT_ACT_ON_SELF } });
    for (const who of ['member', 'admin', 'siteadmin', 'owner']) expect((await mfaOf(ids[who]!))!.totp_enabled, who).toBe(true);
    expect(await notices('member@mfa-reset.test')).toEqual([]);
  });

  it('refused without the caller’s password proved again on that sign-in within 5 minutes (none, another sign-in’s, a wrong one, a stale one); accepted with a fresh one', async () => {
    const refused = { status: 403, body: { code: 'REAUTHENTICATION_REQUIRED', message: REAUTHENTICATION_REQUIRED_MESSAGE } };
    const token = await signedIn('owner', false);
    expect(await reset('owner', strict, 'member', token)).toMatchObject(refused);
    await signedIn('owner'); // another sign-in of the owner proves it: not this one
    expect(await reset('owner', strict, 'member', token)).toMatchObject(refused);
    expect(await reauthenticate(token, 'Wrong-pass-2026!')).toBe(403);
    expect(await reset('owner', strict, 'member', token)).toMatchObject(refused);
    expect(await reauthenticate(token)).toBe(204);
    clock += 5 * 60_000 + 1_000;
    expect(await reset('owner', strict, 'member', token)).toMatchObject(refused);
    // a site admin, too; who may not reset is told so first, re-authenticated or not
    expect(await reset('siteadmin', strict, 'member', await signedIn('siteadmin', false))).toMatchObject(refused);
    expect(await reset('admin', strict, 'member', await signedIn('admin', false))).toMatchObject({ status: 403, body: { code: 'FORBIDDEN' } });
    expect((await mfaOf(ids.member!))!.totp_enabled).toBe(true);
    expect(await notices('member@mfa-reset.test')).toEqual([]);
    expect(await reauthenticate(token)).toBe(204);
    clock += 4 * 60_000;
    expect((await reset('owner', strict, 'member', token)).status).toBe(200);
    expect((await mfaOf(ids.member!))!.totp_enabled).toBe(false);
    await withMfa(ids.member!);
  });

  it('the owner resets a member’s MFA: secret and recovery codes gone, a security notice naming the owner; a second reset has nothing to reset', async () => {
    await s.ctx.db.query("INSERT INTO mfa_recovery_codes (user_id, code_hash, created_at) VALUES ($1, 'h', 0)", [ids.member]);
    // a code of the old authenticator was accepted in this very step
    await s.ctx.db.query('UPDATE users SET totp_last_step = $2 WHERE id = $1', [ids.member, Math.floor(Date.now() / 30_000) + 1]);
    expect(await reset('owner', strict, 'member')).toEqual({ status: 200, body: { cognitoIdentityId: ids.member, mfaEnabled: false } });
    expect(await mfaOf(ids.member!)).toEqual({ totp_enabled: false, totp_secret: null });
    // so a new authenticator's first code is not taken for a replay of it
    expect((await s.ctx.db.query<{ step: string }>('SELECT totp_last_step::text AS step FROM users WHERE id = $1', [ids.member]))[0]!.step).toBe('0');
    expect(await s.ctx.db.query('SELECT 1 FROM mfa_recovery_codes WHERE user_id = $1', [ids.member])).toEqual([]);
    const notice = (await notices('member@mfa-reset.test')).at(-1);
    expect(notice!.subject).toBe('Tidewatch: Two-factor authentication was reset');
    expect(notice!.text).toContain('owner@mfa-reset.test');
    expect(await reset('owner', strict, 'member')).toMatchObject({ status: 409, body: { code: 'MFA_NOT_SET_UP', message: MFA_RESET_MESSAGES.refused.MFA_NOT_SET_UP } });
    // a member's role does not require MFA: the password alone signs in now
    expect((await accounts.signIn('member@mfa-reset.test')).body.AuthenticationResult?.IdToken).toEqual(expect.any(String));
  });

  it('an admin whose role requires MFA, once reset, is refused with their old session and sets it up again at the next sign-in', async () => {
    const before = await s.tokenFor(ids.admin!);
    expect((await s.api(`/organisations/${strict}/sensors`, { token: before })).status).toBe(200);
    expect((await reset('owner', strict, 'admin')).status).toBe(200);
    const refused = await s.api(`/organisations/${strict}/sensors`, { token: before });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { code: string }).code).toBe('MFA_REQUIRED');
    expect((await accounts.signIn('admin@mfa-reset.test')).body).toMatchObject({ ChallengeName: 'MFA_SETUP' });
  });

  it('a site admin resets anyone’s, a site admin’s too, in any organisation; only the owner and site admins see who has MFA', async () => {
    await withMfa(ids.admin!);
    await s.ctx.db.query('UPDATE users SET is_site_admin = true WHERE id = $1', [ids.stranger]);
    await withMfa(ids.stranger!);
    expect((await reset('stranger', strict, 'admin')).status).toBe(200); // not a member of Strict Water
    expect((await reset('stranger', strict, 'siteadmin')).status).toBe(200);
    expect((await reset('stranger', other, 'otherOwner')).status).toBe(200);
    expect((await mfaOf(ids.siteadmin!))!.totp_enabled).toBe(false);
    const list = async (who: string) =>
      ((await (await s.api(`/organisations/${strict}/members`, { token: await s.tokenFor(ids[who]!) })).json()) as { members: { email: string; mfaEnabled?: boolean }[] }).members;
    expect((await list('owner')).find((m) => m.email === 'owner@mfa-reset.test')).toMatchObject({ mfaEnabled: true });
    expect((await list('owner')).find((m) => m.email === 'member@mfa-reset.test')).toMatchObject({ mfaEnabled: false });
    expect((await list('member')).every((m) => m.mfaEnabled === undefined)).toBe(true);
  });
});
