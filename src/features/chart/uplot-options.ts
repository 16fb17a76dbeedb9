import uPlot from 'uplot';
import { columnPathBreaking } from './column-path';
import { tzDate } from './tz-date';

// 24-hour times and day-month dates (the spec's DD/MM/YYYY HH:mm:ss family), with the larger unit on a second line when it changes
const TIME_TICKS: uPlot.Axis.Values = [
  [3600 * 24 * 365, '{YYYY}', null, null, null, null, null, null, 1],
  [3600 * 24 * 28, '{MMM}', '\n{YYYY}', null, null, null, null, null, 1],
  [3600 * 24, '{D} {MMM}', '\n{YYYY}', null, null, null, null, null, 1],
  [3600, '{HH}:{mm}', '\n{D} {MMM} {YYYY}', null, '\n{D} {MMM}', null, null, null, 1],
  [60, '{HH}:{mm}', '\n{D} {MMM} {YYYY}', null, '\n{D} {MMM}', null, null, null, 1],
  [1, '{HH}:{mm}:{ss}', '\n{D} {MMM} {YYYY}', null, '\n{D} {MMM}', null, null, null, 1],
];

export interface BaseOptionsInput {
  width: number;
  height: number;
  color: string;
  /** x window in epoch seconds, or null to fit the data. */
  xRange: () => [number, number] | null;
  /** y range from the data's extent (uPlot's scan of the drawn points). */
  yRange: (dataMin: number, dataMax: number) => [number, number];
  timeZone: () => string;
  decimals: () => number;
  /** A span (seconds) the line does not bridge (column-path.ts); absent: every point joined. */
  gapSec?: () => number;
  /** Axis text and tick colours in the page's colour scheme (issue 16: dark mode); light by default. */
  ink?: { text: string; grid: string; tick: string };
}

/**
 * The chart's drawing options, shared by the product and benchmark 5 so that both measure the
 * same thing. The y axis has a fixed size: the plot width then does not change with the labels,
 * and the M4 columns asked of the worker stay the plot's pixel columns.
 */
export function baseOptions(p: BaseOptionsInput): uPlot.Options {
  const ink = p.ink ?? { text: '#495057', grid: '#f1f3f5', tick: '#dee2e6' };
  const axis = { stroke: ink.text, grid: { stroke: ink.grid, width: 1 }, ticks: { stroke: ink.tick, width: 1 } };
  return {
    width: p.width,
    height: p.height,
    tzDate: (ts) => tzDate(ts, p.timeZone()),
    legend: { show: false },
    padding: [12, 12, 0, 4],
    scales: {
      x: { time: true, range: (_u, min, max) => p.xRange() ?? [min, max] },
      y: { range: (_u, min, max) => p.yRange(min, max) },
    },
    axes: [
      { ...axis, size: 44, values: TIME_TICKS },
      { ...axis, size: 64, values: (_u, splits) => splits.map((v) => v.toFixed(Math.min(p.decimals(), 2))) },
    ],
    // 1 px: Chromium strokes a 1 px path ~50x faster than a 1.5 px one (measured for benchmark 5)
    series: [{}, { stroke: p.color, width: 1, points: { show: false }, paths: columnPathBreaking(p.gapSec ?? (() => Infinity)) }],
  };
}
