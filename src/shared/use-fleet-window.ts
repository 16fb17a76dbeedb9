import { useEffect, useRef, useState } from 'react';
import { elementScroll, observeElementRect, useVirtualizer, type VirtualizerOptions, type Virtualizer } from '@tanstack/react-virtual';
import type { SensorSummary } from '../domain/sensor-summary';
import type { FleetHandle } from './use-fleet';

/**
 * TanStack Virtual's own size watch without its first, synchronous measurement: that read of the
 * viewport's size, in the layout effect of the list's first commit, forced the page's whole first
 * layout inside that commit's task (one of the sensors page's loading tasks over 50 ms, benchmark
 * 22). The first render takes the window's size instead (a few rows more than the viewport holds),
 * and the viewport's own size comes from the ResizeObserver's first report, after the browser's
 * own layout.
 */
export function observeRectAfterLayout(instance: Virtualizer<HTMLDivElement, Element>, cb: (rect: { width: number; height: number }) => void) {
  const element = instance.scrollElement;
  if (!element || typeof ResizeObserver === 'undefined') return observeElementRect(instance, cb);
  const observer = new ResizeObserver(() => {
    measured.add(instance);
    cb({ width: element.clientWidth, height: element.clientHeight });
  });
  observer.observe(element, { box: 'content-box' });
  return () => observer.disconnect();
}

/** Virtualisers that have moved their viewport (or been asked to: a scroll to where it is included). */
const scrolled = new WeakSet<object>();

/**
 * TanStack Virtual's scroll without its first write of the offset the viewport is already at: a
 * virtualiser scrolls its new viewport to its offset (0) in the layout effect of the list's first
 * commit, and a scroll makes the browser lay the whole page out in that task, before it has drawn
 * it once (a sensors page loading task over 50 ms, benchmark 22). Any other write is made, and
 * once one has been, every later one is.
 */
export const scrollAfterFirst: VirtualizerOptions<HTMLDivElement, Element>['scrollToFn'] = (offset, options, instance) => {
  if (!scrolled.has(instance) && offset + (options.adjustments ?? 0) === 0 && (instance.scrollOffset ?? 0) === 0) return;
  scrolled.add(instance);
  elementScroll(offset, options, instance);
};

/** How long a search waits for its answer before the list says it is searching (a quick one shows nothing). */
export const SEARCHING_SHOWN_AFTER_MS = 150;

/** `on` once it has held for `afterMs`; false again as soon as it is off. */
function useSlow(on: boolean, afterMs: number): boolean {
  const [slow, setSlow] = useState(false);
  useEffect(() => {
    if (!on) {
      setSlow(false);
      return;
    }
    const timer = setTimeout(() => setSlow(true), afterMs);
    return () => clearTimeout(timer);
  }, [on, afterMs]);
  return on && slow;
}

/** Virtualisers whose viewport's own size has come in (until then their range is the window's guess). */
const measured = new WeakSet<object>();

/** The first render's guess at the viewport: the window (a list's viewport is never larger). */
const windowRect = () => (typeof window === 'undefined' ? { width: 0, height: 0 } : { width: window.innerWidth, height: window.innerHeight });

interface Held {
  version: number;
  rows: Map<number, SensorSummary>;
}

/**
 * A virtualised list over the fleet in the data worker (the sensors list, the map's list): the
 * search applied there, the rows on screen (and `overscan` each way) fetched from it, live batches
 * replacing the held rows they changed, and the selected sensor scrolled into view once.
 */
export function useFleetWindow(fleet: FleetHandle, query: string, { rowHeight, overscan, selectedSerial }: { rowHeight: number; overscan: number; selectedSerial?: string }) {
  const ready = fleet.state.status === 'ready' ? fleet.state : undefined;
  const count = ready?.count ?? 0;
  const version = ready?.version ?? 0;
  const viewport = useRef<HTMLDivElement>(null);
  const virtual = useVirtualizer({ count, getScrollElement: () => viewport.current, estimateSize: () => rowHeight, overscan, observeElementRect: observeRectAfterLayout, scrollToFn: scrollAfterFirst, initialRect: windowRect() });
  const items = virtual.getVirtualItems();
  const start = items[0]?.index ?? 0;
  const end = (items[items.length - 1]?.index ?? -1) + 1;
  const [held, setHeld] = useState<Held>({ version: -1, rows: new Map() });
  const { search, rows, setWindow, onLiveRows, find } = fleet;

  // the query the worker has answered: a search at 100,000 sensors sent while the whole list is
  // still coming waits for it (seconds on a slow line), and the list says it is searching meanwhile
  const [answered, setAnswered] = useState(query);
  useEffect(() => {
    let live = true;
    void search(query).then(() => live && setAnswered(query));
    return () => {
      live = false;
    };
  }, [search, query]);
  const searching = useSlow(answered !== query, SEARCHING_SHOWN_AFTER_MS);
  // a new search starts at the top; the first one is there already (a scroll asks the viewport's
  // size and forces the page's layout inside the commit that draws the list)
  const searched = useRef(query);
  useEffect(() => {
    if (searched.current === query) return;
    searched.current = query;
    virtual.scrollToOffset(0);
  }, [query, virtual]);

  // the rows on screen, from the worker: asked again when the list changes or a row is missing
  const missing = held.version !== version || items.some((v) => !held.rows.has(v.index));
  useEffect(() => {
    setWindow(start, end);
    if (!missing) return;
    let stale = false;
    void rows(start, end).then((r) => {
      if (stale) return;
      setHeld((prev) => {
        const next = new Map(prev.version === r.version ? prev.rows : []);
        for (const row of r.rows) next.set(row.index, row.sensor);
        // only what is near the screen is kept
        for (const k of next.keys()) if (k < start - 4 * overscan || k >= end + 4 * overscan) next.delete(k);
        return { version: r.version, rows: next };
      });
    });
    return () => {
      stale = true;
    };
  }, [start, end, missing, rows, setWindow, version, overscan]);

  // live uplinks: the worker answers the rows held that changed; those rows alone re-render
  useEffect(
    () =>
      onLiveRows((r) => {
        if (r.rows.length === 0) return;
        setHeld((prev) => {
          if (prev.version !== r.version) return prev;
          const next = new Map(prev.rows);
          for (const row of r.rows) if (next.has(row.index)) next.set(row.index, row.sensor);
          return { version: prev.version, rows: next };
        });
      }),
    [onLiveRows],
  );

  // a sensor opened by link (or the bare route) may sit far down the list
  const scrolledTo = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (!selectedSerial || !ready || scrolledTo.current === selectedSerial) return;
    scrolledTo.current = selectedSerial;
    void find(selectedSerial).then((f) => {
      if (!f || f.index < 0) return;
      // a row already on screen (the first sensor of the bare route, above all) needs no scroll,
      // which would ask the viewport's size and force a layout
      const shown = measured.has(virtual) ? virtual.range : null;
      if (!(shown && f.index >= shown.startIndex && f.index <= shown.endIndex)) virtual.scrollToIndex(f.index, { align: 'auto' });
    });
  }, [selectedSerial, ready, find, virtual]);

  return {
    viewport,
    virtual,
    items,
    count,
    ready: !!ready,
    /** A search has been waiting for the worker's answer for SEARCHING_SHOWN_AFTER_MS or more. */
    searching,
    /** The held row at a position of the shown list (undefined while it is fetched). */
    rowAt: (i: number) => (held.version === version ? held.rows.get(i) : undefined),
  };
}
