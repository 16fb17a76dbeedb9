import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness';
import { addMember, makeOrg, makeUser } from './fixtures';

/**
 * Issue 35 (Low): every operation of the OpenAPI document says who may call it and lists the 4xx
 * answers it gives, each with its error code, so a client written from the document alone knows
 * the refusals it must handle. The document is read as a client reads it, from GET /api/openapi.json.
 */
type Op = { description?: string; parameters?: unknown[]; security?: unknown[]; responses: Record<string, { description?: string; content?: unknown }> };

describe('the OpenAPI document: each operation’s access rule and 4xx answers (issue 35)', () => {
  let s: TestServer;
  let ops: [string, Op][] = [];
  beforeAll(async () => {
    s = await startTestServer('pglite');
    const doc = (await (await s.api('/openapi.json')).json()) as { paths: Record<string, Record<string, Op>> };
    ops = Object.entries(doc.paths).flatMap(([p, byMethod]) => Object.entries(byMethod).map(([m, op]) => [`${m.toUpperCase()} ${p}`, op] as [string, Op]));
  });
  afterAll(() => s?.close());

  it('every operation names who may call it', () => {
    expect(ops.length).toBeGreaterThan(50);
    expect(ops.filter(([, op]) => !/^Who may call it: .+\./.test(op.description ?? '') || op.description!.includes('Not documented')).map(([k]) => k)).toEqual([]);
  });

  it('every operation lists its 4xx answers, each naming its error codes', () => {
    // only an unsigned read without parameters refuses nothing (the health check, this document)
    const missing = ops.filter(([, op]) => !Object.keys(op.responses).some((status) => /^4\d\d$/.test(status))).map(([k]) => k);
    expect(missing).toEqual(['GET /health', 'GET /openapi.json']);
    const uncoded = ops.flatMap(([k, op]) => Object.entries(op.responses).filter(([status, r]) => /^4\d\d$/.test(status) && !/\b[A-Z][A-Z_]{2,}\b/.test(r.description ?? '')).map(([status]) => `${k} ${status}`));
    expect(uncoded).toEqual([]);
  });

  it('a signed operation answers 401 without a valid token; an unsigned one does not list it', () => {
    for (const [k, op] of ops) {
      const unsigned = Array.isArray(op.security) && op.security.length === 0;
        expect(Object.keys(op.responses).includes('401'), k).toBe(!unsigned);
    }
  });

  it('the member MFA reset lists each refusal the route gives, with its code', () => {
    const op = ops.find(([k]) => k === 'POST /organisations/{orgId}/members/{memberId}/reset-mfa')![1];
    expect(op.responses['403']!.description).toBe('Codes: FORBIDDEN, MFA_REQUIRED, SITE_ADMIN_PROTECTED, CANNOT_ACT_ON_SELF, REAUTHENTICATION_REQUIRED');
    expect(op.responses['404']!.description).toBe('Codes: ORGANISATION_NOT_FOUND, MEMBER_NOT_FOUND');
    expect(op.responses['409']!.description).toBe('Codes: MFA_NOT_SET_UP');
  });
});

/**
 * The access rules of the document against the server's own role checks: each signed operation is
 * called by seven callers (the organisation's owner, admin, member and meter reader, a site admin
 * who is a member, a site admin who is not, and the owner of another organisation) and must refuse
 * exactly those its rule leaves out (401, 403 FORBIDDEN or 404 ORGANISATION_NOT_FOUND). Which
 * callers a rule lets in is this test's reading of the rule's words (RULES), so a rule that names
 * the wrong callers fails here. Path ids are fresh UUIDs: a caller let in meets the missing
 * resource's own 404, or the bad body's 400, and every 4xx met must be listed by the operation.
 */
const CALLERS = ['owner', 'admin', 'member', 'reader', 'siteAdminMember', 'siteAdmin', 'otherOwner'] as const;
type Caller = (typeof CALLERS)[number];
const EVERYONE: Caller[] = [...CALLERS];
const MANAGERS: Caller[] = ['owner', 'admin'];
const DATA: Caller[] = ['owner', 'admin', 'member', 'siteAdminMember'];
const ANY_ROLE: Caller[] = ['owner', 'admin', 'member', 'reader', 'siteAdminMember'];
const RULES: Record<string, Caller[]> = {
  'Any signed-in user': EVERYONE,
  'Any signed-in user, for their own profile': EVERYONE,
  'Any signed-in user: the organisations they belong to': EVERYONE,
  'The user themself': EVERYONE,
  'The invited user themself': EVERYONE,
  'Owners and admins of any organisation': ['owner', 'admin', 'otherOwner'],
  'Organisation owners and admins': MANAGERS,
  'Organisation owners and admins; anyone but the owner for themself': MANAGERS,
  'Organisation owners and admins; anyone for themself': MANAGERS,
  'The organisation’s owner': ['owner'],
  'Members of the organisation (not meter readers)': DATA,
  'Members of the organisation in any role (meter readers too); whether each has MFA on only for the owner and site admins': ANY_ROLE,
  'The organisation’s owner, for a member other than themself and not a site admin; Site admins for anyone but themself': ['owner', 'siteAdminMember', 'siteAdmin'],
  'Organisation owners and admins, and site admins who are members': ['owner', 'admin', 'siteAdminMember'],
  'Site admins': ['siteAdminMember', 'siteAdmin'],
  'Site admins who are members of the organisation (in any role)': ['siteAdminMember'],
  'Owners and admins of an organisation with meter reading': MANAGERS,
  'Members of an organisation with meter reading in any role (a meter reader: the tasks assigned to them)': ANY_ROLE,
  'Members, admins and owners of an organisation with meter reading (not meter readers)': DATA,
  'Members of an organisation with meter reading in any role, for a task assigned to them': ANY_ROLE,
};

describe('the OpenAPI document’s access rules against the server’s role checks (issue 35)', () => {
  let s: TestServer;
  let ops: [string, Op][] = [];
  const tokens = {} as Record<Caller, string>;
  let orgId = '';
  beforeAll(async () => {
    s = await startTestServer('pglite');
    const doc = (await (await s.api('/openapi.json')).json()) as { paths: Record<string, Record<string, Op>> };
    ops = Object.entries(doc.paths).flatMap(([p, byMethod]) => Object.entries(byMethod).map(([m, op]) => [`${m.toUpperCase()} ${p}`, op] as [string, Op]));
    const db = s.ctx.db;
    const org = await makeOrg(db, { name: 'Access Council', features: { meterReading: true } });
    const other = await makeOrg(db, { name: 'Other Council' });
    orgId = org.id;
    const roles: Partial<Record<Caller, 1 | 2 | 3 | 4>> = { owner: 3, admin: 2, member: 1, reader: 4, siteAdminMember: 1 };
    for (const who of CALLERS) {
      const user = await makeUser(db, { isSiteAdmin: who.startsWith('siteAdmin') });
      const role = roles[who];
      if (role) await addMember(db, org.id, user.id, role);
      if (who === 'otherOwner') await addMember(db, other.id, user.id, 3);
      tokens[who] = await s.tokenFor(user.id);
    }
  });
  afterAll(() => s?.close());

  const PARAMS: Record<string, () => string> = {
    orgId: () => orgId,
    id: () => orgId,
    answer: () => 'decline',
    email: () => 'nobody@test.local',
    network: () => 'sigfox',
    name: () => 'R1',
    photo: () => 'close',
  };
  const call = async (key: string, token: string) => {
    const [method, template] = key.split(' ') as [string, string];
    const path = template.replace(/\{([A-Za-z]+)\}/g, (_m, name: string) => (PARAMS[name] ?? randomUUID)());
    const query = key === 'GET /users' ? '?email=nobody%40test.local' : '';
    const res = await s.api(path + query, { method, token, ...(method === 'GET' || method === 'DELETE' ? {} : { json: {} }) });
    const text = await res.text();
    let code = '';
    try {
      code = (JSON.parse(text) as { code?: string }).code ?? '';
    } catch {
      /* an answer without a JSON body */
    }
    return { status: res.status, code };
  };
  const refused = (a: { status: number; code: string }) => a.status === 401 || (a.status === 403 && a.code === 'FORBIDDEN') || (a.status === 404 && a.code === 'ORGANISATION_NOT_FOUND');

  it('every signed operation lets in exactly the callers its rule names, and lists every 4xx it gave them', async () => {
    const signed = ops.filter(([, op]) => !(Array.isArray(op.security) && op.security.length === 0));
    expect(signed.length).toBeGreaterThan(50);
    const unknownRules = signed.map(([k, op]) => [k, (op.description ?? '').replace(/^Who may call it: /, '').replace(/\.$/, '')]).filter(([, rule]) => !RULES[rule!]);
    expect(unknownRules, 'a rule this test cannot read: add its callers to RULES').toEqual([]);
    const wrong: string[] = [];
    const undocumented: string[] = [];
    for (const [key, op] of signed) {
      const allowed = RULES[(op.description ?? '').replace(/^Who may call it: /, '').replace(/\.$/, '')]!;
      // the callers left out first: a caller let in may change what the next one finds
      for (const who of [...CALLERS].sort((a, b) => Number(allowed.includes(a)) - Number(allowed.includes(b)))) {
        const answer = await call(key, tokens[who]);
        if (refused(answer) === allowed.includes(who)) wrong.push(`${key} as ${who}: ${answer.status} ${answer.code} (rule: ${allowed.includes(who) ? 'let in' : 'refused'})`);
        if (answer.status >= 400 && answer.status < 500 && !(op.responses[String(answer.status)]?.description ?? '').split(/[ ,:]+/).includes(answer.code)) undocumented.push(`${key} as ${who}: ${answer.status} ${answer.code}`);
      }
    }
    expect(wrong).toEqual([]);
    expect([...new Set(undocumented)]).toEqual([]);
  });

  it('the refusals of a bad query or a bad claim are listed by their operations, each with its code', async () => {
    const bad: [string, string, Caller, string, unknown?][] = [
      ['GET /organisations/{orgId}/sensors', '?view=everything', 'member', 'INVALID_QUERY'],
      ['GET /organisations/{orgId}/sensors', '?limit=5', 'member', 'INVALID_QUERY'],
      ['GET /organisations/{orgId}/sensors', '?view=summary&limit=0', 'member', 'INVALID_QUERY'],
      ['GET /organisations/{orgId}/sensors', '?since=5', 'member', 'INVALID_QUERY'],
      ['GET /organisations/{orgId}/sensors', '?view=summary&since=5&limit=10', 'member', 'INVALID_QUERY'],
      ['GET /organisations/{orgId}/sensors', '?view=summary&since=yesterday', 'member', 'INVALID_QUERY'],
      ['GET /organisations/{orgId}/notifications', '?type=Flood', 'member', 'INVALID_QUERY'],
      ['GET /organisations/{orgId}/notifications', '?state=maybe', 'member', 'INVALID_QUERY'],
      ['GET /organisations/{orgId}/notifications', '?sensor=T35-1', 'member', 'INVALID_QUERY'],
      ['GET /organisations/{orgId}/notifications', '?limit=0', 'member', 'INVALID_QUERY'],
      ['GET /organisations/{orgId}/notifications', '?cursor=not-ours', 'member', 'INVALID_CURSOR'],
      ['GET /admin/client-errors', '?start=not-ours', 'siteAdmin', 'INVALID_CURSOR'],
      ['POST /organisations/{orgId}/add-sensor', '', 'admin', 'INVALID_SERIAL', { serial: '', claimCode: '' }],
      ['POST /organisations/{orgId}/add-sensor', '', 'admin', 'INVALID_SERIAL', { serial: 'not a serial', claimCode: randomUUID() }],
      ['POST /organisations/{orgId}/add-sensor', '', 'admin', 'INVALID_CLAIM_CODE', { serial: 'ABCDEF', claimCode: 'no' }],
      // a well-formed claim of a sensor there is none of
      ['POST /organisations/{orgId}/add-sensor', '', 'admin', 'INVALID_CLAIM_CODE', { serial: 'ABCDEF', claimCode: randomUUID() }],
    ];
    const met: string[] = [];
    const unlisted: string[] = [];
    for (const [key, query, who, expected, json] of bad) {
      const [method, template] = key.split(' ') as [string, string];
      const res = await s.api(template.replace('{orgId}', orgId) + query, { method, token: tokens[who], ...(json ? { json } : {}) });
      const { code } = (await res.json()) as { code: string };
      met.push(`${key}${query} ${res.status} ${code}`);
      if (res.status !== 400 || code !== expected) continue;
      const listed = ops.find(([k]) => k === key)![1].responses['400']?.description ?? '';
      if (!listed.split(/[ ,:]+/).includes(code)) unlisted.push(`${key} ${code}`);
    }
    expect(met).toEqual(bad.map(([key, query, , expected]) => `${key}${query} 400 ${expected}`));
    expect([...new Set(unlisted)]).toEqual([]);
  });
});
