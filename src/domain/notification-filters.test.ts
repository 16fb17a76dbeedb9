import { describe, expect, it } from 'vitest';
import type { SensorNotification } from '../contract/notification.schema';
import { compareNotifications, filtersFromQuery, filtersToQuery, matchesFilters, placeLiveNotification } from './notification-filters';
import { orderNotifications } from './notification-rules';

const S1 = '11111111-1111-4111-8111-111111111111';
const S2 = '22222222-2222-4222-8222-222222222222';
const n = (id: string, type: SensorNotification['meta']['type'], startTime: number, endTime: number | null = null, endless = false, sensorId = S1): SensorNotification => ({
  id,
  sensorId,
  startTime,
  endTime,
  endless,
  meta: { type },
});

describe('notification filters (issue 32)', () => {
  it('reads the URL query, leaving out values the server would refuse', () => {
    expect(filtersFromQuery(new URLSearchParams(`type=LOW_BATTERY&state=open&sensor=${S1.toUpperCase()}`))).toEqual({ type: 'LOW_BATTERY', state: 'open', sensor: S1 });
    expect(filtersFromQuery(new URLSearchParams('type=NOPE&state=maybe&sensor=F0000001'))).toEqual({});
    expect(filtersToQuery({ state: 'closed', sensor: S2 }).toString()).toBe(`state=closed&sensor=${S2}`);
    expect(filtersToQuery({}).toString()).toBe('');
  });

  it('matches as the server filters: open is ACTIVE, closed is ended or endless', () => {
    const active = n('a', 'THRESHOLD_ALARM', 10);
    const cleared = n('b', 'THRESHOLD_ALARM', 10, 20);
    const endless = n('c', 'DELTA_ALARM', 10, null, true);
    expect([active, cleared, endless].map((x) => matchesFilters(x, { state: 'open' }))).toEqual([true, false, false]);
    expect([active, cleared, endless].map((x) => matchesFilters(x, { state: 'closed' }))).toEqual([false, true, true]);
    expect(matchesFilters(active, { type: 'DELTA_ALARM' })).toBe(false);
    expect(matchesFilters(active, { sensor: S2 })).toBe(false);
    expect(matchesFilters(active, { type: 'THRESHOLD_ALARM', sensor: S1, state: 'open' })).toBe(true);
  });

  it('orders as the spec does, ties broken by id', () => {
    const list = [n('d', 'DELTA_ALARM', 50), n('b', 'LOW_BATTERY', 10), n('a', 'LOW_BATTERY', 10), n('t', 'THRESHOLD_ALARM', 1), n('w', 'WATER_LEVEL_ALARM', 2)];
    const sorted = [...list].sort(compareNotifications);
    expect(sorted.map((x) => x.id)).toEqual(['w', 't', 'a', 'b', 'd']);
    expect(orderNotifications(sorted).map((x) => x.id)).toEqual(sorted.map((x) => x.id));
  });

  it('places a live notification in order, only within the loaded pages, and drops one that no longer passes', () => {
    const loaded = [n('t', 'THRESHOLD_ALARM', 100), n('o', 'SENSOR_OFFLINE', 100)];
    expect(placeLiveNotification(loaded, n('b', 'LOW_BATTERY', 5), {}, false).map((x) => x.id)).toEqual(['t', 'b', 'o']);
    // past the last loaded card: a later page brings it, unless every page is loaded
    expect(placeLiveNotification(loaded, n('d', 'DELTA_ALARM', 5), {}, false).map((x) => x.id)).toEqual(['t', 'o']);
    expect(placeLiveNotification(loaded, n('d', 'DELTA_ALARM', 5), {}, true).map((x) => x.id)).toEqual(['t', 'o', 'd']);
    // filtered out, and closed while the page shows only open ones
    expect(placeLiveNotification(loaded, n('x', 'LOW_BATTERY', 5, null, false, S2), { sensor: S1 }, true)).toBe(loaded);
    expect(placeLiveNotification(loaded, n('t', 'THRESHOLD_ALARM', 100, 200), { state: 'open' }, true).map((x) => x.id)).toEqual(['o']);
    // closed in place
    const closed = placeLiveNotification(loaded, n('t', 'THRESHOLD_ALARM', 100, 200), {}, false);
    expect(closed.map((x) => [x.id, x.endTime])).toEqual([['t', 200], ['o', null]]);
  });
});
