import { useEffect, useMemo, useRef, useState } from 'react';
import { Box, Center, Group, Loader, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconBellOff } from '@tabler/icons-react';
import { notificationListSchema, type SensorNotification } from '../../contract/notification.schema';
import { sensorListSchema, type Sensor } from '../../contract/sensor.schema';
import { orderNotifications } from '../../domain/notification-rules';
import { api } from '../../shared/api';
import { useSession } from '../../shared/session';
import { NotificationCard } from './notification-card';
import classes from './notifications.module.css';
import { subscribeOrg } from '../../shared/live';
import { applyNotification } from '../../domain/live-updates';
import { LoadFailedNotice } from '../../shared/load-failed';

export const LOAD_FAILED = 'Loading data failed. Please check your internet connection and try again.';

type Load = { status: 'loading' } | { status: 'error' } | { status: 'ready'; notifications: SensorNotification[]; sensors: Map<string, Sensor> };

/** The organisation's notifications (monitoring-client 2.8): badges, styles, the spec's order, VIEW links. */
export function NotificationsPage() {
  const { org, orgPath, user } = useSession();
  const [load, setLoad] = useState<Load>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    const ctrl = new AbortController();
    setLoad({ status: 'loading' });
    Promise.all([
      api.get(`/organisations/${org.id}/notifications`, { schema: notificationListSchema, signal: ctrl.signal }),
      api.get(`/organisations/${org.id}/sensors`, { schema: sensorListSchema, signal: ctrl.signal }),
    ])
      .then(([n, s]) => setLoad({ status: 'ready', notifications: n.notifications, sensors: new Map(s.sensors.map((x) => [x.id, x])) }))
      .catch(() => !ctrl.signal.aborted && setLoad({ status: 'error' }));
    // notifications opened or closed while the page is open arrive on the live feed
    const off = subscribeOrg(org.id, {
      onNotification: (m) => setLoad((prev) => (prev.status === 'ready' ? { ...prev, notifications: applyNotification(prev.notifications, m.notification) } : prev)),
    });
    return () => {
      ctrl.abort();
      off();
    };
  }, [org.id, attempt]);

  // A notification of a sensor added since the list was read: read the sensors again (once per
  // unknown id), so its card names the sensor and links to it instead of calling it gone.
  const askedFor = useRef(new Set<string>());
  const currentOrg = useRef(org.id);
  currentOrg.current = org.id;
  const unknownIds = load.status === 'ready' ? [...new Set(load.notifications.map((n) => n.sensorId))].filter((id) => !load.sensors.has(id) && !askedFor.current.has(id)) : [];
  const unknownKey = unknownIds.join(',');
  useEffect(() => {
    if (!unknownKey) return;
    unknownKey.split(',').forEach((id) => askedFor.current.add(id));
    // not aborted when the key empties again (it does at once): only a new organisation drops it
    const orgId = org.id;
    api
      .get(`/organisations/${orgId}/sensors`, { schema: sensorListSchema })
      .then((s) => setLoad((prev) => (prev.status === 'ready' && currentOrg.current === orgId ? { ...prev, sensors: new Map(s.sensors.map((x) => [x.id, x])) } : prev)))
      .catch(() => undefined); // the card keeps saying the sensor is not in this organisation
  }, [unknownKey, org.id]);

  const ordered = useMemo(() => (load.status === 'ready' ? orderNotifications(load.notifications) : []), [load]);

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
      {load.status === 'loading' && (
        <Center py="xl">
          <Loader />
        </Center>
      )}
      {load.status === 'error' && (
        <LoadFailedNotice onRetry={() => setAttempt((a) => a + 1)}>{LOAD_FAILED}</LoadFailedNotice>
      )}
      {load.status === 'ready' && ordered.length === 0 && (
        <Paper withBorder radius="lg" p="xl">
          <Stack align="center" gap="sm" py="lg">
            <ThemeIcon size={64} radius="xl" variant="light" color="gray">
              <IconBellOff size={34} />
            </ThemeIcon>
            <Title order={3}>No notifications</Title>
            <Text c="dimmed" ta="center" maw={420}>
              When a sensor raises an alarm, goes offline or runs low on battery, it will show up here.
            </Text>
          </Stack>
        </Paper>
      )}
      {load.status === 'ready' && ordered.length > 0 && (
        <div className={classes.grid}>
          {ordered.map((n) => (
            <NotificationCard
              key={n.id}
              notification={n}
              sensor={load.sensors.get(n.sensorId)}
              sensorsUrl={`${orgPath}/sensors`}
              unit={org.measurementUnit}
              timeDisplay={user.displaySettings.timeDisplay}
              timeZone={org.locale.timezone}
            />
          ))}
        </div>
      )}
    </Box>
  );
}
