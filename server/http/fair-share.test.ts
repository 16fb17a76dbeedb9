import { describe, expect, it } from 'vitest';
import { FairShare } from './fair-share';
import { HttpError } from './errors';

const limits = { perUser: 2, perOrg: 3, waitingPerUser: 2, memoryCeiling: 1000 };
const tick = () => new Promise((r) => setImmediate(r));

describe('fair shares of heavy work (issue 35)', () => {
  it('runs at most perUser calls of one user at once; the rest wait their turn', async () => {
    const share = new FairShare(limits, () => 0);
    const a1 = await share.acquire('a', 'org1');
    await share.acquire('a', 'org1');
    let third = false;
    void share.acquire('a', 'org1').then(() => (third = true));
    await tick();
    expect(third).toBe(false);
    expect(share.load).toEqual({ running: 2, waiting: 1 });
    a1();
    await tick();
    expect(third).toBe(true);
  });

  it('refuses a user with waitingPerUser calls already waiting: 429 with Retry-After', async () => {
    const share = new FairShare(limits, () => 0);
    await share.acquire('a', 'org1');
    await share.acquire('a', 'org1');
    void share.acquire('a', 'org1');
    void share.acquire('a', 'org1');
    const refused = await share.acquire('a', 'org1').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(HttpError);
    expect(refused).toMatchObject({ status: 429, code: 'TOO_MANY_REQUESTS', headers: { 'Retry-After': '1' } });
  });

  it('another organisation is never behind one user’s queue, and an organisation’s members share perOrg', async () => {
    const share = new FairShare(limits, () => 0);
    await share.acquire('a', 'org1');
    await share.acquire('a', 'org1');
    void share.acquire('a', 'org1'); // a's third waits
    // another member of org1 gets the organisation's third place; a fourth member of org1 waits
    await share.acquire('b', 'org1');
    let c = false;
    void share.acquire('c', 'org1').then(() => (c = true));
    // another organisation starts at once
    const other = await Promise.race([share.acquire('z', 'org2').then(() => 'started'), tick().then(() => 'waiting')]);
    expect(other).toBe('started');
    await tick();
    expect(c).toBe(false);
  });

  it('above the memory ceiling heavy work is refused with 503 and Retry-After instead of growing', async () => {
    let used = 500;
    const share = new FairShare(limits, () => used);
    (await share.acquire('a', 'org1'))();
    used = 2000;
    const refused = await share.acquire('a', 'org1').catch((e: unknown) => e);
    expect(refused).toMatchObject({ status: 503, code: 'SERVER_BUSY', headers: { 'Retry-After': '5' } });
  });

  it('a release counts once, and run releases on failure', async () => {
    const share = new FairShare({ ...limits, perUser: 1 }, () => 0);
    const release = await share.acquire('a', 'org1');
    release();
    release();
    await expect(share.run('a', 'org1', () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(share.load).toEqual({ running: 0, waiting: 0 });
  });
});
