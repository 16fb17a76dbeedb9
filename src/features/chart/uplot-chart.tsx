import { memo, useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { ViewResult } from '../../../workers/data-api';
import type { TimeRange } from '../../domain/date-presets';
import { yRange, type Guide } from './chart-scales';
import { baseOptions } from './uplot-options';
import { drawForecast, drawGuides, FORECAST_DASH, makeTooltip, TOOLTIP_HIDE_MS } from './uplot-plugins';
import type { ForecastLine } from './forecast-line';

export interface UplotChartProps {
  height: number;
  /** Typed arrays from the worker: x in epoch seconds, y in the chart's unit. */
  data: ViewResult | null;
  /** The x window in ms (the picked range, the zoom, or Live's last hour). */
  xWindow: TimeRange | null;
  yZoom: boolean;
  guides: readonly Guide[];
  /** Whether the display limits widen the full-scale Y range (levels: yes). */
  limitsInRange: boolean;
  unit: string;
  decimals: number;
  timeZone: string;
  color: string;
  onZoom(window: TimeRange): void;
  onResetZoom(): void;
  /** Plot width in canvas pixels: the M4 bucket count that makes the downsampled line pixel-exact. */
  onPlotWidth(px: number): void;
  /** The keyboard cursor's point (an index into data), shown as uPlot's cursor and tooltip (issue 16). */
  cursorIndex?: number | null;
  /** Points further apart than this (ms) are left unjoined: set while a range is still arriving. */
  breakGapsOverMs?: number | null;
  /** A tank's forecast after the latest point: the x axis reaches past the window to show it (issue 38). */
  forecast?: ForecastLine | null;
}

/** One frame at 60 Hz (ms). */
const FRAME_MS = 1000 / 60;
const EMPTY: uPlot.AlignedData = [new Float64Array(0), new Float64Array(0)];

/**
 * uPlot behind refs: created once, fed typed arrays with setData at most once per animation
 * frame (at once when nothing was drawn in the last frame). React renders nothing per frame; props land in a ref the hooks read.
 */
export const UplotChart = memo(function UplotChart(props: UplotChartProps) {
  const host = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const live = useRef(props);
  live.current = props;
  const frame = useRef(0);

  // uPlot is made in the task after the commit that mounts its host: the chart pane's React commit
  // and uPlot's own DOM, measurement and first draw are then two tasks of a page's load, not one
  // (benchmark 22's longest-task rows, docs/performance.md)
  useEffect(() => {
    let made: (() => void) | undefined;
    const timer = window.setTimeout(() => (made = makePlot()));
    return () => {
      window.clearTimeout(timer);
      made?.();
    };
  }, []);

  function makePlot(): () => void {
    const el = host.current!;
    const p = live.current;
    const tooltip = makeTooltip(() => live.current);
    // axis text in the page's own text colour: 4.5:1 in the light and the dark scheme alike
    const css = getComputedStyle(el);
    const dark = document.documentElement.getAttribute('data-mantine-color-scheme') === 'dark';
    const ink = dark ? { text: css.color, grid: '#2e2e2e', tick: '#424242' } : undefined;
    const base = baseOptions({
      ink,
      width: Math.max(200, el.clientWidth),
      height: p.height,
      color: p.color,
      xRange: () => {
        const { xWindow: w, forecast } = live.current;
        return w ? [w.start / 1000, forecast ? Math.max(forecast.xMax, w.end / 1000) : w.end / 1000] : null;
      },
      yRange: (min, max) => yRange(live.current.data?.min ?? min, live.current.data?.max ?? max, live.current.yZoom, live.current.guides, live.current.limitsInRange),
      timeZone: () => live.current.timeZone,
      decimals: () => live.current.decimals,
      gapSec: () => (live.current.breakGapsOverMs ? live.current.breakGapsOverMs / 1000 : Infinity),
    });
    const opts: uPlot.Options = {
      ...base,
      cursor: {
        drag: { x: true, y: false, setScale: false },
        points: { size: 7 },
        bind: { dblclick: () => () => (live.current.onResetZoom(), null) },
      },
      select: { show: true, left: 0, top: 0, width: 0, height: 0 },
      hooks: {
        draw: [
          (u) => {
            drawGuides(u, live.current.guides);
            const { forecast } = live.current;
            if (forecast) drawForecast(u, forecast, dark);
            // what was drawn, for people reading the DOM (tests, benchmarks): no layout, no React
            const d = el.dataset;
            d.points = String(u.data[0].length);
            d.xMin = String(live.current.xWindow?.start ?? '');
            d.xMax = String(live.current.xWindow?.end ?? '');
            d.yMin = String(u.scales.y.min);
            d.yMax = String(u.scales.y.max);
            // the forecast as drawn: its ends (epoch s, chart unit), its dash and its points, never part of the data
            d.forecast = forecast ? JSON.stringify({ x0: forecast.x0, y0: forecast.y0, x1: forecast.x1, y1: forecast.y1, early: forecast.early, late: forecast.late, dash: FORECAST_DASH, xMax: u.scales.x.max, points: forecast.points }) : '';
            d.drawn = String(performance.now());
          },
        ],
        setCursor: [tooltip.onCursor],
        setSelect: [
          (u) => {
            const { left, width } = u.select;
            if (width < 3) return;
            u.setSelect({ left: 0, top: 0, width: 0, height: 0 }, false);
            // a drag over the forecast zooms up to the data's end, not into the future
            const end = Math.min(u.posToVal(left + width, 'x') * 1000, live.current.forecast && live.current.xWindow ? live.current.xWindow.end : Infinity);
            const start = u.posToVal(left, 'x') * 1000;
            if (end > start) live.current.onZoom({ start, end });
          },
        ],
      },
      plugins: [tooltip.plugin],
    };
    const u = new uPlot(opts, EMPTY, el);
    plot.current = u;
    // the plot's width to the page (a React render) and what arrived before it was made, in the
    // next task: uPlot's DOM and layout, and the page's render with the first data drawn, are two
    // tasks of a page's load, not one (docs/performance.md)
    const first = window.setTimeout(() => {
      live.current.onPlotWidth(u.bbox.width);
      if (drawnAt.current === -Infinity) drawNow();
    });
    let lastWidth = el.clientWidth;
    const resize = new ResizeObserver(() => {
      const w = el.clientWidth;
      if (w === lastWidth || w === 0) return;
      lastWidth = w;
      u.setSize({ width: w, height: live.current.height });
      live.current.onPlotWidth(u.bbox.width);
    });
    resize.observe(el);
    return () => {
      window.clearTimeout(first);
      resize.disconnect();
      cancelAnimationFrame(frame.current);
      tooltip.destroy();
      u.destroy();
      plot.current = null;
    };
  }

  // the keyboard cursor: uPlot's own cursor and tooltip on that point (none: moved off the plot)
  const { cursorIndex } = props;
  useEffect(() => {
    const u = plot.current;
    const d = live.current.data;
    if (!u || cursorIndex == null || !d || cursorIndex >= d.time.length) return;
    const id = requestAnimationFrame(() => u.setCursor({ left: u.valToPos(d.time[cursorIndex]!, 'x'), top: u.valToPos(d.value[cursorIndex]!, 'y') }));
    return () => cancelAnimationFrame(id);
  }, [cursorIndex]);
  useEffect(() => {
    if (cursorIndex == null) plot.current?.setCursor({ left: -10, top: -10 });
  }, [cursorIndex]);

  // at most one setData per frame, whatever arrived in between: the first change after a quiet
  // frame draws at once (a range already held is drawn without waiting for the next frame), a
  // change within a frame of a draw waits for the next frame
  const { data, xWindow, yZoom, guides, height, forecast } = props;
  const drawnAt = useRef(-Infinity);
  /** Draws the props as they are now (nothing until uPlot is made; making it draws them). */
  function drawNow() {
    const u = plot.current;
    if (!u) return;
    const { data: d, height: h } = live.current;
    drawnAt.current = performance.now();
    if (u.height !== h) u.setSize({ width: u.width, height: h });
    u.setData(d ? [d.time, d.value] : EMPTY, true);
  }
  useEffect(() => {
    cancelAnimationFrame(frame.current);
    if (performance.now() - drawnAt.current > FRAME_MS) drawNow();
    else frame.current = requestAnimationFrame(drawNow);
  }, [data, xWindow, yZoom, guides, height, forecast]);

  return <div ref={host} data-testid="chart-plot" data-tooltip-hide-ms={TOOLTIP_HIDE_MS} style={{ width: '100%', minHeight: height }} />;
});
