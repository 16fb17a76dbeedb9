import { memo, useState } from 'react';
import { Link } from 'react-router-dom';
import { Box, Center, CloseButton, Loader, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconAlertTriangle, IconSearch } from '@tabler/icons-react';
import type { MeasurementUnit } from '../../domain/sensor-format';
import { latestLevelText } from '../../domain/sensor-format';
import { SEARCH_DEBOUNCE_MS } from '../../domain/sensor-search';
import { displayStatus } from '../../domain/sensor-status';
import { NOT_AVAILABLE, type SensorSummary } from '../../domain/sensor-summary';
import type { FleetHandle } from '../../shared/use-fleet';
import { useFleetWindow } from '../../shared/use-fleet-window';
import { SensorStatusIcon } from './sensor-status-icon';
import list from '../../shared/fleet-list.module.css';
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

/**
 * One row: re-renders only when its sensor (a new object after a live update), selection or place
 * changes. Plain elements with the module's classes: rows mount on every scroll step.
 */
const SensorRow = memo(function SensorRow({ sensor: s, index, count, top, active, href, unit }: { sensor: SensorSummary | undefined; index: number; count: number; top: number; active: boolean; href: string; unit: MeasurementUnit }) {
  const style = { position: 'absolute' as const, top: 0, left: 0, width: '100%', height: ROW_HEIGHT - 2, transform: `translateY(${top}px)` };
  if (!s) return <div role="listitem" aria-posinset={index + 1} aria-setsize={count} aria-busy="true" style={style} className={classes.item} />;
  const bad = s.invalid && s.invalid.length > 0;
  const level = s.invalid?.includes('rawDistance') || s.invalid?.includes('measurementTime') || s.invalid?.includes('offsetMeasurement') ? NOT_AVAILABLE : (latestLevelText(s, unit) ?? 'No data');
  const body = (
    <div className={classes.row}>
      <SensorStatusIcon status={displayStatus(s)} />
      <div className={classes.rowText}>
        <div className={classes.name} data-part="name">{s.name || NOT_AVAILABLE}</div>
        <div className={classes.serial}>{s.serial || NOT_AVAILABLE}</div>
      </div>
      {bad && (
        <Tooltip label={invalidText(s)} multiline w={240} withArrow>
          <IconAlertTriangle size={16} color="var(--mantine-color-orange-6)" role="img" aria-label={invalidText(s)} data-testid="invalid-sensor" />
        </Tooltip>
      )}
      <div className={classes.level} data-dimmed={s.latestData?.lastMeasurement ? undefined : true}>
        {level}
      </div>
    </div>
  );
  // a row without a serial cannot be opened: it is shown, marked, and not a link
  if (!s.serial) {
    return (
      <div role="listitem" aria-posinset={index + 1} aria-setsize={count} className={classes.item} style={style}>
        {body}
      </div>
    );
  }
  return (
    <Link
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
    </Link>
  );
});

/**
 * The searchable list (monitoring-client 2.4): name, serial, latest measurement and status icon
 * of each sensor, sorted by name. Virtualised: only the rows on screen are in the page, fetched
 * from the data worker, which holds the fleet and answers the search.
 */
export function SensorList({ fleet, selectedSerial, sensorsUrl, unit }: SensorListProps) {
  const [query, setQuery] = useState('');
  const [debounced] = useDebouncedValue(query, SEARCH_DEBOUNCE_MS);
  const { viewport, virtual, items, count, ready, searching, rowAt } = useFleetWindow(fleet, debounced, { rowHeight: ROW_HEIGHT, overscan: OVERSCAN, selectedSerial });

  return (
    <Stack gap={0} h="100%">
      <Box p="sm" pb="xs">
        <TextInput
          aria-label="Search sensors"
          placeholder="Search by name or serial"
          leftSection={searching ? <Loader size={14} aria-label="Searching" /> : <IconSearch size={16} />}
          value={query}
          onChange={(e) => setQuery(e.currentTarget.value)}
          rightSection={query ? <CloseButton size="sm" aria-label="Clear search" onClick={() => setQuery('')} /> : null}
        />
      </Box>
      <div ref={viewport} className={list.scroller}>
        <div role="list" aria-label="Sensors" aria-busy={searching || undefined} className={classes.rows} style={{ height: virtual.getTotalSize() }}>
          {items.map((v) => {
            const s = rowAt(v.index);
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
        </div>
        {fleet.state.status === 'loading' && (
          <Center py="xl">
            <Loader size="sm" aria-label="Loading sensors" />
          </Center>
        )}
        {ready && count === 0 && (
          <Text c="dimmed" size="sm" ta="center" py="xl">
            No sensors match “{debounced.trim()}”.
          </Text>
        )}
      </div>
    </Stack>
  );
}
