// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import type { ChartToolbarProps } from './chart-toolbar';

// The date picker stands in for itself here: a memoised component that counts its renders.
const picker = vi.hoisted(() => ({ renders: 0 }));
// Mantine's tooltip and select, and the segmented control, count their renders (about 2 ms each for a tooltip, in Chromium)
const mantine = vi.hoisted(() => ({ Tooltip: 0, Select: 0, SegmentedControl: 0 }));
vi.mock('@mantine/core', async (original) => {
  const real = await original<typeof import('@mantine/core')>();
  const { createElement } = await import('react');
  const counted = <P extends object>(name: keyof typeof mantine, C: (p: P) => unknown) =>
    Object.assign((p: P) => {
      mantine[name]++;
      return createElement(C as never, p);
    }, C);
  return { ...real, Tooltip: counted('Tooltip', real.Tooltip), Select: counted('Select', real.Select) };
});
vi.mock('../../shared/segmented', async (original) => {
  const real = await original<typeof import('../../shared/segmented')>();
  const { createElement } = await import('react');
  return {
    ...real,
    Segmented: (p: object) => {
      mantine.SegmentedControl++;
      return createElement(real.Segmented as never, p);
    },
  };
});
vi.mock('./date-range-picker', async (original) => {
  const { memo: memoOf } = await import('react');
  return {
    ...(await original<typeof import('./date-range-picker')>()),
    DateRangePicker: memoOf(function CountingPicker() {
      picker.renders++;
      return null;
    }),
  };
});
const { ChartToolbar } = await import('./chart-toolbar');

/** A toolbar's props in the normal view of a level sensor, nothing loading; `over` changes some. */
const toolbarProps = (over: Partial<ChartToolbarProps> = {}): ChartToolbarProps => ({
  preset: 'last3Days',
  range: { start: 0, end: 1 },
  timeZone: 'Pacific/Auckland',
  now: () => 0,
  modes: ['level'],
  dataMode: 'level',
  viewMode: 'normal',
  liveModeFeature: true,
  yZoom: false,
  zoomed: false,
  canExport: true,
  busy: false,
  send: vi.fn(),
  onExportClick: () => undefined,
  ...over,
});

describe('chart toolbar', () => {
  afterEach(cleanup);

  it('does not render the date picker again when only the chart status changes (a load, its drawing)', () => {
    const send = vi.fn();
    const props = toolbarProps({ send });
    const view = render(
      <MantineProvider>
        <ChartToolbar {...props} />
      </MantineProvider>,
    );
    expect(picker.renders).toBe(1);
    for (const busy of [true, false, true]) {
      view.rerender(
        <MantineProvider>
          <ChartToolbar {...props} busy={busy} canExport={!busy} />
        </MantineProvider>,
      );
    }
    expect(picker.renders).toBe(1);
    // a new range is the picker's to show
    view.rerender(
      <MantineProvider>
        <ChartToolbar {...props} range={{ start: 0, end: 2 }} />
      </MantineProvider>,
    );
    expect(picker.renders).toBe(2);
  });
  it('a load starting and ending (busy, canExport) renders the Refresh and Export buttons only: Refresh is disabled meanwhile, no tooltip or data control is rendered again', () => {
    const props = toolbarProps({ modes: ['level', 'flow'] });
    const at = (p: ChartToolbarProps) => (
      <MantineProvider>
        <ChartToolbar {...p} />
      </MantineProvider>
    );
    Object.assign(mantine, { Tooltip: 0, Select: 0, SegmentedControl: 0 });
    const view = render(at(props));
    const before = { ...mantine };
    expect(before).toEqual({ Tooltip: 2, Select: 1, SegmentedControl: 1 }); // Y-axis zoom and Refresh
    const refresh = () => screen.getByRole('button', { name: 'Refresh' }) as HTMLButtonElement;
    expect(refresh().disabled).toBe(false);
    view.rerender(at({ ...props, busy: true, canExport: false }));
    expect(refresh().disabled).toBe(true);
    expect(screen.getByRole('button', { name: 'Export' }).getAttribute('aria-disabled')).toBe('true');
    view.rerender(at({ ...props, busy: false, canExport: true }));
    expect(refresh().disabled).toBe(false);
    expect(mantine).toEqual(before);
    // what the tooltips show is theirs to render again
    view.rerender(at({ ...props, yZoom: true }));
    expect(mantine.Tooltip).toBe(before.Tooltip + 1);
  });
});
