// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, renderHook } from '@testing-library/react';
import { EXPORT_DISABLED_MS } from './route-format';
import { useExportCooldown } from './use-exporter';

describe('the Export button cooldown (organisation-and-routes 4: disabled for 2 seconds after a click)', () => {
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  it('is off until a click, on for 2 s after it, then off again', () => {
    vi.useFakeTimers();
    const { result } = renderHook(() => useExportCooldown());
    expect(EXPORT_DISABLED_MS).toBe(2000);
    expect(result.current[0]).toBe(false);
    act(() => result.current[1]());
    expect(result.current[0]).toBe(true);
    act(() => vi.advanceTimersByTime(1999));
    expect(result.current[0]).toBe(true);
    act(() => vi.advanceTimersByTime(1));
    expect(result.current[0]).toBe(false);
  });

  it('a second click during the cooldown starts it again', () => {
    vi.useFakeTimers();
    const { result } = renderHook(() => useExportCooldown());
    act(() => result.current[1]());
    act(() => vi.advanceTimersByTime(1500));
    act(() => result.current[1]());
    act(() => vi.advanceTimersByTime(1500));
    expect(result.current[0]).toBe(true);
    act(() => vi.advanceTimersByTime(500));
    expect(result.current[0]).toBe(false);
  });
});
