// @vitest-environment happy-dom
import { useCallback, useEffect, useMemo, useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { createSensorSearch, SEARCH_DEBOUNCE_MS } from '../../domain/sensor-search';
import type { FleetHandle } from '../../shared/use-fleet';
import type { SensorSummary } from '../../domain/sensor-summary';
import { SensorFilter } from './sensor-filter';

/**
 * A stand-in for the data worker's fleet (useFleet): its search answers when the test says, as a
 * busy worker's would, and its rows are those of the last search answered, named by that query.
 */
const worker = {
  fleet: [] as SensorSummary[],
  applied: '',
  asked: [] as string[],
  version: 1,
  /** The fleet's load failed, with this reason (useFleet's error state). */
  failure: undefined as string | undefined,
  /** A retry's load is under way (useFleet's loading state). */
  loading: false,
  /** The fleet's loads asked for again (useFleet's reload). */
  reloads: 0,
  listeners: new Set<() => void>(),
  /** The worker answers its latest search. */
  answer() {
    this.applied = this.asked.at(-1) ?? '';
    this.version++;
    this.listeners.forEach((l) => l());
  },
  /** A later read of the fleet succeeds: the list is ready, its first rows those of the latest search. */
  recover() {
    this.failure = undefined;
    this.loading = false;
    this.answer();
  },
  /** useFleet's reload: loading until the test says how it ended. */
  reload() {
    this.reloads++;
    this.failure = undefined;
    this.loading = true;
    this.listeners.forEach((l) => l());
  },
  /** The retry's load failed again. */
  failAgain(reason: string) {
    this.failure = reason;
    this.loading = false;
    this.listeners.forEach((l) => l());
  },
};

function useFakeFleet(): FleetHandle {
  const [version, setVersion] = useState(worker.version);
  const [, setTick] = useState(0);
  useEffect(() => {
    const l = () => {
      setVersion(worker.version);
      setTick((t) => t + 1);
    };
    worker.listeners.add(l);
    return () => void worker.listeners.delete(l);
  }, []);
  const search = useCallback((query: string) => void worker.asked.push(query), []);
  const rows = useCallback(async (start: number, end: number) => {
    const shown = createSensorSearch(worker.fleet)(worker.applied);
    return { version: worker.version, count: shown.length, query: worker.applied, rows: shown.slice(start, end).map((sensor, i) => ({ index: start + i, sensor })) };
  }, []);
  const reload = useCallback(async () => worker.reload(), []);
  const failure = worker.failure;
  const loading = worker.loading;
  return useMemo(
    () =>
      ({
        state:
          failure !== undefined
            ? { status: 'error', message: failure }
            : loading
              ? { status: 'loading' }
              : { status: 'ready', total: worker.fleet.length, count: worker.fleet.length, version, loads: 1, partial: false },
        search,
        rows,
        reload,
      }) as unknown as FleetHandle,
    [failure, loading, version, search, rows, reload],
  );
}

vi.mock('../../shared/use-fleet', () => ({ useFleet: () => useFakeFleet() }));

const sensor = (i: number, name: string): SensorSummary => ({ id: `s${i}`, name, serial: `AA${String(i).padStart(6, '0')}` }) as SensorSummary;
const names = ['Alpha Bore', 'Bravo Tank', 'Charlie Weir', 'Delta Flow', 'Harbour Tide Gauge', 'Kilo River'];

const options = () => screen.queryAllByRole('option').map((o) => o.textContent);
const typeQuery = (value: string) => fireEvent.change(screen.getByRole('combobox', { name: 'Sensor' }), { target: { value } });
/** The worker's answer reaches the view (promises, effects: no timers). */
const settle = () => act(async () => {});
const debounce = () => act(() => vi.advanceTimersByTime(SEARCH_DEBOUNCE_MS));

/** Monitoring-client 5 (search, fuzzy over name and serial, debounced 200 ms) in the notifications page's sensor filter. */
describe('notifications sensor filter', () => {
  beforeEach(() => {
    worker.fleet = names.map((n, i) => sensor(i + 1, n));
    worker.applied = '';
    worker.asked = [];
    worker.version = 1;
    worker.failure = undefined;
    worker.loading = false;
    worker.reloads = 0;
    vi.useFakeTimers();
  });
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  const show = (onChange = vi.fn(), value?: string, label?: string) => {
    render(
      <MantineProvider env="test">
        <SensorFilter orgId="o1" value={value} label={label} onChange={onChange} />
      </MantineProvider>,
    );
    const box = screen.getByRole('combobox', { name: 'Sensor' });
    // focused for real: Mantine takes a change to an input without focus for the browser's autofill
    act(() => box.focus());
    fireEvent.click(box);
    return onChange;
  };

  it('offers only the answer to the query typed: "Searching…" until the worker has searched it, never the rows of another query', async () => {
    const onChange = show();
    // an empty query: the fleet's first rows
    await settle();
    expect(options()).toHaveLength(names.length);

    typeQuery('harbour');
    expect(options()).toEqual([]);
    expect(screen.getByText('Searching…')).toBeTruthy();
    // debounced 200 ms: not searched a moment before
    act(() => vi.advanceTimersByTime(SEARCH_DEBOUNCE_MS - 1));
    expect(worker.asked).not.toContain('harbour');
    act(() => vi.advanceTimersByTime(1));
    expect(worker.asked.at(-1)).toBe('harbour');
    // searched, not yet answered: still nothing to click
    expect(options()).toEqual([]);
    expect(screen.getByText('Searching…')).toBeTruthy();

    act(() => worker.answer());
    await settle();
    expect(options()).toEqual(['Harbour Tide Gauge · AA000005']);
    expect(screen.queryByText('Searching…')).toBeNull();

    // a new query: the last one's matches are gone at once, not offered until the new answer
    typeQuery('bravo');
    expect(options()).toEqual([]);
    expect(screen.getByText('Searching…')).toBeTruthy();
    debounce();
    act(() => worker.answer());
    await settle();
    expect(options()).toEqual(['Bravo Tank · AA000002']);
    fireEvent.click(screen.getByRole('option', { name: 'Bravo Tank · AA000002' }));
    expect(onChange).toHaveBeenCalledWith('s2');
  });

  it('says so when the answer has no match', async () => {
    show();
    typeQuery('zzzz');
    debounce();
    act(() => worker.answer());
    await settle();
    expect(screen.getByText('No sensor matches')).toBeTruthy();
    expect(options()).toEqual([]);
  });

  it('the chosen sensor is offered beside the fleet\'s first rows, not among the matches of a query it does not answer', async () => {
    show(vi.fn(), 's5', 'Harbour Tide Gauge · AA000005');
    await settle();
    expect(options()).toHaveLength(names.length);
    typeQuery('bravo');
    debounce();
    act(() => worker.answer());
    await settle();
    expect(options()).toEqual(['Bravo Tank · AA000002']);
  });

  it('says the sensors could not be loaded, as the sensors page does (monitoring-client 8), not "Searching…" for ever, while the fleet\'s load has failed', async () => {
    worker.failure = 'Unable to connect to the product. Please check your internet connection and try again.';
    show();
    await settle();
    expect(screen.getByText('Unable to load sensor information')).toBeTruthy();
    expect(screen.getByText('Unable to connect to the product. Please check your internet connection and try again.')).toBeTruthy();
    expect(screen.queryByText('Searching…')).toBeNull();
    typeQuery('bravo');
    debounce();
    await settle();
    expect(screen.getByText('Unable to load sensor information')).toBeTruthy();
    expect(screen.queryByText('Searching…')).toBeNull();
    expect(options()).toEqual([]);

    // a later read of the fleet succeeds (its periodic refresh): the failure goes, the query is answered
    act(() => worker.recover());
    await settle();
    expect(screen.queryByText('Unable to load sensor information')).toBeNull();
    expect(options()).toEqual(['Bravo Tank · AA000002']);
  });
  it('"Try again" in the failure loads the fleet again: "Searching…" while it loads, the failure again if it fails, the sensors once it succeeds', async () => {
    const offline = 'Unable to connect to the product. Please check your internet connection and try again.';
    worker.failure = offline;
    show();
    await settle();
    expect(screen.getByText('Unable to load sensor information')).toBeTruthy();
    expect(worker.reloads).toBe(0);

    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await settle();
    expect(worker.reloads).toBe(1);
    expect(screen.queryByText('Unable to load sensor information')).toBeNull();
    expect(screen.getByText('Searching…')).toBeTruthy();

    // the retry fails too: its reason, and the control again
    act(() => worker.failAgain('Something went wrong.'));
    await settle();
    expect(screen.getByText('Unable to load sensor information')).toBeTruthy();
    expect(screen.getByText('Something went wrong.')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await settle();
    expect(worker.reloads).toBe(2);
    act(() => worker.recover());
    await settle();
    expect(screen.queryByText('Unable to load sensor information')).toBeNull();
    expect(options()).toEqual(names.map((n, i) => `${n} · AA00000${i + 1}`));
  });

  it('opened again after a failed load, the filter loads the fleet again', async () => {
    worker.failure = 'Something went wrong.';
    show();
    await settle();
    expect(screen.getByText('Unable to load sensor information')).toBeTruthy();
    const box = screen.getByRole('combobox', { name: 'Sensor' });
    // closed (Escape), then opened again
    fireEvent.keyDown(box, { key: 'Escape' });
    await settle();
    expect(worker.reloads).toBe(0);
    fireEvent.click(box);
    await settle();
    expect(worker.reloads).toBe(1);
    act(() => worker.recover());
    await settle();
    expect(options()).toHaveLength(names.length);
  });
});
