// A screen whose first commit would be one long task can draw what the eye goes to first (a
// dashboard's latest measurement) in one commit and mount the rest (the chart, whose toolbar,
// pickers and uPlot are most of the work) in the next task, once the browser has painted the
// first: the largest text is on screen sooner and no single task holds the page for both
// (docs/performance.md, The signed-in dashboard).
import { startTransition, useEffect, useState } from 'react';
import { holdFirstDraw } from './first-draw';

/** A hidden tab paints no frames: the deferred part mounts after this long at the latest. */
export const AFTER_PAINT_MAX_WAIT_MS = 100;

/**
 * False on the first render and true once the browser has painted it (the task after the next
 * animation frame), or after AFTER_PAINT_MAX_WAIT_MS. Until then it holds deferred work back
 * (first-draw.ts), as the views it mounts will.
 */
export function useAfterPaint(): boolean {
  const [painted, setPainted] = useState(false);
  useEffect(() => {
    if (painted) return;
    const release = holdFirstDraw();
    // as a transition React renders the deferred part in slices of about 5 ms, yielding to the
    // browser between them (a plain update renders it in one task), and commits it once
    const paint = () => startTransition(() => setPainted(true));
    let timer = window.setTimeout(paint, AFTER_PAINT_MAX_WAIT_MS);
    const frame = requestAnimationFrame(() => {
      // a task queued in a frame's callbacks runs after that frame's paint
      window.clearTimeout(timer);
      timer = window.setTimeout(paint, 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      window.clearTimeout(timer);
      release();
    };
  }, [painted]);
  return painted;
}
