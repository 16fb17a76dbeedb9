import { useState } from 'react';
import { Box, ColorSwatch, Group, ScrollArea, Text, TextInput, UnstyledButton } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { isMappable } from '../../domain/map-view';
import { SEARCH_DEBOUNCE_MS } from '../../domain/sensor-search';
import { displayStatus, STATUS_COLOUR, STATUS_LABEL } from '../../domain/sensor-status';
import type { FleetHandle } from '../../shared/use-fleet';
import { useFleetWindow } from '../../shared/use-fleet-window';

interface MapSensorListProps {
  fleet: FleetHandle;
  selectedSerial?: string;
  onSelect(serial: string): void;
}

const ROW = 52;

/**
 * The sensors beside the map (issue 16): the same selection as a click on the map, reachable by
 * keyboard and screen reader. Virtualised over the fleet in the data worker, which answers the
 * search, so a hundred thousand sensors cost a screenful of rows.
 */
export function MapSensorList({ fleet, selectedSerial, onSelect }: MapSensorListProps) {
  const [query, setQuery] = useState('');
  const [debounced] = useDebouncedValue(query, SEARCH_DEBOUNCE_MS);
  const { viewport, virtual: rows, count, ready, rowAt } = useFleetWindow(fleet, debounced, { rowHeight: ROW, overscan: 8, selectedSerial });

  return (
    <Box h="100%" style={{ display: 'flex', flexDirection: 'column' }}>
      <Box p="sm" pb="xs">
        <TextInput aria-label="Search sensors" placeholder="Search by name or serial" leftSection={<IconSearch size={16} />} value={query} onChange={(e) => setQuery(e.currentTarget.value)} />
      </Box>
      <ScrollArea viewportRef={viewport} style={{ flex: 1 }} type="auto">
        <Box role="list" aria-label="Sensors on the map" pos="relative" h={rows.getTotalSize()}>
          {rows.getVirtualItems().map((v) => {
            const s = rowAt(v.index);
            if (!s) return <Box key={`row-${v.index}`} role="listitem" aria-busy="true" pos="absolute" top={0} left={0} w="100%" h={ROW} style={{ transform: `translateY(${v.start}px)` }} />;
            const status = displayStatus(s);
            const active = s.serial === selectedSerial;
            return (
              <UnstyledButton
                key={s.id || `row-${v.index}`}
                role="listitem"
                aria-current={active ? 'true' : undefined}
                data-serial={s.serial}
                data-status={status}
                onClick={() => onSelect(s.serial)}
                pos="absolute"
                top={0}
                left={0}
                w="100%"
                h={ROW}
                px="sm"
                style={{ transform: `translateY(${v.start}px)`, background: active ? 'var(--tw-selected-bg)' : undefined }}
              >
                <Group wrap="nowrap" gap="sm">
                  <ColorSwatch color={`var(--mantine-color-${STATUS_COLOUR[status]}-6)`} size={14} withShadow={false} role="img" aria-label={`Status: ${STATUS_LABEL[status]}`} />
                  <Box style={{ flex: 1, minWidth: 0 }}>
                    <Text fw={600} size="sm" truncate>
                      {s.name}
                    </Text>
                    <Text size="xs" c="dimmed">
                      <span style={{ fontFamily: 'var(--mantine-font-family-monospace)' }}>{s.serial}</span>
                      {isMappable(s.latitude, s.longitude) ? '' : ' · no location'}
                    </Text>
                  </Box>
                </Group>
              </UnstyledButton>
            );
          })}
        </Box>
        {ready && count === 0 && (
          <Text c="dimmed" size="sm" ta="center" py="xl">
            No sensors match “{debounced.trim()}”.
          </Text>
        )}
      </ScrollArea>
    </Box>
  );
}
