import { describe, expect, it, vi } from 'vitest';
import { READ_TIMEOUT_MS } from '../src/shared/api';
import { SUMMARY_FIELDS } from '../src/contract/sensor-summary.schema';
import { EARLY_LOAD_TTL_MS, Fleet, FleetWorker } from './fleet';

const row = (name: string, serial: string, id = `id-${serial}`, battery: unknown = 80) => [id, serial, name, -41, 174, true, 1, false, false, battery, 1, 1000, 3000, 0, 2000, null];
const body = (rows: unknown[]) => ({ fields: [...SUMMARY_FIELDS], rows });

describe('the fleet in the data worker (issue 32)', () => {
  it('holds the list sorted by name, answers the rows asked for, and searches with the spec rules', () => {
    const f = new Fleet();
    const loaded = f.load(body([row('zeta', 'AA000001'), row('Alpha', 'AA000002'), row('mid', 'AA000003')]));
    expect(loaded).toMatchObject({ total: 3, count: 3, invalid: [] });
    expect(f.rows(0, 10).rows.map((r) => r.sensor.name)).toEqual(['Alpha', 'mid', 'zeta']);
    expect(f.rows(1, 2).rows).toEqual([{ index: 1, sensor: expect.objectContaining({ name: 'mid' }) }]);
    expect(f.setQuery('alpah').count).toBe(1);
    expect(f.rows(0, 10).rows.map((r) => r.sensor.serial)).toEqual(['AA000002']);
    // the rows name the search they answer (a view searching as the user types offers only those of its query)
    expect(f.rows(0, 10).query).toBe('alpah');
    expect(f.find('AA000001')).toMatchObject({ index: -1 });
    expect(f.setQuery('  ').count).toBe(3);
    expect(f.rows(0, 10).query).toBe('  ');
  });

  it('keeps every valid sensor and marks the malformed one (issue 36 item 12)', () => {
    const f = new Fleet();
    const loaded = f.load(body([row('Alpha', 'AA000001'), row('Broken', 'AA000002', 'id-2', 'low'), 'not a row']));
    expect(loaded.total).toBe(2);
    expect(loaded.invalid).toEqual([
      { serial: 'AA000002', fields: ['battery'] },
      { serial: 'row 3', fields: ['row'] },
    ]);
    expect(f.rows(0, 2).rows[1]!.sensor.invalid).toEqual(['battery']);
  });

  it('applies live uplinks and answers only the changed rows inside the window held', () => {
    const f = new Fleet();
    f.load(body(Array.from({ length: 100 }, (_, i) => row(`Sensor ${String(i).padStart(3, '0')}`, `AB${String(i).padStart(6, '0')}`))));
    const before = f.rows(0, 10).rows[5]!.sensor;
    const r = f.applyLive(
      [
        { sensorId: 'id-AB000005', latestData: { alertAsserted: true } },
        { sensorId: 'id-AB000050', latestData: { battery: 5 } },
        { sensorId: 'unknown', latestData: { battery: 5 } },
      ],
      0,
      10,
    );
    expect(r.rows.map((x) => x.index)).toEqual([5]);
    expect(r.rows[0]!.sensor.latestData?.alertAsserted).toBe(true);
    expect(f.rows(0, 10).rows[4]!.sensor).toBe(f.rows(0, 10).rows[4]!.sensor);
    expect(f.rows(5, 6).rows[0]!.sensor).not.toBe(before);
    expect(f.rows(50, 51).rows[0]!.sensor.latestData?.battery).toBe(5);
  });

  it('tells the map which sensors a live batch touched and whether a mapped status changed (monitoring-client 4: alert shows as ALERT)', () => {
    const f = new Fleet();
    f.load(body([row('Alpha', 'AA000001'), row('Beta', 'AA000002')]));
    const quiet = f.applyLive([{ sensorId: 'id-AA000002', latestData: { battery: 70 } }], 0, 0);
    expect(quiet).toMatchObject({ serials: ['AA000002'], statusChanged: false, rows: [] });
    const alarm = f.applyLive([{ sensorId: 'id-AA000001', latestData: { alertAsserted: true } }], 0, 0);
    expect(alarm).toMatchObject({ serials: ['AA000001'], statusChanged: true });
    expect(f.find('AA000001')?.sensor.latestData?.alertAsserted).toBe(true);
  });

  it('builds the organisation CSV of the whole fleet', () => {
    const f = new Fleet();
    f.load(body([row('Alpha', 'AA000001')]));
    expect(f.csv().split('\r\n')[1]).toBe('AA000001,Alpha,100.0,,2.000,-41.000,174.000');
  });

  it('fetches the compact list with the token, and a failure is the server text', async () => {
    const calls: [string, RequestInit | undefined][] = [];
    const w = new FleetWorker({
      fetch: async (input, init) => {
        calls.push([String(input), init]);
        return new Response(JSON.stringify(body([row('Alpha', 'AA000001')])), { status: 200 });
      },
    });
    expect(await w.fleetLoad({ apiBase: 'http://x/api', token: 'tok', orgId: 'o1' })).toMatchObject({ total: 1, count: 1 });
    // a first page that holds every sensor is the whole list: nothing more is asked for
    expect(calls.map((c) => c[0])).toEqual(['http://x/api/organisations/o1/sensors?view=summary&limit=100']);
    expect((calls[0]![1]!.headers as Record<string, string>).Authorization).toBe('tok');
    const failing = new FleetWorker({ fetch: async () => new Response('{"code":"FORBIDDEN"}', { status: 403 }) });
    await expect(failing.fleetLoad({ apiBase: 'http://x/api', token: 't', orgId: 'o1' })).rejects.toThrow('FORBIDDEN');
  });

  it('draws the first page while the whole list loads, then holds the whole list with the uplinks that came meanwhile (issue 32)', async () => {
    const fleet = Array.from({ length: 300 }, (_, i) => row(`Sensor ${String(i).padStart(3, '0')}`, `AC${String(i).padStart(6, '0')}`));
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const w = new FleetWorker({
      fetch: async (input) => {
        if (String(input).endsWith('&limit=100')) return new Response(JSON.stringify({ ...body(fleet.slice(0, 100)), total: 300 }));
        await held;
        return new Response(JSON.stringify(body(fleet)));
      },
    });
    const first = await w.fleetLoad({ apiBase: 'http://x/api', token: 't', orgId: 'o1' });
    expect(first).toMatchObject({ total: 300, count: 300, complete: false });
    // the page's rows are answered; rows past it are not yet known
    expect((await w.fleetRows(98, 102)).rows.map((r) => r.index)).toEqual([98, 99]);
    // a search waits for the whole list; an uplink meanwhile reaches it
    const searching = w.fleetSearch('Sensor 250');
    await w.fleetLive([{ sensorId: 'id-AC000250', latestData: { battery: 7 } }], 0, 0);
    release();
    const whole = await w.fleetComplete();
    expect(whole).toMatchObject({ total: 300, complete: true });
    expect((await searching).count).toBeGreaterThan(0);
    expect((await w.fleetRows(0, 1)).rows[0]!.sensor.serial).toBe('AC000250');
    expect((await w.fleetFind('AC000250'))!.sensor.latestData?.battery).toBe(7);
    expect((await w.fleetMapOverview()).count).toBe(300);
  });

  it('asks for the whole list once the first page is in, not beside it (the page is not queued behind the whole list)', async () => {
    const asked: string[] = [];
    let answerPage!: () => void;
    const pageHeld = new Promise<void>((r) => (answerPage = r));
    const fleet = Array.from({ length: 300 }, (_, i) => row(`Sensor ${String(i).padStart(3, '0')}`, `AE${String(i).padStart(6, '0')}`));
    const w = new FleetWorker({
      fetch: async (input) => {
        asked.push(String(input));
        if (String(input).endsWith('&limit=100')) {
          await pageHeld;
          return new Response(JSON.stringify({ ...body(fleet.slice(0, 100)), total: 300 }));
        }
        return new Response(JSON.stringify(body(fleet)));
      },
    });
    const loading = w.fleetLoad({ apiBase: 'http://x/api', token: 't', orgId: 'o1' });
    await new Promise((r) => setTimeout(r, 10));
    expect(asked).toEqual(['http://x/api/organisations/o1/sensors?view=summary&limit=100']);
    answerPage();
    expect(await loading).toMatchObject({ total: 300, complete: false });
    expect(await w.fleetComplete()).toMatchObject({ total: 300, complete: true });
    expect(asked).toEqual(['http://x/api/organisations/o1/sensors?view=summary&limit=100', 'http://x/api/organisations/o1/sensors?view=summary']);
  });

  it('a prefetch begun before the page asks is the page\'s load; it leaves a load already begun alone, and a later or another organisation\'s load is its own', async () => {
    const fleet = Array.from({ length: 300 }, (_, i) => row(`Sensor ${String(i).padStart(3, '0')}`, `AF${String(i).padStart(6, '0')}`));
    const make = () => {
      const asked: string[] = [];
      const w = new FleetWorker({
        fetch: async (input) => {
          asked.push(String(input).replace('http://x/api/organisations/', ''));
          if (String(input).endsWith('&limit=100')) return new Response(JSON.stringify({ ...body(fleet.slice(0, 100)), total: 300 }));
          return new Response(JSON.stringify(body(fleet)));
        },
      });
      return { w, asked };
    };
    const req = (orgId: string) => ({ apiBase: 'http://x/api', token: 't', orgId });

    // taken: the page's load asks for nothing more
    const a = make();
    await a.w.fleetPrefetch(req('o1'));
    expect(await a.w.fleetLoad(req('o1'))).toMatchObject({ total: 300 });
    expect(await a.w.fleetComplete()).toMatchObject({ complete: true });
    expect(a.asked).toEqual(['o1/sensors?view=summary&limit=100', 'o1/sensors?view=summary']);
    // taken once: the next load of the organisation (a reload) asks again
    await a.w.fleetLoad(req('o1'));
    expect(a.asked).toHaveLength(4);

    // the page's own load came first: the prefetch does nothing, and the page's load is not replaced
    const b = make();
    const pages = b.w.fleetLoad(req('o1'));
    await b.w.fleetPrefetch(req('o1'));
    expect(await pages).toMatchObject({ total: 300 });
    expect(b.asked.filter((x) => x.endsWith('limit=100'))).toHaveLength(1);

    // another organisation's page: its own load, the prefetch's answer is not taken
    const c = make();
    await c.w.fleetPrefetch(req('o1'));
    await c.w.fleetLoad(req('o2'));
    expect(c.asked.filter((x) => x.startsWith('o2/'))).toHaveLength(2);

    // a prefetch not taken within EARLY_LOAD_TTL_MS is not taken
    const d = make();
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      await d.w.fleetPrefetch(req('o1'));
      await d.w.fleetComplete();
      vi.setSystemTime(Date.now() + EARLY_LOAD_TTL_MS + 1);
      await d.w.fleetLoad(req('o1'));
      expect(d.asked.filter((x) => x.endsWith('limit=100'))).toHaveLength(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('fails as a lost network when the whole list stops coming for READ_TIMEOUT_MS, not while it keeps coming however long it takes', async () => {
    vi.useFakeTimers();
    try {
      const fleet = Array.from({ length: 300 }, (_, i) => row(`Sensor ${String(i).padStart(3, '0')}`, `AD${String(i).padStart(6, '0')}`));
      const text = JSON.stringify(body(fleet));
      const parts = [text.slice(0, 1000), text.slice(1000, 2000), text.slice(2000)];
      // the whole list in three parts, each after `gap` ms; `stop` parts are sent before it goes quiet
      const slow = (gap: number, stop = parts.length) =>
        new FleetWorker({
          fetch: async (input, init) => {
            if (String(input).endsWith('&limit=100')) return new Response(JSON.stringify({ ...body(fleet.slice(0, 100)), total: 300 }));
            let sent = 0;
            // as fetch's body does, the stream fails when the request's signal aborts
            const stream = new ReadableStream<Uint8Array>({
              start: (c) => init?.signal?.addEventListener('abort', () => c.error(new DOMException('aborted', 'AbortError'))),
              async pull(c) {
                if (sent === stop) return new Promise<void>(() => undefined);
                await new Promise((r) => setTimeout(r, gap));
                c.enqueue(new TextEncoder().encode(parts[sent++]));
                if (sent === parts.length) c.close();
              },
            });
            return new Response(stream);
          },
        });
      const req = { apiBase: 'http://x/api', token: 't', orgId: 'o1' };

      // a part every two thirds of the limit: the read takes twice the limit and succeeds
      const steady = slow((READ_TIMEOUT_MS * 2) / 3);
      expect(await steady.fleetLoad(req)).toMatchObject({ complete: false });
      const whole = steady.fleetComplete();
      await vi.advanceTimersByTimeAsync(READ_TIMEOUT_MS * 2 + 10);
      await expect(whole).resolves.toMatchObject({ total: 300, complete: true });

      // one part, then nothing: the page stands until the limit, then the load fails as "Failed to fetch"
      const stalled = slow(10, 1);
      expect(await stalled.fleetLoad(req)).toMatchObject({ complete: false });
      const failed = stalled.fleetComplete();
      failed.catch(() => undefined);
      await vi.advanceTimersByTimeAsync(READ_TIMEOUT_MS - 100);
      expect(await Promise.race([failed.then(() => 'settled', () => 'settled'), Promise.resolve('waiting')])).toBe('waiting');
      await vi.advanceTimersByTimeAsync(200);
      await expect(failed).rejects.toThrow('Failed to fetch');
      // a first page that never answers gives way to the whole list's own failure, not a wait for ever
      const silent = new FleetWorker({ fetch: (_input, init) => new Promise<Response>((_, reject) => init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')))) });
      const loading = silent.fleetLoad(req);
      loading.catch(() => undefined);
      await vi.advanceTimersByTimeAsync(READ_TIMEOUT_MS + 10);
      await expect(loading).rejects.toThrow('Failed to fetch');
    } finally {
      vi.useRealTimers();
    }
  });

  it('asks once when the first page is the whole list (a small fleet), and the first page failing leaves the whole list to answer', async () => {
    const asked: string[] = [];
    const small = new FleetWorker({
      fetch: async (input, init) => {
        asked.push(String(input));
        if (String(input).endsWith('&limit=100')) return new Response(JSON.stringify({ ...body([row('Alpha', 'AA000001')]), total: 1 }));
        // the whole list's request is abandoned
        return new Promise<Response>((_, reject) => init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))));
      },
    });
    expect(await small.fleetLoad({ apiBase: 'http://x/api', token: 't', orgId: 'o1' })).toMatchObject({ total: 1, complete: true });
    expect(await small.fleetComplete()).toMatchObject({ total: 1, complete: true });
    const noPage = new FleetWorker({
      fetch: async (input) => (String(input).includes('limit') ? new Response('{"code":"INTERNAL"}', { status: 500 }) : new Response(JSON.stringify(body([row('Alpha', 'AA000001'), row('Beta', 'AA000002')])))),
    });
    expect(await noPage.fleetLoad({ apiBase: 'http://x/api', token: 't', orgId: 'o1' })).toMatchObject({ total: 2, complete: true });
  });

  it('applies a refresh\'s change set: in place when only latest data changed (the search and the map stand), re-sorted when a sensor arrives, leaves, is renamed or moves', () => {
    const f = new Fleet();
    f.load({ ...body([row('Alpha', 'AA000001'), row('Beta', 'AA000002'), row('Gamma', 'AA000003')]), cursor: 10 });
    expect(f.cursor).toBe(10);
    expect(f.setQuery('beta').count).toBe(1);
    const map = f.mapIndex();
    const v = f.rows(0, 1).version;
    // Beta's latest data: in place, the search still shows it, the map keeps its clustering and learns the status
    const quiet = f.applyChanges({ ...body([row('Beta', 'AA000002').map((x, i) => (i === 7 ? true : x))]), removed: [], cursor: 20 });
    expect(quiet).toMatchObject({ total: 3, count: 1, complete: true, invalid: [] });
    expect(f.cursor).toBe(20);
    expect(f.rows(0, 1)).toMatchObject({ rows: [{ index: 0, sensor: { serial: 'AA000002', latestData: { alertAsserted: true } } }] });
    expect(f.rows(0, 1).version).toBeGreaterThan(v);
    expect(f.mapIndex()).toBe(map);
    // an arrival, a departure and a rename: re-sorted, searched again
    f.setQuery('');
    f.applyChanges({ ...body([row('Aardvark', 'AA000009'), row('Zulu', 'AA000003', 'id-AA000003')]), removed: ['id-AA000001', 'id-unknown'], cursor: 30 });
    expect(f.rows(0, 10).rows.map((r) => r.sensor.name)).toEqual(['Aardvark', 'Beta', 'Zulu']);
    expect(f.find('AA000001')).toBeUndefined();
    expect(f.setQuery('zulu').count).toBe(1);
    // a sensor both left and came back within the change set is held
    f.setQuery('');
    f.applyChanges({ ...body([row('Beta', 'AA000002')]), removed: ['id-AA000002'], cursor: 40 });
    expect(f.size).toBe(3);
    // a whole list in place of a change set (a cursor the server could not answer from) replaces it
    f.applyChanges({ ...body([row('Only', 'AA000005')]), cursor: 50 });
    expect(f.rows(0, 10).rows.map((r) => r.sensor.name)).toEqual(['Only']);
  });

  it('refreshes by asking for the changes since its cursor, with the uplinks that came meanwhile applied over them; without a whole list held it loads one', async () => {
    const asked: string[] = [];
    let answer: unknown = { ...body([row('Alpha', 'AA000001'), row('Beta', 'AA000002')]), total: 2, cursor: 1000 };
    let during: (() => Promise<void>) | undefined;
    const w = new FleetWorker({
      fetch: async (input) => {
        asked.push(String(input));
        await during?.();
        return new Response(JSON.stringify(answer));
      },
    });
    const req = { apiBase: 'http://x/api', token: 't', orgId: 'o1' };
    await w.fleetLoad(req);
    asked.length = 0;
    answer = { ...body([row('Beta', 'AA000002', 'id-AA000002', 50)]), removed: [], cursor: 2000 };
    during = async () => {
      during = undefined;
      await w.fleetLive([{ sensorId: 'id-AA000002', latestData: { battery: 49, lastSeen: 2 } }], 0, 0);
    };
    expect(await w.fleetRefresh(req)).toMatchObject({ total: 2, complete: true });
    expect(asked).toEqual(['http://x/api/organisations/o1/sensors?view=summary&since=1000']);
    expect((await w.fleetFind('AA000002'))!.sensor.latestData?.battery).toBe(49);
    // the next refresh asks from the new cursor
    answer = { ...body([]), removed: ['id-AA000001'], cursor: 3000 };
    expect(await w.fleetRefresh(req)).toMatchObject({ total: 1 });
    expect(asked[1]).toBe('http://x/api/organisations/o1/sensors?view=summary&since=2000');
    // another organisation: the whole list
    answer = { ...body([row('Other', 'BB000001')]), cursor: 10 };
    expect(await w.fleetRefresh({ ...req, orgId: 'o2' })).toMatchObject({ total: 1 });
    expect(asked[2]).toBe('http://x/api/organisations/o2/sensors?view=summary');
  });
  it('after a failed load of another organisation, the refresh reads that organisation\'s whole list, not the changes to the list held before (the notifications filter\'s recovery)', async () => {
    const asked: string[] = [];
    let failing = false;
    const w = new FleetWorker({
      fetch: async (input) => {
        asked.push(String(input));
        if (failing) return new Response('{"code":"INTERNAL","message":"Server error"}', { status: 500 });
        return new Response(JSON.stringify(String(input).includes('/o1/') ? { ...body([row('Alpha', 'AA000001')]), cursor: 1000 } : { ...body([row('Other', 'BB000001'), row('Second', 'BB000002')]), cursor: 20 }));
      },
    });
    const req = { apiBase: 'http://x/api', token: 't', orgId: 'o1' };
    await w.fleetLoad(req);
    failing = true;
    await expect(w.fleetLoad({ ...req, orgId: 'o2' })).rejects.toThrow('Server error');
    failing = false;
    asked.length = 0;
    // the minute's refresh for o2: o1's list is still held, but it is not o2's
    expect(await w.fleetRefresh({ ...req, orgId: 'o2' })).toMatchObject({ total: 2, complete: true });
    expect(asked).toEqual(['http://x/api/organisations/o2/sensors?view=summary']);
    expect((await w.fleetRows(0, 5)).rows.map((r) => r.sensor.serial)).toEqual(['BB000001', 'BB000002']);
  });
});
