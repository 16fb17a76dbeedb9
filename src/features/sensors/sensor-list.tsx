import { memo, useEffect, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { Box, CloseButton, Group, ScrollArea, Stack, Text, TextInput, Tooltip, UnstyledButton } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconAlertTriangle, IconSearch } from '@tabler/icons-react';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { MeasurementUnit } from '../../domain/sensor-format';
import { latestLevelText } from '../../domain/sensor-format';
import { SEARCH_DEBOUNCE_MS } from '../../domain/sensor-search';
import { displayStatus } from '../../domain/sensor-status';
import { NOT_AVAILABLE, type SensorSummary } from '../../domain/sensor-summary';
import type { FleetHandle } from './use-fleet';
import { SensorStatusIcon } from './sensor-status-icon';
import classes from './sensors.module.css';

interface SensorListProps {
  fleet: FleetHandle;
  selectedSerial?: string;
  sensorsUrl: string;
  unit: MeasurementUnit;
}

/** Height of one row in CSS pixels (every row is one height: two lines of text). */
export const ROW_HEIGHT = 60;
/** Rows held beyond those on screen each way, so a scroll seldom waits for the worker. */
const OVERSCAN = 12;

/** The bad values of a row, for its mark. */
const invalidText = (s: SensorSummary) => `This sensor's record has invalid values (${s.invalid!.join(', ')}); they show as ${NOT_AVAILABLE}.`;

/** One row: re-renders only when its sensor (a new object after a live update), selection or place changes. */
const SensorRow = memo(function SensorRow({ sensor: s, index, count, top, active, href, unit }: { sensor: SensorSummary | undefined; index: number; count: number; top: number; active: boolean; href: string; unit: MeasurementUnit }) {
  const style = { position: 'absolute' as const, top: 0, left: 0, width: '100%', height: ROW_HEIGHT - 2, transform: `translateY(${top}px)` };
  if (!s) return <Box role="listitem" aria-posinset={index + 1} aria-setsize={count} aria-busy="true" style={style} className={classes.item} />;
  const bad = s.invalid && s.invalid.length > 0;
  const level = s.invalid?.includes('rawDistance') || s.invalid?.includes('measurementTime') || s.invalid?.includes('offsetMeasurement') ? NOT_AVAILABLE : (latestLevelText(s, unit) ?? 'No data');
  const body = (
    <Group wrap="nowrap" gap="sm">
      <SensorStatusIcon status={displayStatus(s)} />
      <Box style={{ flex: 1, minWidth: 0 }}>
        <Text fw={600} size="sm" truncate>
          {s.name || NOT_AVAILABLE}
        </Text>
        <Text size="xs" c="dimmed" ff="monospace">
          {s.serial || NOT_AVAILABLE}
        </Text>
      </Box>
      {bad && (
        <Tooltip label={invalidText(s)} multiline w={240} withArrow>
          <IconAlertTriangle size={16} color="var(--mantine-color-orange-6)" role="img" aria-label={invalidText(s)} data-testid="invalid-sensor" />
        </Tooltip>
      )}
      <Text size="sm" fw={500} c={s.latestData?.lastMeasurement ? undefined : 'dimmed'} style={{ whiteSpace: 'nowrap' }}>
        {level}
      </Text>
    </Group>
  );
  // a row without a serial cannot be opened: it is shown, marked, and not a link
  if (!s.serial) {
    return (
      <Box role="listitem" aria-posinset={index + 1} aria-setsize={count} className={classes.item} style={style}>
        {body}
      </Box>
    );
  }
  return (
    <UnstyledButton
      component={Link}
      to={href}
      className={classes.item}
      data-active={active || undefined}
      data-serial={s.serial}
      aria-current={active ? 'page' : undefined}
      role="listitem"
      aria-posinset={index + 1}
      aria-setsize={count}
      style={style}
    >
      {body}
    </UnstyledButton>
  );
});

interface Held {
  version: number;
  rows: Map<number, SensorSummary>;
}

/**
 * The searchable list (monitoring-client 2.4): name, serial, latest measurement and status icon
 * of each sensor, sorted by name. Virtualised: only the rows on screen are in the page, fetched
 * from the data worker, which holds the fleet and answers the search.
 */
export function SensorList({ fleet, selectedSerial, sensorsUrl, unit }: SensorListProps) {
  const [query, setQuery] = useState('');
  const [debounced] = useDebouncedValue(query, SEARCH_DEBOUNCE_MS);
  const ready = fleet.state.status === 'ready' ? fleet.state : undefined;
  const count = ready?.count ?? 0;
  const version = ready?.version ?? 0;
  const viewport = useRef<HTMLDivElement>(null);
  const virtual = useVirtualizer({ count, getScrollElement: () => viewport.current, estimateSize: () => ROW_HEIGHT, overscan: OVERSCAN });
  const items = virtual.getVirtualItems();
  const start = items[0]?.index ?? 0;
  const end = (items[items.length - 1]?.index ?? -1) + 1;
  const [held, setHeld] = useState<Held>({ version: -1, rows: new Map() });
  const { search, rows, setWindow, onLiveRows, find } = fleet;

  useEffect(() => search(debounced), [search, debounced]);
  // a new search starts at the top
  useEffect(() => virtual.scrollToOffset(0), [debounced, virtual]);

  // the rows on screen, from the worker: asked again when the list changes or a row is missing
  const missing = held.version !== version || items.some((v) => !held.rows.has(v.index));
  useEffect(() => {
    setWindow(start, end);
    if (!missing) return;
    let stale = false;
    void rows(start, end).then((r) => {
      if (stale) return;
      setHeld((prev) => {
        const next = new Map(prev.version === r.version ? prev.rows : []);
        for (const row of r.rows) next.set(row.index, row.sensor);
        // only what is near the screen is kept
        for (const k of next.keys()) if (k < start - 4 * OVERSCAN || k >= end + 4 * OVERSCAN) next.delete(k);
        return { version: r.version, rows: next };
      });
    });
    return () => {
      stale = true;
    };
  }, [start, end, missing, rows, setWindow, version]);

  // live uplinks: the worker answers the rows held that changed; those rows alone re-render
  useEffect(
    () =>
      onLiveRows((r) =>
        setHeld((prev) => {
          if (prev.version !== r.version) return prev;
          const next = new Map(prev.rows);
          for (const row of r.rows) if (next.has(row.index)) next.set(row.index, row.sensor);
          return { version: prev.version, rows: next };
        }),
      ),
    [onLiveRows],
  );

  // a sensor opened by link (or the bare route) may sit far down the list
  const scrolledTo = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (!selectedSerial || !ready || scrolledTo.current === selectedSerial) return;
    scrolledTo.current = selectedSerial;
    void find(selectedSerial).then((f) => {
      if (f && f.index >= 0) virtual.scrollToIndex(f.index, { align: 'auto' });
    });
  }, [selectedSerial, ready, find, virtual]);

  return (
    <Stack gap={0} h="100%">
      <Box p="sm" pb="xs">
        <TextInput
          aria-label="Search sensors"
          placeholder="Search by name or serial"
          leftSection={<IconSearch size={16} />}
          value={query}
          onChange={(e) => setQuery(e.currentTarget.value)}
          rightSection={query ? <CloseButton size="sm" aria-label="Clear search" onClick={() => setQuery('')} /> : null}
        />
      </Box>
      <ScrollArea viewportRef={viewport} style={{ flex: 1 }} type="auto">
        <Box role="list" aria-label="Sensors" pos="relative" mx="xs" h={virtual.getTotalSize()}>
          {items.map((v) => {
            const s = held.version === version ? held.rows.get(v.index) : undefined;
            return (
              <SensorRow
                key={s ? s.id || `row-${v.index}` : `row-${v.index}`}
                sensor={s}
                index={v.index}
                count={count}
                top={v.start}
                active={!!s && s.serial === selectedSerial}
                href={s ? `${sensorsUrl}/${s.serial}` : ''}
                unit={unit}
              />
            );
          })}
        </Box>
        {ready && count === 0 && (
          <Text c="dimmed" size="sm" ta="center" py="xl">
            No sensors match “{debounced.trim()}”.
          </Text>
        )}
      </ScrollArea>
    </Stack>
  );
}
