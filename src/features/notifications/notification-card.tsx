import { Link } from 'react-router-dom';
import { Badge, Button, ThemeIcon } from '@mantine/core';
import { IconAlertTriangle, IconArrowRight, IconBellRinging, IconHistory, IconInfoCircle } from '@tabler/icons-react';
import type { NotificationSensor, SensorNotification } from '../../contract/notification.schema';
import { notificationBadge, notificationCardStyle, notificationViewWindow, NOTIFICATION_TITLE } from '../../domain/notification-rules';
import { notificationText } from '../../domain/notification-text';
import type { MeasurementUnit } from '../../domain/sensor-format';
import { DEFAULT_MEASUREMENT_INTERVAL } from '../../domain/sensor-format';
import { durationText, formatTime, type TimeDisplay } from '../../domain/time-format';
import classes from './notifications.module.css';

const STYLE = {
  alarm: { color: 'red', icon: IconBellRinging },
  info: { color: 'blue', icon: IconInfoCircle },
  warning: { color: 'orange', icon: IconAlertTriangle },
  history: { color: 'gray', icon: IconHistory },
} as const;
/** What a card (and the sensor filter) says of a sensor no longer in the organisation. */
export const GONE_SENSOR = 'A sensor no longer in this organisation';
const BADGE_COLOUR = { INFO: 'blue', ACTIVE: 'red', CLEARED: 'gray' } as const;

interface NotificationCardProps {
  notification: SensorNotification;
  /** Its sensor's name, serial and measurement interval (from the page); undefined: no longer in the organisation. */
  sensor: NotificationSensor | undefined;
  sensorsUrl: string;
  unit: MeasurementUnit;
  timeDisplay: TimeDisplay;
  timeZone: string;
}

/** One notification: badge, style by state and type, and a VIEW link to the chart around it. */
export function NotificationCard({ notification: n, sensor, sensorsUrl, unit, timeDisplay, timeZone }: NotificationCardProps) {
  const style = notificationCardStyle(n);
  const badge = notificationBadge(n);
  const Icon = STYLE[style].icon;
  const window = notificationViewWindow(n, sensor?.measurementInterval ?? DEFAULT_MEASUREMENT_INTERVAL, timeZone);
  const view = sensor ? `${sensorsUrl}/${sensor.serial}?start=${window.start}&end=${window.end}` : undefined;

  // plain elements with the card's own classes (notifications.module.css) for its layout and text, the
  // look of Mantine's Paper, Group, Stack and Text: a page draws 12 to 24 cards in its first commit,
  // and each Mantine component resolves its style props on every render (docs/performance.md)
  return (
    <div className={classes.card} data-style={style} data-badge={badge} role="article" aria-label={NOTIFICATION_TITLE[n.meta.type]}>
      <div className={classes.cardBody}>
        <ThemeIcon variant="light" color={STYLE[style].color} size={40} radius="xl">
          <Icon size={22} />
        </ThemeIcon>
        <div className={classes.cardText}>
          <div className={classes.cardHead}>
            <p className={`${classes.sm} ${classes.title}`}>{NOTIFICATION_TITLE[n.meta.type]}</p>
            <Badge color={BADGE_COLOUR[badge]} variant={badge === 'ACTIVE' ? 'filled' : 'light'} radius="sm" style={{ flexShrink: 0 }}>
              {badge}
            </Badge>
          </div>
          <p className={`${classes.sm} ${classes.subject}`}>{sensor ? `${sensor.name} · ${sensor.serial}` : GONE_SENSOR}</p>
          <p className={style === 'history' ? `${classes.sm} ${classes.dimmed}` : classes.sm}>{notificationText(n, unit)}</p>
          <div className={classes.cardFoot}>
            <p className={`${classes.xs} ${classes.dimmed}`}>
              {formatTime(n.startTime, timeDisplay, timeZone)}
              {n.endTime !== null && ` – ${formatTime(n.endTime, timeDisplay, timeZone)} (${durationText(n.endTime - n.startTime)})`}
            </p>
            {view && (
              <Button component={Link} to={view} variant="subtle" size="compact-sm" rightSection={<IconArrowRight size={14} />}>
                VIEW
              </Button>
            )}
          </div>
        </div>
      </div>
    </div>
  );
}
