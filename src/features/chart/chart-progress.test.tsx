// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { assign, createActor, setup } from 'xstate';
import type { ChartContext } from '../../../machines/chart.machine';
import type { LoadProgress } from '../../../workers/data-api';
import { ChartProgress, overlayShown } from './chart-body';
import { sameButProgress } from './chart-pane';

// The bar follows the machine's PROGRESS reports on its own (the pane leaves progress out of what
// re-renders it): a report re-renders the bar and nothing around it.
const reports = setup({
  types: { context: {} as Pick<ChartContext, 'progress'>, events: {} as { type: 'PROGRESS'; progress: LoadProgress } },
}).createMachine({
  context: { progress: null },
  on: { PROGRESS: { actions: assign({ progress: ({ event }) => event.progress }) } },
});

describe('chart progress bar', () => {
  afterEach(cleanup);

  it('shows each report of the load without re-rendering what holds it', () => {
    const actor = createActor(reports).start();
    let outerRenders = 0;
    const bar = <ChartProgress actor={actor as never} />;
    function Holder() {
      outerRenders++;
      return bar;
    }
    render(
      <MantineProvider>
        <Holder />
      </MantineProvider>,
    );
    expect(screen.getByTestId('chart-progress').textContent).toBe('Loading measurements…');
    for (let done = 1; done <= 25; done++) {
      act(() => actor.send({ type: 'PROGRESS', progress: { chunksDone: done, chunksTotal: 25, points: done * 21_024 } }));
      expect(screen.getByTestId('chart-progress').textContent).toBe(`Loading ${done} of 25 chunks · ${new Intl.NumberFormat('en-NZ').format(done * 21_024)} measurements`);
    }
    expect(screen.getByRole('progressbar', { name: 'Loading measurements' }).getAttribute('aria-valuenow')).toBe('100');
    expect(outerRenders).toBe(1);
  });

  it('leaves the pane alone on a report, and re-renders it on anything else', () => {
    const context = { progress: null, view: null, cursor: null, message: null } as unknown as ChartContext;
    const report = { ...context, progress: { chunksDone: 3, chunksTotal: 25, points: 63_072 } };
    expect(sameButProgress(context, report)).toBe(true);
    expect(sameButProgress(report, { ...report, cursor: 4 })).toBe(false);
    expect(sameButProgress(report, { ...report, message: 'No data' })).toBe(false);
  });

  it('covers the plot from a fetching load until its own drawing, never a drawn chart otherwise', () => {
    // nothing drawn yet: loading and drawing are covered
    expect(overlayShown('loading', false, false)).toBe(true);
    expect(overlayShown('drawing', false, false)).toBe(true);
    // a range already held over a drawn chart: straight to its drawing, no overlay
    expect(overlayShown('loading', true, false)).toBe(false);
    expect(overlayShown('drawing', true, false)).toBe(false);
    // a fetching load over a drawn chart: progress until the new drawing is ready, not the old chart
    expect(overlayShown('loading', true, true)).toBe(true);
    expect(overlayShown('drawing', true, true)).toBe(true);
    expect(overlayShown('ready', true, false)).toBe(false);
    expect(overlayShown('failed', true, false)).toBe(true);
    expect(overlayShown('empty', false, false)).toBe(true);
    // what the running load holds so far is drawn (issue 34): its progress sits above the plot instead
    expect(overlayShown('loading', true, true, true)).toBe(false);
    expect(overlayShown('drawing', true, true, true)).toBe(false);
    expect(overlayShown('failed', true, true, true)).toBe(true);
  });
});
