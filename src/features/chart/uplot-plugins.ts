import { forecastBand, forecastYAt, type ForecastLine } from './forecast-line';
import type uPlot from 'uplot';
import { DateTime } from 'luxon';
import type { Guide } from './chart-scales';
import { darkenTo, lightenTo } from '../../domain/contrast';

/** Tooltip hide delay (monitoring-client 9). */
export const TOOLTIP_HIDE_MS = 1000;

// a guide's own colour, darkened (lightened in the dark scheme) only as far as WCAG needs on the
// plot (issue 16): 3:1 for its line, 4.5:1 for its label
const inks = new Map<string, { line: string; text: string }>();
const DARK_PLOT = '#242424';
const inkOf = (colour: string) => {
  const dark = document.documentElement.getAttribute('data-mantine-color-scheme') === 'dark';
  const key = `${colour}/${dark}`;
  let ink = inks.get(key);
  if (!ink) {
    const hex = /^#[0-9a-f]{3,6}$/i.test(colour) ? colour : '#868e96';
    ink = dark
      ? { line: lightenTo(hex, [DARK_PLOT], 3), text: lightenTo(hex, [DARK_PLOT], 4.5) }
      : { line: darkenTo(hex, ['#ffffff'], 3), text: darkenTo(hex, ['#ffffff'], 4.5) };
    inks.set(key, ink);
  }
  return ink;
};

/** Reference lines and display limits, drawn on the canvas after the series (no DOM per line). */
export function drawGuides(u: uPlot, guides: readonly Guide[]) {
  if (guides.length === 0) return;
  const { ctx } = u;
  const { left, top, width, height } = u.bbox;
  const dpr = uPlotPxRatio();
  ctx.save();
  ctx.beginPath();
  ctx.rect(left, top, width, height);
  ctx.clip();
  ctx.font = `${11 * dpr}px system-ui, sans-serif`;
  ctx.textAlign = 'right';
  for (const g of guides) {
    const y = Math.round(u.valToPos(g.value, 'y', true)) + 0.5;
    if (y < top || y > top + height) continue;
    const ink = inkOf(g.color);
    ctx.strokeStyle = ink.line;
    ctx.fillStyle = ink.text;
    ctx.lineWidth = dpr;
    ctx.setLineDash(g.dashed ? [4 * dpr, 4 * dpr] : []);
    ctx.beginPath();
    ctx.moveTo(left, y);
    ctx.lineTo(left + width, y);
    ctx.stroke();
    // the label sits above its line, or below it when the line is at the top of the plot
    const above = y - 14 * dpr > top;
    ctx.textBaseline = above ? 'bottom' : 'top';
    ctx.fillText(g.label, left + width - 4 * dpr, above ? y - 2 * dpr : y + 3 * dpr);
  }
  ctx.restore();
}

/** The dash of the forecast line: unlike the data's solid line and the guides' 4-on-4 dash. */
export const FORECAST_DASH = [8, 5];

/**
 * A tank's forecast (issue 38) after the latest point: its band (to the early and late crossings of
 * the target, bent as the line is) shaded, the line at the rolling rate dashed (through its points: see ForecastLine),
 * and its label at the end, in a grey that is not the data's colour.
 */
export function drawForecast(u: uPlot, f: ForecastLine, dark: boolean) {
  const { ctx } = u;
  const { left, top, width, height } = u.bbox;
  const dpr = uPlotPxRatio();
  const x = (t: number) => u.valToPos(t, 'x', true);
  const y = (v: number) => u.valToPos(v, 'y', true);
  const ink = dark ? '#adb5bd' : '#495057';
  ctx.save();
  ctx.beginPath();
  ctx.rect(left, top, width, height);
  ctx.clip();
  ctx.fillStyle = dark ? 'rgba(173, 181, 189, 0.16)' : 'rgba(73, 80, 87, 0.12)';
  ctx.beginPath();
  forecastBand(f).forEach(([t, v], i) => (i ? ctx.lineTo(x(t), y(v)) : ctx.moveTo(x(t), y(v))));
  ctx.closePath();
  ctx.fill();
  ctx.strokeStyle = ink;
  ctx.lineWidth = 1.5 * dpr;
  ctx.setLineDash(FORECAST_DASH.map((d) => d * dpr));
  // a polyline: straight in Water Volume mode, the levels of the falling volume in Water Level mode
  ctx.beginPath();
  f.points.forEach(([t, v], i) => (i ? ctx.lineTo(x(t), y(v)) : ctx.moveTo(x(t), y(v))));
  ctx.stroke();
  // the label above the line where it leaves the plot (or at its end), right-aligned, inside the plot
  const right = left + width;
  const ex = Math.min(x(f.x1), right);
  const ey = y(forecastYAt(f.points, u.posToVal(ex, 'x', true)));
  ctx.fillStyle = ink;
  ctx.font = `${11 * dpr}px system-ui, sans-serif`;
  ctx.textBaseline = 'bottom';
  ctx.textAlign = 'right';
  ctx.fillText(f.label, ex - 4 * dpr, Math.max(top + 14 * dpr, ey - 6 * dpr));
  ctx.restore();
}

const uPlotPxRatio = () => (typeof devicePixelRatio === 'number' ? devicePixelRatio : 1);

interface TooltipProps {
  unit: string;
  decimals: number;
  timeZone: string;
}

/**
 * A cursor tooltip that writes text only when the hovered point changes and hides 1 s after the
 * cursor leaves the plot.
 */
export function makeTooltip(props: () => TooltipProps) {
  const box = document.createElement('div');
  box.setAttribute('role', 'tooltip');
  box.dataset.testid = 'chart-tooltip';
  Object.assign(box.style, {
    position: 'absolute',
    pointerEvents: 'none',
    display: 'none',
    zIndex: '10',
    padding: '4px 8px',
    borderRadius: '4px',
    font: '12px system-ui, sans-serif',
    background: 'rgba(33, 37, 41, 0.9)',
    color: '#fff',
    whiteSpace: 'nowrap',
  } satisfies Partial<CSSStyleDeclaration>);
  let shownIdx = -1;
  let hideTimer: ReturnType<typeof setTimeout> | undefined;

  const hide = () => {
    box.style.display = 'none';
    shownIdx = -1;
  };

  return {
    plugin: { hooks: { init: (u: uPlot) => void u.over.appendChild(box) } } satisfies uPlot.Plugin,
    onCursor(u: uPlot) {
      const idx = u.cursor.idx;
      if (idx == null || u.cursor.left == null || u.cursor.left < 0) {
        if (box.style.display !== 'none' && hideTimer === undefined) hideTimer = setTimeout(() => ((hideTimer = undefined), hide()), TOOLTIP_HIDE_MS);
        return;
      }
      if (hideTimer !== undefined) {
        clearTimeout(hideTimer);
        hideTimer = undefined;
      }
      const x = u.data[0][idx];
      const y = u.data[1][idx];
      if (idx !== shownIdx && x != null && y != null) {
        const p = props();
        box.textContent = `${DateTime.fromSeconds(x, { zone: p.timeZone }).toFormat('dd/MM/yyyy HH:mm:ss')}  ${y.toFixed(p.decimals)} ${p.unit}`;
        shownIdx = idx;
      }
      box.style.display = 'block';
      const left = u.valToPos(x, 'x');
      box.style.left = `${Math.min(Math.max(0, left + 10), Math.max(0, u.over.clientWidth - box.offsetWidth))}px`;
      box.style.top = `${Math.max(0, u.valToPos(y ?? 0, 'y') - 34)}px`;
    },
    destroy() {
      clearTimeout(hideTimer);
      box.remove();
    },
  };
}
