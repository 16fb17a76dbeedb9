import { useEffect, useMemo, useRef, useState } from 'react';
import { Box, ColorSwatch, Group, ScrollArea, Text, TextInput, UnstyledButton } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { Sensor } from '../../contract/sensor.schema';
import { isMappable } from '../../domain/map-view';
import { createSensorSearch, SEARCH_DEBOUNCE_MS } from '../../domain/sensor-search';
import { displayStatus, STATUS_COLOUR, STATUS_LABEL } from '../../domain/sensor-status';

interface MapSensorListProps {
  sensors: Sensor[];
  selectedSerial?: string;
  onSelect(serial: string): void;
}

const ROW = 52;

/**
 * The sensors beside the map (issue 16): the same selection as a click on the map, reachable by
 * keyboard and screen reader. Virtualised, so ten thousand sensors cost a screenful of rows.
 */
export function MapSensorList({ sensors, selectedSerial, onSelect }: MapSensorListProps) {
  const [query, setQuery] = useState('');
  const [debounced] = useDebouncedValue(query, SEARCH_DEBOUNCE_MS);
  const search = useMemo(() => createSensorSearch(sensors), [sensors]);
  const shown = useMemo(() => search(debounced), [search, debounced]);
  const viewport = useRef<HTMLDivElement>(null);
  const rows = useVirtualizer({ count: shown.length, getScrollElement: () => viewport.current, estimateSize: () => ROW, overscan: 8 });
  const selectedAt = shown.findIndex((s) => s.serial === selectedSerial);
  useEffect(() => {
    if (selectedAt >= 0) rows.scrollToIndex(selectedAt, { align: 'auto' });
  }, [selectedAt, rows]);

  return (
    <Box h="100%" style={{ display: 'flex', flexDirection: 'column' }}>
      <Box p="sm" pb="xs">
        <TextInput aria-label="Search sensors" placeholder="Search by name or serial" leftSection={<IconSearch size={16} />} value={query} onChange={(e) => setQuery(e.currentTarget.value)} />
      </Box>
      <ScrollArea viewportRef={viewport} style={{ flex: 1 }} type="auto">
        <Box role="list" aria-label="Sensors on the map" pos="relative" h={rows.getTotalSize()}>
          {rows.getVirtualItems().map((v) => {
            const s = shown[v.index];
            const status = displayStatus(s);
            const active = s.serial === selectedSerial;
            return (
              <UnstyledButton
                key={s.id}
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
        {shown.length === 0 && (
          <Text c="dimmed" size="sm" ta="center" py="xl">
            No sensors match “{debounced.trim()}”.
          </Text>
        )}
      </ScrollArea>
    </Box>
  );
}
