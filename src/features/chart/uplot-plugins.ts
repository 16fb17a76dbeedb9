import type uPlot from 'uplot';
import { DateTime } from 'luxon';
import type { Guide } from './chart-scales';

/** Tooltip hide delay (monitoring-client 9). */
export const TOOLTIP_HIDE_MS = 1000;

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
    ctx.strokeStyle = g.color;
    ctx.fillStyle = g.color;
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
