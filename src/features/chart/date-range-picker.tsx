import { memo, useState } from 'react';
import { Button, Divider, Group, Popover, Stack, Text } from '@mantine/core';
import { DatePicker } from '@mantine/dates';
import { IconCalendar, IconChevronDown } from '@tabler/icons-react';
import { DateTime } from 'luxon';
import { dayOf, pickedDaysRange, PRESET_LABELS, type DatePreset, type TimeRange } from '../../domain/date-presets';

const PICKABLE = ['today', 'last3Days', 'last30Days', 'thisMonth', 'lastMonth'] as const;

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
export const DateRangePicker = memo(function DateRangePicker({ preset, range, timeZone, now, disabled, onPreset, onRange }: DateRangePickerProps) {
  const [opened, setOpened] = useState(false);
  const [picking, setPicking] = useState<[string | null, string | null] | null>(null);
  const today = dayOf(now(), timeZone);
  const value: [string | null, string | null] = picking ?? [dayOf(range.start, timeZone), dayOf(range.end, timeZone)];

  const close = () => {
    setOpened(false);
    setPicking(null);
  };
  // close first, then tell the chart in a task of its own: two short main-thread tasks, not one long one
  const after = (fn: () => void) => setTimeout(fn, 0);
  const pick = (v: [string | null, string | null]) => {
    if (v[0] && v[1]) {
      const r = pickedDaysRange(v[0], v[1], now(), timeZone);
      close();
      if (r) after(() => onRange(r));
    } else setPicking(v);
  };

  return (
    <Popover opened={opened} onChange={(o) => (o ? setOpened(true) : close())} position="bottom-start" shadow="md" withinPortal transitionProps={{ duration: 0 }}>
      <Popover.Target>
        <Button
          variant="default"
          aria-label="Date range"
          leftSection={<IconCalendar size={16} />}
          rightSection={<IconChevronDown size={14} />}
          disabled={disabled}
          onClick={() => (opened ? close() : setOpened(true))}
        >
          <Text span fw={600} size="sm" mr={6}>
            {PRESET_LABELS[preset]}
          </Text>
          <Text span c="dimmed" size="sm" data-testid="chart-range-text">
            {rangeText(range, timeZone)}
          </Text>
        </Button>
      </Popover.Target>
      <Popover.Dropdown p="xs">
        <Group align="flex-start" gap="xs" wrap="nowrap">
          <Stack gap={2} miw={130} role="listbox" aria-label="Date presets">
            {PICKABLE.map((p) => (
              <Button
                key={p}
                role="option"
                aria-selected={preset === p}
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
            {/* Custom is what picking days on the calendar gives; it is shown, not clicked */}
            <Text role="option" aria-selected={preset === 'custom'} size="xs" fw={preset === 'custom' ? 600 : 400} c={preset === 'custom' ? 'blue' : 'dimmed'} px="sm" py={6}>
              {PRESET_LABELS.custom}: pick days
            </Text>
          </Stack>
          <Divider orientation="vertical" />
          <Stack gap={4}>
            <DatePicker type="range" value={value} onChange={pick} maxDate={today} defaultDate={value[1] ?? today} allowSingleDateInRange aria-label="Pick days" />
            <Text size="xs" c="dimmed" ta="center">
              {picking?.[0] ? 'Now pick the last day' : 'Pick the first and last day'}
            </Text>
          </Stack>
        </Group>
      </Popover.Dropdown>
    </Popover>
  );
});
