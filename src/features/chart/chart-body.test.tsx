// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import type { ChartContext } from '../../../machines/chart.machine';
import type { ViewResult } from '../../../workers/data-api';
import type { ChartBodyProps, ChartStatus } from './chart-body';

// The plot stands in for itself (uPlot needs a canvas): a memoised component that counts its
// renders and the data it was given; the segmented controls count theirs.
const counts = vi.hoisted(() => ({ plot: 0, plotData: [] as unknown[], segmented: 0 }));
vi.mock('./uplot-chart', async () => {
  const { memo } = await import('react');
  return {
    UplotChart: memo(function CountingPlot(p: { data: unknown }) {
      counts.plot++;
      counts.plotData.push(p.data);
      return null;
    }),
  };
});
vi.mock('../../shared/segmented', async (original) => {
  const real = await original<typeof import('../../shared/segmented')>();
  const { createElement } = await import('react');
  const Segmented = (p: object) => {
    counts.segmented++;
    return createElement(real.Segmented as never, p);
  };
  return { ...real, Segmented };
});
const { ChartBody } = await import('./chart-body');

const view = (n: number): ViewResult => ({
  time: Float64Array.from({ length: n }, (_, i) => 1_790_000_000 + i * 60),
  value: Float64Array.from({ length: n }, (_, i) => 1 + i / 1000),
  min: 1,
  max: 1 + (n - 1) / 1000,
  rawPoints: n,
});

describe('chart body', () => {
  afterEach(cleanup);

  it('a range already held drawn again (loading, drawing, ready) renders the plot once, with the new points, and not the reading controls', () => {
    const send = vi.fn();
    const guides: ChartBodyProps['guides'] = []; // memoised by the pane
    const old = view(10);
    const context = { view: old, shown: { start: 0, end: 1 }, cursor: null, zoom: null, yZoom: false, dataMode: 'level', viewMode: 'normal', exportError: null, message: null } as unknown as ChartContext;
    const props = (status: ChartStatus, c: ChartContext): ChartBodyProps => ({
      height: 300,
      status,
      context: c,
      showsProgress: false,
      progress: null,
      guides,
      unit: 'm',
      axisLabel: 'Water Level (m)',
      decimals: 3,
      timeZone: 'Pacific/Auckland',
      orgTimeZone: 'Pacific/Auckland',
      viewerTimeZone: 'UTC',
      zone: 'organisation',
      display: 'chart',
      canExport: status === 'ready',
      onExportClick: () => undefined,
      send,
    });
    const at = (p: ChartBodyProps) => (
      <MantineProvider>
        <ChartBody {...p} />
      </MantineProvider>
    );
    const r = render(at(props('ready', context)));
    const before = { plot: counts.plot, segmented: counts.segmented };
    expect(before.segmented).toBe(2); // chart or table, and whose time
    // SET_RANGE: the machine's context is a new object, its view and window as they were
    r.rerender(at(props('loading', { ...context })));
    r.rerender(at(props('drawing', { ...context })));
    expect(counts.plot).toBe(before.plot);
    const next = view(20);
    r.rerender(at(props('ready', { ...context, view: next, shown: { start: 2, end: 3 } })));
    expect(counts.plot).toBe(before.plot + 1);
    expect(counts.plotData.at(-1)).toBe(next);
    expect(counts.segmented).toBe(before.segmented);
    // the new window's measurements in the caption, as a user reads them
    expect(screen.getByTestId('chart-caption').textContent).toContain('20 measurements');
  });
});
