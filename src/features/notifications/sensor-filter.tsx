import { useEffect, useMemo, useState } from 'react';
import { Select, Stack, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { SENSORS_LOAD_FAILED } from '../../domain/messages';
import { SEARCH_DEBOUNCE_MS } from '../../domain/sensor-search';
import { useFleet } from '../../shared/use-fleet';

/** How many of the fleet's matches the dropdown offers. */
export const SENSOR_MATCHES = 20;

interface Option {
  value: string;
  label: string;
}

/** The worker's first matches and the query they answer. */
interface Matches {
  query: string;
  options: Option[];
}

export const sensorOptionLabel = (s: { name: string; serial: string }) => `${s.name} · ${s.serial}`;

interface SensorFilterProps {
  orgId: string;
  /** The chosen sensor's id, if any, and its label (known once its record or a card of it is read; the card's words for one that is gone). */
  value: string | undefined;
  label: string | undefined;
  onChange(id: string | undefined): void;
}

/**
 * The sensor filter: a searchable select over the organisation's fleet. The fleet is loaded into the
 * data worker (useFleet) and searched there with the sensors list's rules only once the control is
 * used, so the page's first cards do not wait for it.
 */
export function SensorFilter({ orgId, value, label, onChange }: SensorFilterProps) {
  const [active, setActive] = useState(false);
  const [search, setSearch] = useState('');
  const [matches, setMatches] = useState<Matches | undefined>(undefined);
  // the fleet's load failed (its reason): no answer is coming, so the dropdown says so instead of searching
  const [failure, setFailure] = useState<string | undefined>(undefined);
  // the option picked here names the sensor until the page's own record of it arrives
  const [picked, setPicked] = useState<Option | undefined>(undefined);
  const chosen = value ? { value, label: label ?? (picked?.value === value ? picked.label : 'Loading sensor…') } : undefined;
  // the search box shows the chosen sensor's label: that is not a query
  const query = search === chosen?.label ? '' : search;
  const [debounced] = useDebouncedValue(query, SEARCH_DEBOUNCE_MS);
  // only the worker's answer to the query in the box is offered: until it comes (the debounce, the
  // search), an answer to an earlier query would move under a click, so the dropdown says it is searching
  const answered = matches !== undefined && matches.query.trim() === query.trim() ? matches.options : undefined;
  const chosenValue = chosen?.value;
  const chosenLabel = chosen?.label;
  // the chosen option stays in the data so the box can name it; it is offered beside the fleet's first rows, not among another query's matches
  const data = useMemo(() => {
    const options = answered ?? [];
    return chosenValue && chosenLabel && !options.some((m) => m.value === chosenValue) ? [{ value: chosenValue, label: chosenLabel }, ...options] : options;
  }, [chosenValue, chosenLabel, answered]);
  const emptyMessage = failure !== undefined ? <LoadFailure reason={failure} /> : answered ? 'No sensor matches' : 'Searching…';
  const offered = useMemo(() => new Set(answered === undefined ? [] : query.trim() === '' ? data.map((o) => o.value) : answered.map((o) => o.value)), [answered, data, query]);

  return (
    <>
      {active && <FleetMatches orgId={orgId} query={debounced} onMatches={setMatches} onFailure={setFailure} />}
      <Select
        label="Sensor"
        placeholder="All sensors (type to search)"
        searchable
        clearable
        data={data}
        value={value ?? null}
        searchValue={search}
        onSearchChange={setSearch}
        // the worker has searched: offer its answer as it is, nothing else
        filter={({ options }) => options.filter((o) => 'value' in o && offered.has(o.value))}
        onFocus={() => setActive(true)}
        onDropdownOpen={() => setActive(true)}
        onChange={(id, option) => {
          setPicked(option ?? undefined);
          onChange(id ?? undefined);
        }}
        nothingFoundMessage={active ? emptyMessage : undefined}
        w={{ base: '100%', sm: 300 }}
      />
    </>
  );
}

/** The sensors page's load failure (monitoring-client 8), with its reason. */
function LoadFailure({ reason }: { reason: string }) {
  return (
    <Stack gap={2} role="alert">
      <Text size="sm" c="red" fw={500}>
        {SENSORS_LOAD_FAILED}
      </Text>
      <Text size="xs" c="dimmed">
        {reason}
      </Text>
    </Stack>
  );
}

/**
 * Loads the fleet into the worker and answers its first matches of the query, with the query they
 * answer, or the load's failure (undefined again once a later read of the fleet succeeds).
 */
function FleetMatches({ orgId, query, onMatches, onFailure }: { orgId: string; query: string; onMatches(m: Matches): void; onFailure(reason: string | undefined): void }) {
  const { state, search, rows } = useFleet(orgId);
  const version = state.status === 'ready' ? state.version : -1;
  const failed = state.status === 'error' ? state.message : undefined;
  useEffect(() => onFailure(failed), [failed, onFailure]);
  useEffect(() => search(query), [search, query]);
  useEffect(() => {
    if (version < 0) return;
    let stale = false;
    void rows(0, SENSOR_MATCHES).then((r) => {
      if (!stale) onMatches({ query: r.query, options: r.rows.map((x) => ({ value: x.sensor.id, label: sensorOptionLabel(x.sensor) })) });
    });
    return () => {
      stale = true;
    };
  }, [version, rows, onMatches]);
  return null;
}
