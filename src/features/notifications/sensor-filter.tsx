import { useEffect, useMemo, useState } from 'react';
import { Anchor, Select, Stack, Text } from '@mantine/core';
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
  // the fleet's load failed (its reason, and a retry): no answer is coming, so the dropdown says so instead of searching
  const [failure, setFailure] = useState<Failure | undefined>(undefined);
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
  const emptyMessage = failure !== undefined ? <LoadFailure reason={failure.reason} onRetry={failure.retry} /> : answered ? 'No sensor matches' : 'Searching…';
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
        onDropdownOpen={() => {
          setActive(true);
          // opened again after a failed load: try it again rather than show the old failure
          failure?.retry();
        }}
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

/** The fleet's failed load: its reason, and a new load of it. */
interface Failure {
  reason: string;
  retry(): void;
}

/** The sensors page's load failure (monitoring-client 8), with its reason and "Try again" (a new load of the fleet). */
function LoadFailure({ reason, onRetry }: { reason: string; onRetry(): void }) {
  return (
    <Stack gap={2} align="flex-start" role="alert">
      <Text size="sm" c="red" fw={500}>
        {SENSORS_LOAD_FAILED}
      </Text>
      <Text size="xs" c="dimmed">
        {reason}
      </Text>
      {/* a mouse press here would blur the search box and close the dropdown before the click */}
      <Anchor component="button" type="button" fz="sm" onMouseDown={(e) => e.preventDefault()} onClick={onRetry}>
        Try again
      </Anchor>
    </Stack>
  );
}

/**
 * Loads the fleet into the worker and answers its first matches of the query, with the query they
 * answer, or the load's failure with a retry (undefined again while the retry loads, and once a
 * later read of the fleet, a retry or the minute's refresh, succeeds).
 */
function FleetMatches({ orgId, query, onMatches, onFailure }: { orgId: string; query: string; onMatches(m: Matches): void; onFailure(failure: Failure | undefined): void }) {
  const { state, search, rows, reload } = useFleet(orgId);
  const version = state.status === 'ready' ? state.version : -1;
  const failed = state.status === 'error' ? state.message : undefined;
  useEffect(() => onFailure(failed === undefined ? undefined : { reason: failed, retry: () => void reload() }), [failed, reload, onFailure]);
  useEffect(() => void search(query), [search, query]);
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
