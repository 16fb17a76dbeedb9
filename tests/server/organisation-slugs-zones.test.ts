import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, testDrivers, type TestServer } from './harness';
import { addMember, makeOrg, makeUser } from './fixtures';
import { organisationListSchema, type Organisation } from '../../src/contract/organisation.schema';

// Monitoring-client 2.1 (a renamed organisation's old slug still finds it) and 9 (time zone NZST
// maps to Pacific/Auckland): what GET /organisations serves.
describe.each(testDrivers)('organisations: former slugs and time zones on %s', (driver) => {
  let s: TestServer;
  let mine: { id: string };
  let theirs: { id: string };
  let token: string;
  let strangerToken: string;

  const list = async (t = token): Promise<Organisation[]> => {
    const res = await s.api('/organisations', { token: t });
    expect(res.status).toBe(200);
    return organisationListSchema.parse(await res.json()).organisations;
  };
  const rename = (id: string, slug: string) => s.ctx.db.query('UPDATE organisations SET slug = $2 WHERE id = $1', [id, slug]);

  beforeAll(async () => {
    s = await startTestServer(driver);
    mine = await makeOrg(s.ctx.db, { name: 'Mine' });
    theirs = await makeOrg(s.ctx.db, { name: 'Theirs' });
    const me = await makeUser(s.ctx.db);
    const stranger = await makeUser(s.ctx.db);
    await addMember(s.ctx.db, mine.id, me.id, 3);
    await addMember(s.ctx.db, theirs.id, stranger.id, 3);
    token = await s.tokenFor(me.id);
    strangerToken = await s.tokenFor(stranger.id);
  });
  afterAll(() => s?.close());

  it('a stored legacy zone name is served as the IANA zone; a valid zone is served as stored', async () => {
    await s.ctx.db.query(`UPDATE organisations SET locale = '{"timezone":"NZST","country":"NZ"}' WHERE id = $1`, [mine.id]);
    expect((await list()).find((o) => o.id === mine.id)?.locale).toEqual({ timezone: 'Pacific/Auckland', country: 'NZ' });
    await s.ctx.db.query(`UPDATE organisations SET locale = '{"timezone":"Australia/Perth","country":"AU"}' WHERE id = $1`, [mine.id]);
    expect((await list()).find((o) => o.id === mine.id)?.locale.timezone).toBe('Australia/Perth');
  });

  it('every rename keeps the old slug with the organisation, newest first; taking a slug back drops it from the history', async () => {
    const [before] = await list();
    expect(before.formerSlugs).toEqual([]);
    await rename(mine.id, 'mine-renamed');
    await new Promise((r) => setTimeout(r, 5));
    await rename(mine.id, 'mine-again');
    expect((await list())[0]).toMatchObject({ slug: 'mine-again', formerSlugs: ['mine-renamed', before.slug] });
    await rename(mine.id, before.slug);
    expect((await list())[0]).toMatchObject({ slug: before.slug, formerSlugs: ['mine-again', 'mine-renamed'] });
  });

  it("another organisation's former slugs are never served to a stranger", async () => {
    await rename(theirs.id, 'theirs-renamed');
    expect((await list(strangerToken))[0].formerSlugs?.length).toBe(1);
    expect((await list()).flatMap((o) => o.formerSlugs ?? [])).not.toContain(expect.stringMatching(/^theirs/));
  });
});
