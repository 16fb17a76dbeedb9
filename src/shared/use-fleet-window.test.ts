import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Virtualizer } from '@tanstack/react-virtual';
import { observeRectAfterLayout } from './use-fleet-window';

describe('observeRectAfterLayout: the list viewport measured after the browser lays the page out', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('reads no size while the list mounts (no forced layout), then reports each size the ResizeObserver sees, and stops', () => {
    let report: (() => void) | undefined;
    const disconnect = vi.fn();
    vi.stubGlobal(
      'ResizeObserver',
      class {
        constructor(cb: () => void) {
          report = cb;
        }
        observe() {}
        disconnect = disconnect;
      },
    );
    const reads = { n: 0 };
    const size = { width: 400, height: 700 };
    const element = {
      get clientWidth() {
        reads.n++;
        return size.width;
      },
      get clientHeight() {
        reads.n++;
        return size.height;
      },
    };
    const cb = vi.fn();
    const stop = observeRectAfterLayout({ scrollElement: element } as unknown as Virtualizer<HTMLDivElement, Element>, cb);
    expect(reads.n).toBe(0);
    expect(cb).not.toHaveBeenCalled();
    report!();
    expect(cb).toHaveBeenLastCalledWith({ width: 400, height: 700 });
    size.height = 500;
    report!();
    expect(cb).toHaveBeenLastCalledWith({ width: 400, height: 500 });
    stop?.();
    expect(disconnect).toHaveBeenCalled();
  });

  it('without a viewport yet it watches nothing', () => {
    expect(observeRectAfterLayout({ scrollElement: null } as unknown as Virtualizer<HTMLDivElement, Element>, vi.fn())).toBeUndefined();
  });
});
