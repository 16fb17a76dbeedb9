import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { configureGateway } from './api';
import { EARLY_READ_TTL_MS, ORG_IDS_KEY, dropEarlyReads, notificationsFirstPage, readEarly, sensorRecordPath, startEarlyReads } from './early-reads';

// the data worker: what the early reads ask of it
const prefetched = vi.hoisted(() => [] as unknown[]);
vi.mock('./data-worker', () => ({
  dataWorker: () => ({ fleetPrefetch: async (req: unknown) => void prefetched.push(req) }),
  workerApiBase: () => 'http://x/api',
  workerToken: async () => 'token',
}));

const orgs = { organisations: [{ id: 'org-1', slug: 'riverbend-water' }] };
const record = { sensor: { serial: 'AB12CD34' } };
const firstCards = { notifications: [], sensors: {}, next: null };

/** The gateway over a fake fetch that answers by path and logs what was asked; the organisations' answer waits for `orgsAnswer`. */
function gateway(orgsAnswer: Promise<void> = Promise.resolve()) {
  const asked: string[] = [];
  vi.stubGlobal('fetch', async (url: URL) => {
    asked.push(url.pathname + url.search);
    if (url.pathname === '/api/organisations') return orgsAnswer.then(() => new Response(JSON.stringify(orgs)));
    if (url.pathname === '/api/organisations/org-1/sensors/AB12CD34') return new Response(JSON.stringify(record));
    if (url.pathname === '/api/organisations/org-1/notifications') return new Response(JSON.stringify(firstCards));
    return new Response('{"code":"NOT_FOUND","message":"nope"}', { status: 404 });
  });
  configureGateway({ endpoint: '/api', getIdToken: async () => 'token' });
  return asked;
}

const anyBody = z.object({}).passthrough();

/** The browser's localStorage, in memory (Node has none). */
function memoryStorage(): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (k) => items.get(k) ?? null,
    key: (i) => [...items.keys()][i] ?? null,
    removeItem: (k) => void items.delete(k),
    setItem: (k, v) => void items.set(k, String(v)),
  };
}

/** A promise and its release. */
function gate() {
  let release!: () => void;
  const wait = new Promise<void>((r) => (release = r));
  return { wait, release };
}

describe('early reads (issue 34: a linked dashboard reads its organisations and record beside the user)', () => {
  beforeEach(() => vi.stubGlobal('localStorage', memoryStorage()));
  afterEach(() => {
    dropEarlyReads();
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  it("on a sensor's address, reads the organisations and then that sensor's record; each is taken once, then read anew", async () => {
    const asked = gateway();
    startEarlyReads('/org/riverbend-water/sensors/AB12CD34/setup');
    await vi.waitFor(() => expect(asked).toEqual(['/api/organisations', '/api/organisations/org-1/sensors/AB12CD34']));
    expect(await readEarly('/organisations', anyBody)).toEqual(orgs);
    expect(await readEarly(sensorRecordPath('org-1', 'AB12CD34'), anyBody)).toEqual(record);
    expect(asked).toHaveLength(2);
    // taken: the next read is a new one
    await readEarly('/organisations', anyBody);
    expect(asked).toHaveLength(3);
  });

  it('on the notifications page without filters, reads its first page once the organisations name the slug', async () => {
    const asked = gateway();
    startEarlyReads('/org/riverbend-water/notifications', '');
    await vi.waitFor(() => expect(asked).toEqual(['/api/organisations', '/api/organisations/org-1/notifications?limit=50']));
    expect(notificationsFirstPage('org-1')).toBe('/organisations/org-1/notifications?limit=50');
    expect(await readEarly(notificationsFirstPage('org-1'), anyBody)).toEqual(firstCards);
    expect(asked).toHaveLength(2);
  });

  it("on the sensors list, a sensor's dashboard or the map, has the data worker begin the organisation's fleet once the organisations name the slug", async () => {
    gateway();
    prefetched.length = 0;
    startEarlyReads('/org/riverbend-water/sensors');
    await vi.waitFor(() => expect(prefetched).toEqual([{ apiBase: 'http://x/api', token: 'token', orgId: 'org-1' }]));
    startEarlyReads('/org/riverbend-water/sensors/AB12CD34');
    startEarlyReads('/org/riverbend-water/map/AB12CD34');
    await vi.waitFor(() => expect(prefetched).toHaveLength(3));
    // not for another page, nor a slug the user is not in
    startEarlyReads('/org/riverbend-water/notifications');
    startEarlyReads('/org/elsewhere/sensors');
    await new Promise((r) => setTimeout(r, 10));
    expect(prefetched).toHaveLength(3);
  });

  it('reads only the organisations on any other address, with filters in the query, and for a slug the user is not in', async () => {
    const asked = gateway();
    startEarlyReads('/org/riverbend-water/settings');
    startEarlyReads('/org/riverbend-water/notifications', '?state=open');
    startEarlyReads('/org/elsewhere/sensors/AB12CD34');
    startEarlyReads('/org/elsewhere/notifications');
    await new Promise((r) => setTimeout(r, 10));
    expect(asked).toEqual(['/api/organisations', '/api/organisations', '/api/organisations', '/api/organisations']);
  });

  it('checks what it hands over with the taker\'s schema, hands a failure over as the read\'s, and forgets reads older than the limit or on sign-out', async () => {
    const asked = gateway();
    startEarlyReads('/org/riverbend-water/sensors/FFFF0000');
    await expect(readEarly('/organisations', z.object({ organisations: z.array(z.object({ id: z.number() })) }))).rejects.toThrow();
    await vi.waitFor(() => expect(asked).toContain('/api/organisations/org-1/sensors/FFFF0000'));
    await expect(readEarly(sensorRecordPath('org-1', 'FFFF0000'), anyBody)).rejects.toMatchObject({ status: 404 });

    vi.useFakeTimers({ toFake: ['Date'] });
    const organisationReads = () => asked.filter((p) => p === '/api/organisations').length;
    startEarlyReads('/org/riverbend-water/sensors');
    await vi.waitFor(() => expect(organisationReads()).toBe(2));
    vi.setSystemTime(Date.now() + EARLY_READ_TTL_MS + 1);
    await readEarly('/organisations', anyBody);
    expect(organisationReads()).toBe(3);

    startEarlyReads('/');
    await vi.waitFor(() => expect(organisationReads()).toBe(4));
    dropEarlyReads();
    await readEarly('/organisations', anyBody);
    expect(organisationReads()).toBe(5);
  });

  it("remembers each slug's id from the organisations' answer: the next visit sends its page's read beside the organisations, before their answer", async () => {
    const first = gate();
    const asked = gateway(first.wait);
    // nothing remembered: the page's read waits for the answer
    await startEarlyReads('/org/riverbend-water/notifications'); // resolves once what it read at once is sent
    expect(asked).toEqual(['/api/organisations']);
    first.release();
    await vi.waitFor(() => expect(asked).toHaveLength(2));
    expect(JSON.parse(localStorage.getItem(ORG_IDS_KEY)!)).toEqual({ 'riverbend-water': 'org-1' });
    await readEarly('/organisations', anyBody);
    await readEarly(notificationsFirstPage('org-1'), anyBody);

    // the next page load: both sent before the organisations answer
    const second = gate();
    const again = gateway(second.wait);
    await startEarlyReads('/org/riverbend-water/notifications');
    expect(again).toEqual(['/api/organisations', '/api/organisations/org-1/notifications?limit=50']);
    second.release();
    expect(await readEarly(notificationsFirstPage('org-1'), anyBody)).toEqual(firstCards);
    await readEarly('/organisations', anyBody);
    expect(again).toHaveLength(2); // the answer confirmed the id: nothing read twice
    // a sensor's record and the fleet at once too
    prefetched.length = 0;
    const third = gate();
    const more = gateway(third.wait);
    await startEarlyReads('/org/riverbend-water/sensors/AB12CD34');
    expect(more).toEqual(['/api/organisations', '/api/organisations/org-1/sensors/AB12CD34']);
    await vi.waitFor(() => expect(prefetched).toEqual([{ apiBase: 'http://x/api', token: 'token', orgId: 'org-1' }]));
    third.release();
  });

  it("an id the answer no longer gives the slug: the page's read goes again with the answer's id, the read with the old one is never handed over, and the answer's ids replace the old", async () => {
    localStorage.setItem(ORG_IDS_KEY, JSON.stringify({ 'riverbend-water': 'org-old', gone: 'org-9' }));
    const asked = gateway();
    startEarlyReads('/org/riverbend-water/sensors/AB12CD34');
    await vi.waitFor(() => expect(asked).toEqual(['/api/organisations', '/api/organisations/org-old/sensors/AB12CD34', '/api/organisations/org-1/sensors/AB12CD34']));
    expect(await readEarly(sensorRecordPath('org-1', 'AB12CD34'), anyBody)).toEqual(record);
    await expect(readEarly(sensorRecordPath('org-old', 'AB12CD34'), anyBody)).rejects.toMatchObject({ status: 404 });
    expect(asked).toHaveLength(4); // read anew: the held read of the old id was dropped
    expect(JSON.parse(localStorage.getItem(ORG_IDS_KEY)!)).toEqual({ 'riverbend-water': 'org-1' });
  });

  it('signing out forgets the ids; ids it cannot read are as none', async () => {
    gateway();
    await startEarlyReads('/org/riverbend-water/notifications');
    await vi.waitFor(() => expect(localStorage.getItem(ORG_IDS_KEY)).not.toBeNull());
    dropEarlyReads();
    expect(localStorage.getItem(ORG_IDS_KEY)).toBeNull();
    for (const kept of ['not json', '["org-1"]', '{"riverbend-water": 7}']) {
      localStorage.setItem(ORG_IDS_KEY, kept);
      const held = gate();
      const asked = gateway(held.wait);
      await startEarlyReads('/org/riverbend-water/notifications');
      expect(asked).toEqual(['/api/organisations']);
      held.release();
      await vi.waitFor(() => expect(asked).toHaveLength(2));
      dropEarlyReads();
    }
  });

  it('settles once its reads have failed when they could not be sent (no token), so what waits on it goes on', async () => {
    const asked = gateway();
    configureGateway({ endpoint: '/api', getIdToken: async () => undefined });
    await startEarlyReads('/org/riverbend-water/notifications');
    expect(asked).toEqual([]);
    await expect(readEarly('/organisations', anyBody)).rejects.toMatchObject({ code: 'NOT_LOGGED_IN' });
  });
});
