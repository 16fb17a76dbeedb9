import { IconAlertTriangle, IconBellRinging, IconCircleCheck, IconCircleDashed, IconPlayerPause } from '@tabler/icons-react';
import { STATUS_COLOUR, STATUS_LABEL, type SensorStatus } from '../../domain/sensor-status';
import classes from './sensors.module.css';

const ICONS = { OK: IconCircleCheck, WARNING: IconAlertTriangle, ALERT: IconBellRinging, DISABLED: IconPlayerPause, NO_STATUS: IconCircleDashed };

/**
 * The status icon of a sensor, coloured by its status (monitoring-client 4), with its label shown
 * on hover. Plain elements and a CSS tooltip, not Mantine's ThemeIcon and Tooltip: a list row
 * mounts one on every scroll step, and those two components (styles resolved per render, a
 * floating-ui tooltip per row) were most of a row's cost (benchmark 22's scroll profile).
 */
export function SensorStatusIcon({ status, size = 28 }: { status: SensorStatus; size?: number }) {
  const Icon = ICONS[status];
  const colour = STATUS_COLOUR[status];
  return (
    <span
      className={classes.statusIcon}
      role="img"
      aria-label={`Status: ${STATUS_LABEL[status]}`}
      data-status={status}
      data-label={STATUS_LABEL[status]}
      style={{ width: size, height: size, background: `var(--mantine-color-${colour}-light)`, color: `var(--mantine-color-${colour}-light-color)` }}
    >
      <Icon size={size * 0.62} stroke={1.8} aria-hidden="true" />
    </span>
  );
}
