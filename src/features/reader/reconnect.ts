import type { Actor } from 'xstate';
import type { readerSyncMachine } from '../../../machines/reader-sync.machine';

/** How often, while a send is backing off, the app asks whether the server answers again. */
export const PROBE_MS = 5_000;

export interface ReconnectOptions {
  /** Resolves true when the server answers (a cheap request); never rejects. */
  probe: () => Promise<boolean>;
  everyMs?: number;
  /** The page whose return to the foreground is worth a try at once (the reader takes the phone out). */
  page?: Pick<Document, 'visibilityState' | 'addEventListener' | 'removeEventListener'>;
  /** Subscribes to the app's own requests that succeed (the task list, a download); returns the stop. */
  answers?: (listener: () => void) => () => void;
}

/**
 * A failed send backs off for up to 30 s (the machine's cap), and a phone whose connection comes back
 * without an `online` event (the browser thought it was online all along: a dead cell, a captive
 * portal) would wait that long. While the queue backs off, the server is probed every `everyMs`;
 * when it answers, the machine is told (REACHABLE) and retries at once. Coming back to the
 * foreground does the same, and so does any of the app's own requests succeeding meanwhile (the
 * server answered it: no need to wait for the next probe). Returns the stop.
 */
export function retryWhenReachable(sync: Actor<typeof readerSyncMachine>, { probe, everyMs = PROBE_MS, page, answers }: ReconnectOptions): () => void {
  let timer: ReturnType<typeof setInterval> | undefined;
  let probing = false;
  const backingOff = () => sync.getSnapshot().matches('backoff');
  const retry = () => {
    if (backingOff()) sync.send({ type: 'REACHABLE' });
  };
  const tick = () => {
    if (probing || !backingOff()) return;
    probing = true;
    void probe()
      .then((up) => up && retry())
      .finally(() => (probing = false));
  };
  const watch = sync.subscribe((s) => {
    if (s.matches('backoff')) timer ??= setInterval(tick, everyMs);
    else if (timer !== undefined) {
      clearInterval(timer);
      timer = undefined;
    }
  });
  const onVisible = () => {
    if (page?.visibilityState === 'visible') retry();
  };
  page?.addEventListener('visibilitychange', onVisible);
  const stopAnswers = answers?.(retry);
  return () => {
    stopAnswers?.();
    watch.unsubscribe();
    if (timer !== undefined) clearInterval(timer);
    page?.removeEventListener('visibilitychange', onVisible);
  };
}

/** The probe the app uses: the gateway's health check, never from a cache. */
export const serverAnswers = (url = '/api/health') =>
  fetch(url, { cache: 'no-store' }).then(
    (r) => r.ok,
    () => false,
  );
