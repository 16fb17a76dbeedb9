import { useEffect, useState } from 'react';
import { Alert, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconBellRinging, IconInfoCircle } from '@tabler/icons-react';
import type { SensorNotification } from '../../contract/notification.schema';
import type { Sensor } from '../../contract/sensor.schema';
import type { MeasurementUnit } from '../../domain/sensor-format';
import { dashboardNotifications, notificationCardStyle, NOTIFICATION_TITLE } from '../../domain/notification-rules';
import { currentBattery, notificationText } from '../../domain/notification-text';
import { formatTime, timeAgo, type TimeDisplay } from '../../domain/time-format';
import { subscribeFleetFeed } from '../../shared/use-fleet';
import { applyNotification } from '../../domain/live-updates';
import { REFRESH, serverNow, useNow } from './use-clock';
import { notificationPages, readSensorAlertNotifications } from './sensor-alerts';

const STYLE = {
  alarm: { color: 'red', icon: IconBellRinging },
  info: { color: 'blue', icon: IconInfoCircle },
  warning: { color: 'orange', icon: IconAlertTriangle },
  history: { color: 'gray', icon: IconInfoCircle },
} as const;

const NOTIFICATION_POLL_MS = 60_000;

interface StatusAlertsProps {
  sensor: Sensor;
  orgId: string;
  unit: MeasurementUnit;
  timeDisplay: TimeDisplay;
  timeZone: string;
}

/** The dashboard's status alerts: this sensor's open notifications, one per type (monitoring-client 4), read for this sensor alone. */
export function StatusAlerts({ sensor, orgId, unit, timeDisplay, timeZone }: StatusAlertsProps) {
  const [all, setAll] = useState<SensorNotification[]>([]);
  // delta and movement alerts fall away once they are an hour old: re-check every 3 s
  const now = useNow(REFRESH.recentAlerts);

  useEffect(() => {
    // another sensor's list, until this one's arrives, shows nothing: dashboardNotifications keeps this sensor's only
    const ctrl = new AbortController();
    const load = () =>
      readSensorAlertNotifications(notificationPages(orgId, ctrl.signal), sensor.id, serverNow())
        .then((list) => {
          if (!ctrl.signal.aborted) setAll(list);
        })
        .catch(() => {}); // the alerts are a hint; the notifications page reports load failures
    void load();
    const id = setInterval(load, NOTIFICATION_POLL_MS);
    // from the data worker's feed, which the sensors list beside the dashboard runs (use-fleet.ts)
    const off = subscribeFleetFeed(orgId, {
      onNotification: (m) => {
        if (m.notification.sensorId === sensor.id) setAll((list) => applyNotification(list, m.notification));
      },
    });
    return () => {
      ctrl.abort();
      clearInterval(id);
      off();
    };
  }, [orgId, sensor.id]);

  const shown = dashboardNotifications(all, sensor, now);
  if (shown.length === 0) return null;
  return (
    <Stack gap="xs" role="region" aria-label="Status alerts">
      {shown.map((n) => {
        const style = STYLE[notificationCardStyle(n)];
        const Icon = style.icon;
        return (
          // the title runs into the text (not a line of its own): an open alarm keeps the chart on the first screen
          <Alert key={n.id} color={style.color} variant="light" radius="md" py="xs" icon={<Icon size={20} />}>
            <Text size="sm">
              {/* the Alert's own title colour: dark on the light variant, light on its dark-mode background */}
              <Text span fw={700} c={`var(--mantine-color-${style.color}-light-color)`} mr={6}>
                {NOTIFICATION_TITLE[n.meta.type]}
              </Text>
              {notificationText(currentBattery(n, sensor), unit)}
              <Text span size="xs" c="dimmed" ml={8}>
                Since {formatTime(n.startTime, timeDisplay, timeZone)} ({timeAgo(n.startTime, now)})
              </Text>
            </Text>
          </Alert>
        );
      })}
    </Stack>
  );
}
