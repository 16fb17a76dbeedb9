import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Virtualizer } from '@tanstack/react-virtual';
import { observeRectAfterLayout, scrollAfterFirst } from './use-fleet-window';

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

describe('scrollAfterFirst: no scroll of a new list to the top it is at', () => {
  const virtualizer = (scrollOffset: number | null) => {
    const scrollTo = vi.fn();
    const instance = { scrollElement: { scrollTo }, options: { horizontal: false }, scrollOffset } as unknown as Virtualizer<HTMLDivElement, Element>;
    return { instance, scrollTo };
  };

  it("skips the virtualiser's first write of offset 0 to a viewport at the top (that scroll forces the page's layout in the commit)", () => {
    const { instance, scrollTo } = virtualizer(null);
    scrollAfterFirst(0, {}, instance);
    expect(scrollTo).not.toHaveBeenCalled();
    // a row further down is scrolled to; from then on every write is made, the top included
    scrollAfterFirst(480, { behavior: 'auto' }, instance);
    expect(scrollTo).toHaveBeenLastCalledWith({ top: 480, behavior: 'auto' });
    scrollAfterFirst(0, {}, instance);
    expect(scrollTo).toHaveBeenLastCalledWith({ top: 0, behavior: undefined });
  });

  it('scrolls to the top a viewport the user has scrolled down (a new search starts at the top)', () => {
    const { instance, scrollTo } = virtualizer(1200);
    scrollAfterFirst(0, {}, instance);
    expect(scrollTo).toHaveBeenCalledWith({ top: 0, behavior: undefined });
  });

  it('makes a write of 0 with adjustments', () => {
    const { instance, scrollTo } = virtualizer(0);
    scrollAfterFirst(0, { adjustments: 36 }, instance);
    expect(scrollTo).toHaveBeenCalledWith({ top: 36, behavior: undefined });
  });
});
