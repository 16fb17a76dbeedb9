// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, renderHook } from '@testing-library/react';
import type { FleetLoaded } from '../../workers/fleet';
import { SENSORS_REFRESH_MS, useFleet } from './use-fleet';

/**
 * useFleet after a failed first load (the notifications filter's "Try again" and the sensors list
 * rely on it): the minute's refresh that succeeds shows the list, a failed refresh keeps the
 * failure, and a reload after the failure shows loading, then the list. The data worker is a
 * stand-in whose loads answer as the test says; the rest of the hook is real.
 */
const loaded = (total: number): FleetLoaded => ({ total, count: total, complete: true, version: total, invalid: [] });
const worker = {
  load: vi.fn<() => Promise<FleetLoaded>>(),
  refresh: vi.fn<() => Promise<FleetLoaded>>(),
};
vi.mock('./data-worker', () => ({
  dataWorker: () => ({
    fleetLoad: () => worker.load(),
    fleetRefresh: () => worker.refresh(),
    fleetComplete: async () => loaded(0),
    fleetRows: async () => ({ version: 1, count: 0, query: '', rows: [] }),
    fleetLiveStart: async () => undefined,
    fleetLiveWindow: () => undefined,
    fleetLiveWatch: () => undefined,
    fleetLiveStop: () => undefined,
  }),
  workerToken: async () => 'token',
  workerApiBase: () => 'http://localhost/api',
}));
vi.mock('./live', () => ({ liveBrokerUrl: async () => 'ws://localhost/mqtt' }));
vi.mock('./api', () => ({ gatewayEndpoint: () => '/api' }));

const offline = Object.assign(new TypeError('Failed to fetch'), {});
const settle = () => act(async () => {});

describe('useFleet after a failed first load', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    worker.load.mockReset();
    worker.refresh.mockReset();
  });
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  it('the failure shows until a refresh succeeds; a failed refresh keeps it; the successful one shows the list', async () => {
    worker.load.mockRejectedValue(offline);
    const { result } = renderHook(() => useFleet('o1'));
    await settle();
    expect(result.current.state).toEqual({ status: 'error', message: 'Unable to connect to the product. Please check your internet connection and try again.' });

    worker.refresh.mockRejectedValueOnce(offline);
    await act(async () => vi.advanceTimersByTime(SENSORS_REFRESH_MS));
    await settle();
    expect(worker.refresh).toHaveBeenCalledTimes(1);
    expect(result.current.state.status).toBe('error');

    worker.refresh.mockResolvedValueOnce(loaded(3));
    await act(async () => vi.advanceTimersByTime(SENSORS_REFRESH_MS));
    await settle();
    expect(worker.refresh).toHaveBeenCalledTimes(2);
    expect(result.current.state).toMatchObject({ status: 'ready', total: 3, partial: false });
  });

  it('a reload after the failure shows loading, then the list (or the failure again)', async () => {
    worker.load.mockRejectedValueOnce(offline);
    const { result } = renderHook(() => useFleet('o1'));
    await settle();
    expect(result.current.state.status).toBe('error');

    let answer!: (l: FleetLoaded) => void;
    let fail!: (e: unknown) => void;
    worker.load.mockImplementationOnce(() => new Promise<FleetLoaded>((_, reject) => (fail = reject)));
    let reloading!: Promise<void>;
    act(() => void (reloading = result.current.reload()));
    expect(result.current.state.status).toBe('loading');
    await settle(); // the token, then the worker's load is asked for
    await act(async () => {
      fail(offline);
      await reloading;
    });
    expect(result.current.state.status).toBe('error');

    worker.load.mockImplementationOnce(() => new Promise<FleetLoaded>((resolve) => (answer = resolve)));
    act(() => void (reloading = result.current.reload()));
    expect(result.current.state.status).toBe('loading');
    await settle();
    await act(async () => {
      answer(loaded(2));
      await reloading;
    });
    expect(result.current.state).toMatchObject({ status: 'ready', total: 2 });
  });

  it('a reload of a list shown keeps it shown until the new one is in', async () => {
    worker.load.mockResolvedValueOnce(loaded(1));
    const { result } = renderHook(() => useFleet('o1'));
    await settle();
    expect(result.current.state).toMatchObject({ status: 'ready', total: 1 });
    let answer!: (l: FleetLoaded) => void;
    worker.load.mockImplementationOnce(() => new Promise<FleetLoaded>((resolve) => (answer = resolve)));
    let reloading!: Promise<void>;
    act(() => void (reloading = result.current.reload()));
    expect(result.current.state).toMatchObject({ status: 'ready', total: 1 });
    await settle();
    await act(async () => {
      answer(loaded(2));
      await reloading;
    });
    expect(result.current.state).toMatchObject({ status: 'ready', total: 2 });
  });
});
