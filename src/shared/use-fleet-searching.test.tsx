// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, renderHook } from '@testing-library/react';
import type { FleetHandle } from './use-fleet';
import { SEARCHING_SHOWN_AFTER_MS, useFleetWindow } from './use-fleet-window';

/**
 * useFleetWindow's `searching`: a search the worker has not answered for SEARCHING_SHOWN_AFTER_MS
 * (at 100,000 sensors one sent while the whole list still comes waits for it) shows the list as
 * searching until its answer; a quick answer shows nothing. The fleet is a stand-in whose searches
 * answer when the test says.
 */
function fleetWithSearches() {
  const waiting = new Map<string, () => void>();
  const fleet = {
    state: { status: 'ready', total: 10, count: 10, version: 1, loads: 1, partial: false },
    search: vi.fn((q: string) => (q === 'slow' ? new Promise<void>((resolve) => waiting.set(q, resolve)) : Promise.resolve())),
    rows: vi.fn(async () => ({ version: 1, count: 10, query: '', rows: [] })),
    find: vi.fn(async () => undefined),
    setWindow: vi.fn(),
    onLiveRows: vi.fn(() => () => {}),
  } as unknown as FleetHandle;
  return { fleet, answer: (q: string) => act(async () => waiting.get(q)?.()) };
}

describe('useFleetWindow: a search waiting for its answer', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  it(`shows as searching once it has waited ${SEARCHING_SHOWN_AFTER_MS} ms, until the worker answers`, async () => {
    const { fleet, answer } = fleetWithSearches();
    const { result, rerender } = renderHook(({ q }) => useFleetWindow(fleet, q, { rowHeight: 60, overscan: 2 }), { initialProps: { q: '' } });
    await act(async () => {});
    expect(result.current.searching).toBe(false);
    rerender({ q: 'slow' });
    await act(async () => vi.advanceTimersByTime(SEARCHING_SHOWN_AFTER_MS - 1));
    expect(result.current.searching).toBe(false);
    await act(async () => vi.advanceTimersByTime(1));
    expect(result.current.searching).toBe(true);
    await answer('slow');
    expect(result.current.searching).toBe(false);
    expect(fleet.search).toHaveBeenLastCalledWith('slow');
  });

  it('a quick answer never shows it, nor does an older search answered after a newer one was sent', async () => {
    const { fleet, answer } = fleetWithSearches();
    const { result, rerender } = renderHook(({ q }) => useFleetWindow(fleet, q, { rowHeight: 60, overscan: 2 }), { initialProps: { q: 'fast' } });
    await act(async () => vi.advanceTimersByTime(1_000));
    expect(result.current.searching).toBe(false);
    rerender({ q: 'slow' });
    rerender({ q: 'fast' });
    // the slow one's answer comes after the quick one was sent and answered: nothing waits
    await answer('slow');
    await act(async () => vi.advanceTimersByTime(1_000));
    expect(result.current.searching).toBe(false);
  });
});
