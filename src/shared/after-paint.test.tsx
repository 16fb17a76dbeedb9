// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { AFTER_PAINT_MAX_WAIT_MS, useAfterPaint } from './after-paint';
import { afterFirstDraw } from './first-draw';

function Page() {
  const rest = useAfterPaint();
  return (
    <>
      <p>first</p>
      {rest && <p>rest</p>}
    </>
  );
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'requestAnimationFrame', 'cancelAnimationFrame', 'requestIdleCallback', 'cancelIdleCallback'] });
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('useAfterPaint', () => {
  it('draws the first part alone, and the rest in the task after the next frame', async () => {
    render(<Page />);
    expect(screen.getByText('first')).toBeTruthy();
    expect(screen.queryByText('rest')).toBeNull();
    await act(async () => {
      vi.advanceTimersToNextFrame();
    });
    // the frame's callback queued the task; the paint comes first
    expect(screen.queryByText('rest')).toBeNull();
    await act(async () => {
      vi.advanceTimersByTime(1);
    });
    expect(screen.getByText('rest')).toBeTruthy();
  });

  it('draws the rest after AFTER_PAINT_MAX_WAIT_MS when no frame comes (a hidden tab), holding deferred work (the live connection) back until then', async () => {
    vi.stubGlobal('requestAnimationFrame', () => 0);
    render(<Page />);
    const start = vi.fn();
    const cancel = afterFirstDraw(start);
    await act(async () => {
      vi.advanceTimersByTime(AFTER_PAINT_MAX_WAIT_MS - 1);
    });
    expect(screen.queryByText('rest')).toBeNull();
    expect(start).not.toHaveBeenCalled();
    await act(async () => {
      vi.advanceTimersByTime(1);
    });
    expect(screen.getByText('rest')).toBeTruthy();
    await act(async () => {
      vi.advanceTimersByTime(1_000);
    });
    expect(start).toHaveBeenCalledTimes(1);
    cancel();
  });
});
