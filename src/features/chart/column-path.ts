import type uPlot from 'uplot';

/**
 * The line's path, drawn one pixel column at a time: first point, lowest, highest, last, as
 * uPlot's own decimation draws a dense column. Columns are the core's M4 columns
 * (round(W * (x - min) / span)), so the M4 output and the raw points it came from give the same
 * path, pixel for pixel, at any density (benchmark 5). uPlot's linear path decimates only at 4
 * points per pixel, and with other column edges, so the two would differ.
 *
 * gapSec() gives a span (seconds) the line does not bridge: two points further apart are left
 * unjoined. The chart uses it while a range is still arriving, so a chunk not yet fetched reads as
 * a gap, not as a straight line across it; Infinity joins every point.
 */
export const columnPathBreaking = (gapSec: () => number): uPlot.Series.PathBuilder => (u, seriesIdx, idx0, idx1) => {
  const xs = u.data[0];
  const ys = u.data[seriesIdx];
  const sx = u.scales.x;
  const { left, width } = u.bbox;
  const stroke = new Path2D();
  if (sx.min == null || sx.max == null || idx1 < idx0) return { stroke, fill: null, clip: null, band: null };
  const s0 = sx.min;
  const span = sx.max - s0 > 0 ? sx.max - s0 : 1;
  const W = width;
  const key = u.series[seriesIdx].scale ?? 'y';
  const py = (v: number) => Math.round(u.valToPos(v, key, true));

  let col = NaN;
  let x = 0;
  let first = 0;
  let lo = 0;
  let hi = 0;
  let last = 0;
  let open = false;
  const gap = gapSec();
  let prevX = NaN;
  const flush = () => {
    const pin = py(first);
    const pmin = py(lo);
    const pmax = py(hi);
    const pout = py(last);
    if (pmin === pmax) return;
    if (pin !== pmin && pout !== pmin) stroke.lineTo(x, pmin);
    if (pin !== pmax && pout !== pmax) stroke.lineTo(x, pmax);
    stroke.lineTo(x, pout);
  };
  for (let i = idx0; i <= idx1; i++) {
    const v = ys[i];
    if (v == null) continue;
    const c = Math.floor(W * ((xs[i] - s0) / span) + 0.5);
    const jump = xs[i] - prevX > gap;
    prevX = xs[i];
    if (c !== col || jump) {
      if (open) flush();
      col = c;
      x = left + c;
      if (jump) stroke.moveTo(x, py(v));
      else stroke.lineTo(x, py(v));
      first = lo = hi = last = v;
      open = true;
    } else {
      last = v;
      if (v < lo) lo = v;
      else if (v > hi) hi = v;
    }
  }
  if (open) flush();
  return { stroke, fill: null, clip: null, band: null };
};

/** The line through every point (benchmark 5 draws with it). */
export const columnPath = columnPathBreaking(() => Infinity);
