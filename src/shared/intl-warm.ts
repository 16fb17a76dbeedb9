/**
 * Has ICU's time-zone and locale data loaded on another thread of this renderer process while the
 * page boots (src/shared/intl-warm.worker.ts), so the first date the page formats does not load it
 * in a main-thread task of its own (benchmark 22's long tasks: `canonical` in time-zone.ts, 52 to
 * 89 ms). The worker ends once it has; if it cannot start, the page loads the data as before.
 */
export function warmIntlOffMainThread(): void {
  if (typeof Worker === 'undefined') return;
  try {
    const w = new Worker(new URL('./intl-warm.worker.ts', import.meta.url), { type: 'module' });
    const end = () => w.terminate();
    w.addEventListener('message', end);
    w.addEventListener('error', end);
  } catch {
    // no worker here (a CSP or a browser without module workers): the first formatter loads it
  }
}
