// Work the first screen does not need (the live connection, and with it mqtt.js) waits until the
// views on screen have drawn their first data and the main thread is idle: on a phone it would
// otherwise share the network and the main thread with the chunks, requests and renders that draw
// the page (benchmark 21).

/** The longest deferred work waits for views still loading (a slow or failed load does not keep it back for ever). */
export const FIRST_DRAW_MAX_WAIT_MS = 10_000;
/** Once nothing holds it back, the longest it waits for an idle main thread. */
const IDLE_TIMEOUT_MS = 1_000;

let holds = 0;
let scheduled = false;
const waiting = new Set<() => void>();

// Safari has no requestIdleCallback: the next task instead
const whenIdle = (fn: () => void) => (typeof requestIdleCallback === 'function' ? requestIdleCallback(fn, { timeout: IDLE_TIMEOUT_MS }) : setTimeout(fn, 0));

function settle() {
  if (scheduled || holds > 0 || waiting.size === 0) return;
  scheduled = true;
  whenIdle(() => {
    scheduled = false;
    // a view mounted meanwhile (the chart under a sensor record just drawn) holds it back again
    if (holds > 0) return;
    [...waiting].forEach((go) => go());
  });
}

/** A view loading its first data holds deferred work back; call the returned release once its data is drawn, has failed, or the view is gone. */
export function holdFirstDraw(): () => void {
  holds++;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    holds--;
    settle();
  };
}

/** Runs `start` once no view holds first draw back and the main thread is idle (at the latest FIRST_DRAW_MAX_WAIT_MS after asking); returns the cancel. */
export function afterFirstDraw(start: () => void): () => void {
  const go = () => {
    cancel();
    start();
  };
  const timer = setTimeout(go, FIRST_DRAW_MAX_WAIT_MS);
  const cancel = () => {
    clearTimeout(timer);
    waiting.delete(go);
  };
  waiting.add(go);
  settle();
  return cancel;
}
