// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { DateTime } from 'luxon';
import type { TimeRange } from '../../domain/date-presets';
import { DateRangePicker } from './date-range-picker';

const ZONE = 'Pacific/Auckland';
// the 20th of the month before the current one, noon, in the organisation's zone
const base = DateTime.now().setZone(ZONE).startOf('month').minus({ months: 1 }).plus({ days: 19, hours: 12 });
const range: TimeRange = { start: base.minus({ days: 3 }).toMillis(), end: base.toMillis() };

function renderPicker(onRange: (r: TimeRange) => void) {
  return render(
    <MantineProvider>
      <DateRangePicker preset="last3Days" range={range} timeZone={ZONE} now={() => Date.now()} onPreset={() => undefined} onRange={onRange} />
    </MantineProvider>,
  );
}
const rangeButton = () => screen.getByRole('button', { name: /Date range/ });
// a click on a button focuses it in a browser; fireEvent does not
const openPicker = () => {
  rangeButton().focus();
  fireEvent.click(rangeButton());
};
const day = (d: DateTime) => screen.getByRole('button', { name: d.toFormat('d MMMM yyyy') });

describe('date range picker', () => {
  afterEach(cleanup);

  it("shows no dates while the chart's range is not yet known (0 to 0 before the server's clock answers), not 1 Jan 1970", () => {
    const { rerender } = render(
      <MantineProvider>
        <DateRangePicker preset="last30Days" range={{ start: 0, end: 0 }} timeZone={ZONE} now={() => Date.now()} onPreset={() => undefined} onRange={() => undefined} />
      </MantineProvider>,
    );
    expect(screen.getByTestId('chart-range-text').textContent).toBe('');
    expect(rangeButton().textContent).not.toMatch(/1970/);
    rerender(
      <MantineProvider>
        <DateRangePicker preset="last3Days" range={range} timeZone={ZONE} now={() => Date.now()} onPreset={() => undefined} onRange={() => undefined} />
      </MantineProvider>,
    );
    expect(screen.getByTestId('chart-range-text').textContent).toMatch(new RegExp(`${base.toFormat('LLL yyyy')}$`));
  });

  it('picked days (monitoring-client 4: Custom, first day midnight to last day end) reach the chart in the click itself, the picker closed and the focus back on its button', () => {
    const told: string[] = [];
    const onRange = vi.fn((r: TimeRange) => void told.push(`range ${r.start}-${r.end}`));
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      renderPicker(onRange);
      openPicker();
      // the focus moves into the dialog (Mantine's focus trap, a timer)
      act(() => void vi.runAllTimers());
      expect(document.activeElement).not.toBe(rangeButton());
      const first = base.minus({ days: 10 }).startOf('day');
      const last = base.minus({ days: 8 }).startOf('day');
      fireEvent.click(day(first));
      expect(onRange).not.toHaveBeenCalled(); // one day is half a range
      act(() => void fireEvent.click(day(last)));
      // no timer run: the chart was told in the click's own task
      const want = `${first.toMillis()}-${last.endOf('day').toMillis()}`;
      expect(told).toEqual([`range ${want}`]);
      expect(screen.queryByRole('dialog')).toBeNull();
      // the focus is back on the button already, not 10 ms later (Mantine's returnFocus timer)
      expect(document.activeElement).toBe(rangeButton());
    } finally {
      vi.useRealTimers();
    }
  });

  it('opens again at the chosen range, with nothing half-picked left from before', () => {
    const onRange = vi.fn();
    renderPicker(onRange);
    fireEvent.click(rangeButton());
    fireEvent.click(day(base.minus({ days: 10 }).startOf('day')));
    expect(screen.getByText('Now pick the last day')).toBeTruthy();
    fireEvent.click(rangeButton()); // closes without a choice
    expect(screen.queryByRole('dialog')).toBeNull();
    fireEvent.click(rangeButton());
    expect(screen.getByText('Pick the first and last day')).toBeTruthy();
    expect(onRange).not.toHaveBeenCalled();
  });

  it('Escape closes it without a choice and gives the focus back to its button', () => {
    const onRange = vi.fn();
    renderPicker(onRange);
    openPicker();
    act(() => void fireEvent.keyDown(screen.getByRole('dialog'), { key: 'Escape' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(rangeButton());
    expect(onRange).not.toHaveBeenCalled();
  });
});
