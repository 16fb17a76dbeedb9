import { useEffect, useMemo, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { Box, CloseButton, Group, ScrollArea, Stack, Text, TextInput, UnstyledButton } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import type { Sensor } from '../../contract/sensor.schema';
import type { MeasurementUnit } from '../../domain/sensor-format';
import { latestLevelText } from '../../domain/sensor-format';
import { createSensorSearch, SEARCH_DEBOUNCE_MS } from '../../domain/sensor-search';
import { displayStatus } from '../../domain/sensor-status';
import { SensorStatusIcon } from './sensor-status-icon';
import classes from './sensors.module.css';

interface SensorListProps {
  sensors: Sensor[];
  selectedSerial?: string;
  sensorsUrl: string;
  unit: MeasurementUnit;
}

/** The searchable list: name, serial, latest measurement and status icon of each sensor. */
export function SensorList({ sensors, selectedSerial, sensorsUrl, unit }: SensorListProps) {
  const [query, setQuery] = useState('');
  const [debounced] = useDebouncedValue(query, SEARCH_DEBOUNCE_MS);
  const search = useMemo(() => createSensorSearch(sensors), [sensors]);
  const shown = useMemo(() => search(debounced), [search, debounced]);
  const active = useRef<HTMLAnchorElement>(null);
  // a sensor opened by link (or the bare route) may sit below the fold of the list
  useEffect(() => {
    // a block body on purpose: Chromium's scrollIntoView may return a promise, which React would take for a cleanup
    active.current?.scrollIntoView({ block: 'nearest' });
  }, [selectedSerial]);

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
      <ScrollArea style={{ flex: 1 }} type="auto">
        <Stack gap={2} p="xs" pt={0} role="list" aria-label="Sensors">
          {shown.map((s) => (
            <UnstyledButton
              key={s.id}
              component={Link}
              to={`${sensorsUrl}/${s.serial}`}
              className={classes.item}
              ref={s.serial === selectedSerial ? active : undefined}
              data-active={s.serial === selectedSerial || undefined}
              aria-current={s.serial === selectedSerial ? 'page' : undefined}
              role="listitem"
            >
              <Group wrap="nowrap" gap="sm">
                <SensorStatusIcon status={displayStatus(s)} />
                <Box style={{ flex: 1, minWidth: 0 }}>
                  <Text fw={600} size="sm" truncate>
                    {s.name}
                  </Text>
                  <Text size="xs" c="dimmed" ff="monospace">
                    {s.serial}
                  </Text>
                </Box>
                <Text size="sm" fw={500} c={s.latestData?.lastMeasurement ? undefined : 'dimmed'} style={{ whiteSpace: 'nowrap' }}>
                  {latestLevelText(s, unit) ?? 'No data'}
                </Text>
              </Group>
            </UnstyledButton>
          ))}
          {shown.length === 0 && (
            <Text c="dimmed" size="sm" ta="center" py="xl">
              No sensors match “{debounced.trim()}”.
            </Text>
          )}
        </Stack>
      </ScrollArea>
    </Stack>
  );
}
