import { memo, useCallback, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { Button, Divider, Group, Popover, Stack, Text, VisuallyHidden } from '@mantine/core';
import { DatePicker } from '@mantine/dates';
import '@mantine/dates/styles.css'; // with the pickers that need it, not on every page
import { IconCalendar, IconChevronDown } from '@tabler/icons-react';
import { DateTime } from 'luxon';
import { dayOf, pickedDaysRange, PRESET_LABELS, type DatePreset, type TimeRange } from '../../domain/date-presets';

const PICKABLE = ['today', 'last3Days', 'last30Days', 'thisMonth', 'lastMonth'] as const;
/** The options of the presets list, in order: the pickable presets, then Custom (shown, reached by picking days). */
const OPTIONS = [...PICKABLE, 'custom'] as const;

/**
 * Where a key moves the focus in the presets list (WAI-ARIA listbox: Up and Down one option, no
 * wrap; Home and End the first and last), or null when the key is not the list's.
 */
export function presetListMove(key: string, at: number, count: number): number | null {
  switch (key) {
    case 'ArrowDown':
      return Math.min(at + 1, count - 1);
    case 'ArrowUp':
      return Math.max(at - 1, 0);
    case 'Home':
      return 0;
    case 'End':
      return count - 1;
    default:
      return null;
  }
}

export interface DateRangePickerProps {
  preset: DatePreset;
  range: TimeRange;
  timeZone: string;
  now: () => number;
  disabled?: boolean;
  onPreset(preset: (typeof PICKABLE)[number]): void;
  onRange(range: TimeRange): void;
}

/** "15 Mar 2026" or "12 – 15 Mar 2026", in the organisation's zone. */
export function rangeText(range: TimeRange, timeZone: string): string {
  const a = DateTime.fromMillis(range.start, { zone: timeZone });
  const b = DateTime.fromMillis(range.end, { zone: timeZone });
  if (a.hasSame(b, 'day')) return a.toFormat('d LLL yyyy');
  if (a.hasSame(b, 'year')) return `${a.toFormat(a.hasSame(b, 'month') ? 'd' : 'd LLL')} – ${b.toFormat('d LLL yyyy')}`;
  return `${a.toFormat('d LLL yyyy')} – ${b.toFormat('d LLL yyyy')}`;
}

/**
 * The date range picker with presets (monitoring-client 4): a preset list beside a range
 * calendar. Days are the organisation's days; picking two days gives Custom.
 */
export const DateRangePicker = memo(function DateRangePicker(props: DateRangePickerProps) {
  const { preset, range, timeZone, disabled } = props;
  const [opened, setOpened] = useState(false);
  const target = useRef<HTMLButtonElement>(null);
  // A choice (days or a preset) gives the focus back to the button at once, in the click's own
  // task: Mantine's returnFocus does it in a timer 10 ms later, a forced style and layout in the
  // middle of the chart's redraw. Escape returns it at once in Mantine itself; a click outside
  // is given Mantine's rule (back to the button 10 ms later unless the click focused something).
  const close = useCallback(() => {
    setOpened(false);
    target.current?.focus({ preventScroll: true });
  }, []);
  const dismiss = useCallback(() => {
    setOpened(false);
    const atClose = document.activeElement;
    setTimeout(() => {
      const now = document.activeElement;
      if (now === null || now === document.body || now === atClose) target.current?.focus({ preventScroll: true });
    }, 10);
  }, []);
  // luxon's zone arithmetic once per range, not at each open and close
  // the chart's range is unknown (0 to 0) until the server's clock has answered: no dates, not 1 Jan 1970
  const text = useMemo(() => (range.end > 0 ? rangeText(range, timeZone) : ''), [range, timeZone]);

  return (
    // a dialog of its own: focus moves in on open, Escape closes it and gives focus back to the button
    <Popover opened={opened} onChange={(o) => (o ? setOpened(true) : dismiss())} position="bottom-start" shadow="md" withinPortal transitionProps={{ duration: 0 }} trapFocus>
      <Popover.Target>
        <Button ref={target} variant="default" leftSection={<IconCalendar size={16} />} rightSection={<IconChevronDown size={14} />} disabled={disabled} onClick={() => setOpened((o) => !o)}>
          {/* named by what it shows (WCAG 2.5.3): "Date range: Last 7 days 12 – 19 Nov 2026" */}
          <VisuallyHidden>Date range: </VisuallyHidden>
          <Text span fw={600} size="sm" mr={6}>
            {PRESET_LABELS[preset]}
          </Text>
          <Text span c="dimmed" size="sm" data-testid="chart-range-text">
            {text}
          </Text>
        </Button>
      </Popover.Target>
      <Popover.Dropdown p="xs">
        {/* rendered only while open (the popover unmounts its dropdown): a closed picker computes no calendar */}
        <PickerPanel {...props} close={close} />
      </Popover.Dropdown>
    </Popover>
  );
});

/**
 * The open picker's contents. Mounted on each opening, so the half-picked range and the presets
 * list's focus start afresh every time (at the chosen preset).
 */
function PickerPanel({ preset, range, timeZone, now, onPreset, onRange, close }: DateRangePickerProps & { close(): void }) {
  const [picking, setPicking] = useState<[string | null, string | null] | null>(null);
  const today = dayOf(now(), timeZone);
  const value: [string | null, string | null] = picking ?? [dayOf(range.start, timeZone), dayOf(range.end, timeZone)];
  // the presets list is one tab stop (roving tabindex): arrows move among its options, starting at the chosen one
  const selectedIndex = Math.max(0, OPTIONS.indexOf(preset as (typeof OPTIONS)[number]));
  const [active, setActive] = useState(selectedIndex);
  const optionRefs = useRef<(HTMLElement | null)[]>([]);
  const calendarRef = useRef<HTMLDivElement>(null);
  const onListKey = (e: KeyboardEvent<HTMLDivElement>) => {
    const to = presetListMove(e.key, active, OPTIONS.length);
    if (to === null) return;
    e.preventDefault();
    setActive(to);
    optionRefs.current[to]?.focus();
  };

  // A preset closes first and tells the chart in a task of its own. Picked days tell the chart in
  // the click's own task: React renders the closing and the chart's new range together, and the
  // chart's load reaches the worker at once. With the chart's renders now small, one task of
  // 6 to 12 ms replaced two of about 5 and a frame between them (a range already held: 27.5 ms
  // median against 32.1 ms, benchmark 6, five pages each); earlier, with every render of the pane
  // re-rendering the picker, the toolbar and the export dialog, the same order had made it slower.
  const after = (fn: () => void) => setTimeout(fn, 0);
  const pick = (v: [string | null, string | null]) => {
    if (v[0] && v[1]) {
      const r = pickedDaysRange(v[0], v[1], now(), timeZone);
      close(); // state only: React renders the closing after this handler, with the chart's new range
      if (r) onRange(r);
    } else setPicking(v);
  };

  return (
    <Group align="flex-start" gap="xs" wrap="nowrap">
      {/* WAI-ARIA listbox: Up/Down, Home/End move, Enter or Space chooses; Tab leaves for the calendar */}
      <Stack gap={2} miw={130} role="listbox" aria-label="Date presets" onKeyDown={onListKey}>
        {PICKABLE.map((p, i) => (
          <Button
            key={p}
            ref={(el) => {
              optionRefs.current[i] = el;
            }}
            role="option"
            aria-selected={preset === p}
            tabIndex={i === active ? 0 : -1}
            data-autofocus={i === active || undefined}
            onFocus={() => setActive(i)}
            variant={preset === p ? 'light' : 'subtle'}
            justify="flex-start"
            size="xs"
            onClick={() => {
              close();
              after(() => onPreset(p));
            }}
          >
            {PRESET_LABELS[p]}
          </Button>
        ))}
        {/* Custom is what picking days on the calendar gives: choosing it takes the focus to the calendar */}
        <Text
          ref={(el: HTMLParagraphElement | null) => {
            optionRefs.current[PICKABLE.length] = el;
          }}
          role="option"
          aria-selected={preset === 'custom'}
          tabIndex={active === PICKABLE.length ? 0 : -1}
          data-autofocus={active === PICKABLE.length || undefined}
          onFocus={() => setActive(PICKABLE.length)}
          onKeyDown={(e) => {
            if (e.key !== 'Enter' && e.key !== ' ') return;
            e.preventDefault();
            // the day in the calendar's tab order (Mantine keeps one: the chosen day, else today or the first)
            const days = calendarRef.current;
            (days?.querySelector<HTMLElement>('table button[tabindex="0"]') ?? days?.querySelector<HTMLElement>('table button:not([disabled])'))?.focus();
          }}
          size="xs"
          fw={preset === 'custom' ? 600 : 400}
          c={preset === 'custom' ? 'blue' : 'dimmed'}
          px="sm"
          py={6}
        >
          {PRESET_LABELS.custom}: pick days
        </Text>
      </Stack>
      <Divider orientation="vertical" />
      <Stack gap={4} ref={calendarRef}>
        {/* named month controls; other months' days hidden (Mantine draws them at 2.2:1) */}
        <DatePicker
          type="range"
          value={value}
          onChange={pick}
          maxDate={today}
          defaultDate={value[1] ?? today}
          allowSingleDateInRange
          aria-label="Pick days"
          previousLabel="Previous month"
          nextLabel="Next month"
          hideOutsideDates
        />
        <Text size="xs" c="dimmed" ta="center">
          {picking?.[0] ? 'Now pick the last day' : 'Pick the first and last day'}
        </Text>
      </Stack>
    </Group>
  );
}
