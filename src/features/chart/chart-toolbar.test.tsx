// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import type { ChartToolbarProps } from './chart-toolbar';

// The date picker stands in for itself here: a memoised component that counts its renders.
const picker = vi.hoisted(() => ({ renders: 0 }));
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

describe('chart toolbar', () => {
  afterEach(cleanup);

  it('does not render the date picker again when only the chart status changes (a load, its drawing)', () => {
    const send = vi.fn();
    const props: ChartToolbarProps = {
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
      send,
      onExportClick: () => undefined,
    };
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
});
