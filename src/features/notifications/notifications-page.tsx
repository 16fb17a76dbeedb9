import { startTransition, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { Box, Button, Center, Group, Loader, Paper, Select, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconBellOff } from '@tabler/icons-react';
import {
  NOTIFICATION_TYPES,
  notificationPageSchema,
  type NotificationPage,
  type NotificationSensor,
  type NotificationState,
  type NotificationType,
  type SensorNotification,
} from '../../contract/notification.schema';
import { sensorResponseSchema } from '../../contract/sensor.schema';
import { NOTIFICATION_TITLE } from '../../domain/notification-rules';
import { filtersFromQuery, filtersToQuery, placeLiveNotification, type NotificationFilters } from '../../domain/notification-filters';
import { isNetworkError, messageForError } from '../../domain/messages';
import { api } from '../../shared/api';
import { NOTIFICATIONS_PAGE_SIZE, readEarly } from '../../shared/early-reads';
import { useSession } from '../../shared/session';
import { subscribeOrg } from '../../shared/live';
import { LoadFailedNotice } from '../../shared/load-failed';
import { NotificationCards } from './notification-cards';
import { SensorFilter, sensorOptionLabel } from './sensor-filter';
import { GONE_SENSOR } from './notification-card';

export const LOAD_FAILED = 'Loading data failed. Please check your internet connection and try again.';
/** Cards per page: the first page is on screen quickly, the next ones come as the list is scrolled. */
export const PAGE_SIZE = NOTIFICATIONS_PAGE_SIZE;

/** The spec's data-load message when the network failed; otherwise the spec's message for the error. */
const loadMessage = (err: unknown) => (isNetworkError(err) ? LOAD_FAILED : messageForError(err));

type More = 'idle' | 'loading' | { error: string };
type Load =
  | { status: 'loading' }
  | { status: 'error'; message: string }
  | { status: 'ready'; notifications: SensorNotification[]; sensors: Map<string, NotificationSensor>; next: string | null; more: More };

function fetchPage(orgId: string, filters: NotificationFilters, cursor: string | undefined, signal?: AbortSignal): Promise<NotificationPage> {
  const q = filtersToQuery(filters);
  q.set('limit', String(PAGE_SIZE));
  if (cursor) q.set('cursor', cursor);
  // a page opened by link finds its first read begun beside the user's (src/shared/early-reads.ts)
  return readEarly(`/organisations/${orgId}/notifications?${q}`, notificationPageSchema, signal);
}

const withSensors = (map: Map<string, NotificationSensor>, add: Record<string, NotificationSensor>) => {
  const next = new Map(map);
  for (const [id, s] of Object.entries(add)) next.set(id, s);
  return next;
};

const TYPE_OPTIONS = [{ value: 'all', label: 'All types' }, ...NOTIFICATION_TYPES.map((t) => ({ value: t, label: NOTIFICATION_TITLE[t] }))];
const STATE_OPTIONS = [
  { value: 'all', label: 'Open and closed' },
  { value: 'open', label: 'Open' },
  { value: 'closed', label: 'Closed' },
];

/**
 * The organisation's notifications (monitoring-client 2.8): badges, styles, the spec's order, VIEW
 * links; read from the server a page at a time, filtered by type, state and sensor (kept in the
 * URL query), with notifications opened or closed live placed among the loaded ones.
 */
export function NotificationsPage() {
  const { org, orgPath, user } = useSession();
  const [params, setParams] = useSearchParams();
  const filterKey = filtersToQuery(filtersFromQuery(params)).toString();
  const filters = useMemo(() => filtersFromQuery(new URLSearchParams(filterKey)), [filterKey]);
  const [load, setLoad] = useState<Load>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  /** Counts the list's (re)starts: an answer for an earlier one is dropped. */
  const generation = useRef(0);

  useEffect(() => {
    const gen = ++generation.current;
    const ctrl = new AbortController();
    setLoad({ status: 'loading' });
    fetchPage(org.id, filters, undefined, ctrl.signal)
      // the first cards as a transition: React renders them in slices that yield to the browser (a
      // page of cards, each formatting its times in the organisation's zone, was one task of 50 to
      // 85 ms on a 2-vCPU machine; docs/performance.md)
      .then((p) => startTransition(() => setLoad({ status: 'ready', notifications: p.notifications, sensors: new Map(Object.entries(p.sensors)), next: p.next, more: 'idle' })))
      .catch((err) => !ctrl.signal.aborted && setLoad({ status: 'error', message: loadMessage(err) }));
    // notifications opened or closed while the page is open arrive on the live feed
    const off = subscribeOrg(org.id, {
      onNotification: (m) =>
        setLoad((prev) => (prev.status === 'ready' && generation.current === gen ? { ...prev, notifications: placeLiveNotification(prev.notifications, m.notification, filters, prev.next === null) } : prev)),
    });
    return () => {
      ctrl.abort();
      off();
    };
  }, [org.id, filters, attempt]);

  const ready = load.status === 'ready' ? load : undefined;
  const loadMore = useCallback(() => {
    if (!ready || ready.next === null || ready.more === 'loading') return;
    const gen = generation.current;
    const cursor = ready.next;
    const current = (prev: Load): prev is Extract<Load, { status: 'ready' }> => prev.status === 'ready' && generation.current === gen && prev.next === cursor;
    setLoad((prev) => (current(prev) ? { ...prev, more: 'loading' } : prev));
    fetchPage(org.id, filters, cursor)
      .then((p) =>
        setLoad((prev) => {
          if (!current(prev)) return prev;
          const have = new Set(prev.notifications.map((n) => n.id));
          return { ...prev, notifications: [...prev.notifications, ...p.notifications.filter((n) => !have.has(n.id))], sensors: withSensors(prev.sensors, p.sensors), next: p.next, more: 'idle' };
        }),
      )
      .catch((err) => setLoad((prev) => (current(prev) ? { ...prev, more: { error: loadMessage(err) } } : prev)));
  }, [ready, org.id, filters]);

  // A card of a sensor the pages did not name (one added since, by a live notification) or the
  // chosen sensor filter's label: that sensor's record is read once.
  const askedFor = useRef(new Set<string>());
  /** Sensors whose record could not be read: the filter names one as its card does. */
  const [gone, setGone] = useState<ReadonlySet<string>>(new Set());
  useEffect(() => {
    askedFor.current.clear();
    setGone(new Set());
  }, [org.id]);
  const unknownIds = ready ? [...new Set([...ready.notifications.map((n) => n.sensorId), ...(filters.sensor ? [filters.sensor] : [])])].filter((id) => !ready.sensors.has(id) && !askedFor.current.has(id)) : [];
  const unknownKey = unknownIds.join(',');
  useEffect(() => {
    if (!unknownKey) return;
    const gen = generation.current;
    for (const id of unknownKey.split(',')) {
      askedFor.current.add(id);
      api
        .get(`/organisations/${org.id}/sensors/${id}`, { schema: sensorResponseSchema })
        .then(({ sensor: s }) =>
          setLoad((prev) =>
            prev.status === 'ready' && generation.current === gen ? { ...prev, sensors: withSensors(prev.sensors, { [s.id]: { serial: s.serial, name: s.name, measurementInterval: s.config.measurementInterval } }) } : prev,
          ),
        )
        // the card keeps saying the sensor is not in this organisation
        .catch(() => setGone((prev) => new Set(prev).add(id)));
    }
  }, [unknownKey, org.id]);

  // two choices made before the page renders the first (a busy page) must not undo each other:
  // each change builds on the last one asked for, not on the filters of the last render
  const asked = useRef<NotificationFilters | null>(null);
  useEffect(() => {
    asked.current = null;
  }, [filterKey]);
  const setFilter = (change: Partial<NotificationFilters>) => {
    const next = { ...(asked.current ?? filters), ...change };
    asked.current = next;
    const q = new URLSearchParams(params);
    for (const k of ['type', 'state', 'sensor'] as const) q.delete(k);
    for (const [k, v] of filtersToQuery(next)) q.set(k, v);
    setParams(q, { replace: true });
  };
  const filtered = filterKey !== '';
  const chosen = filters.sensor ? ready?.sensors.get(filters.sensor) : undefined;
  const chosenLabel = chosen ? sensorOptionLabel(chosen) : filters.sensor && gone.has(filters.sensor) ? GONE_SENSOR : undefined;

  return (
    <Box maw={1240} mx="auto" p="md">
      <Group justify="space-between" mb="md">
        <Box>
          <Title order={1} size="h2">Notifications</Title>
          <Text c="dimmed" size="sm">
            Alarms and warnings from {org.name}'s sensors
          </Text>
        </Box>
      </Group>
      <Group mb="md" gap="sm" align="flex-end" role="search" aria-label="Filter notifications">
        <Select
          label="Type"
          data={TYPE_OPTIONS}
          value={filters.type ?? 'all'}
          allowDeselect={false}
          onChange={(v) => setFilter({ type: v && v !== 'all' ? (v as NotificationType) : undefined })}
          w={{ base: '100%', xs: 200 }}
        />
        <Select
          label="State"
          data={STATE_OPTIONS}
          value={filters.state ?? 'all'}
          allowDeselect={false}
          onChange={(v) => setFilter({ state: v && v !== 'all' ? (v as NotificationState) : undefined })}
          w={{ base: '100%', xs: 180 }}
        />
        <SensorFilter orgId={org.id} value={filters.sensor} label={chosenLabel} onChange={(sensor) => setFilter({ sensor })} />
        {filtered && (
          <Button variant="subtle" onClick={() => setFilter({ type: undefined, state: undefined, sensor: undefined })}>
            Clear filters
          </Button>
        )}
      </Group>
      {load.status === 'loading' && (
        <Center py="xl">
          <Loader />
        </Center>
      )}
      {load.status === 'error' && <LoadFailedNotice onRetry={() => setAttempt((a) => a + 1)}>{load.message}</LoadFailedNotice>}
      {ready && ready.notifications.length === 0 && (
        <Paper withBorder radius="lg" p="xl">
          <Stack align="center" gap="sm" py="lg">
            <ThemeIcon size={64} radius="xl" variant="light" color="gray">
              <IconBellOff size={34} />
            </ThemeIcon>
            <Title order={3}>No notifications</Title>
            <Text c="dimmed" ta="center" maw={420}>
              {filtered ? 'No notification matches these filters.' : 'When a sensor raises an alarm, goes offline or runs low on battery, it will show up here.'}
            </Text>
          </Stack>
        </Paper>
      )}
      {ready && ready.notifications.length > 0 && (
        <NotificationCards
          notifications={ready.notifications}
          sensors={ready.sensors}
          sensorsUrl={`${orgPath}/sensors`}
          unit={org.measurementUnit}
          timeDisplay={user.displaySettings.timeDisplay}
          timeZone={org.locale.timezone}
          hasMore={ready.next !== null}
          onNearEnd={ready.more === 'idle' ? loadMore : undefined}
        />
      )}
      {ready && ready.next !== null && (
        <Stack align="center" mt="md" gap="xs">
          {typeof ready.more === 'object' && <LoadFailedNotice onRetry={loadMore}>{ready.more.error}</LoadFailedNotice>}
          <Button variant="default" onClick={loadMore} loading={ready.more === 'loading'}>
            Load more
          </Button>
        </Stack>
      )}
    </Box>
  );
}
