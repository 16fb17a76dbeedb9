import { memo, useState, type MouseEvent } from 'react';
import { Box, Loader, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { isMappable } from '../../domain/map-view';
import { SEARCH_DEBOUNCE_MS } from '../../domain/sensor-search';
import { displayStatus, STATUS_COLOUR, STATUS_LABEL } from '../../domain/sensor-status';
import type { SensorSummary } from '../../domain/sensor-summary';
import type { FleetHandle } from '../../shared/use-fleet';
import { useFleetWindow } from '../../shared/use-fleet-window';
import list from '../../shared/fleet-list.module.css';
import classes from './map-sensor-list.module.css';

interface MapSensorListProps {
  fleet: FleetHandle;
  selectedSerial?: string;
  onSelect(serial: string): void;
}

const ROW = 52;

/**
 * One row: re-renders only when its sensor (a new object after a live update), selection or place
 * changes. Plain elements with the module's classes, as the sensors list's rows: rows mount on
 * every scroll step, and at 10,000 sensors Mantine's components and style props in each row made
 * the map page's first render and layout tasks of 50 to 150 ms (benchmark 22).
 */
const MapRow = memo(function MapRow({ sensor: s, index, top, active }: { sensor: SensorSummary | undefined; index: number; top: number; active: boolean }) {
  const style = { height: ROW, transform: `translateY(${top}px)` };
  if (!s) return <div role="listitem" aria-busy="true" data-index={index} className={classes.item} style={style} />;
  const status = displayStatus(s);
  return (
    <button type="button" role="listitem" aria-current={active ? 'true' : undefined} data-serial={s.serial} data-status={status} className={classes.item} style={style}>
      <span className={classes.swatch} style={{ background: `var(--mantine-color-${STATUS_COLOUR[status]}-6)` }} role="img" aria-label={`Status: ${STATUS_LABEL[status]}`} />
      <span className={classes.text}>
        <span className={classes.name}>
          {s.name}
        </span>
        <span className={classes.serial}>
          <span className={classes.mono}>{s.serial}</span>
          {isMappable(s.latitude, s.longitude) ? '' : ' · no location'}
        </span>
      </span>
    </button>
  );
});

/**
 * The sensors beside the map (issue 16): the same selection as a click on the map, reachable by
 * keyboard and screen reader. Virtualised over the fleet in the data worker, which answers the
 * search, so a hundred thousand sensors cost a screenful of rows. A click (or Enter or Space on a
 * focused row) reaches the list, which selects the row's sensor: the rows take no handler of their
 * own, so the page's renders leave them alone.
 */
export function MapSensorList({ fleet, selectedSerial, onSelect }: MapSensorListProps) {
  const [query, setQuery] = useState('');
  const [debounced] = useDebouncedValue(query, SEARCH_DEBOUNCE_MS);
  const { viewport, virtual: rows, items, count, ready, searching, rowAt } = useFleetWindow(fleet, debounced, { rowHeight: ROW, overscan: 8, selectedSerial });
  const pick = (e: MouseEvent<HTMLDivElement>) => {
    const serial = (e.target as Element).closest<HTMLElement>('button[data-serial]')?.dataset.serial;
    if (serial) onSelect(serial);
  };

  return (
    <div className={classes.list}>
      <Box p="sm" pb="xs">
        <TextInput aria-label="Search sensors" placeholder="Search by name or serial" leftSection={searching ? <Loader size={14} aria-label="Searching" /> : <IconSearch size={16} />} value={query} onChange={(e) => setQuery(e.currentTarget.value)} />
      </Box>
      <div ref={viewport} className={list.scroller}>
        <div role="list" aria-label="Sensors on the map" aria-busy={searching || undefined} className={classes.rows} style={{ height: rows.getTotalSize() }} onClick={pick}>
          {items.map((v) => {
            const s = rowAt(v.index);
            return <MapRow key={s ? s.id || `row-${v.index}` : `row-${v.index}`} sensor={s} index={v.index} top={v.start} active={!!s && s.serial === selectedSerial} />;
          })}
        </div>
        {ready && count === 0 && (
          <Text c="dimmed" size="sm" ta="center" py="xl">
            No sensors match “{debounced.trim()}”.
          </Text>
        )}
      </div>
    </div>
  );
}
