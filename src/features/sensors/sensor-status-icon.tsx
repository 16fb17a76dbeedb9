import { ThemeIcon, Tooltip } from '@mantine/core';
import { IconAlertTriangle, IconBellRinging, IconCircleCheck, IconCircleDashed, IconPlayerPause } from '@tabler/icons-react';
import { STATUS_COLOUR, STATUS_LABEL, type SensorStatus } from '../../domain/sensor-status';

const ICONS = { OK: IconCircleCheck, WARNING: IconAlertTriangle, ALERT: IconBellRinging, DISABLED: IconPlayerPause, NO_STATUS: IconCircleDashed };

/** The status icon of a sensor, coloured by its status (monitoring-client 4). */
export function SensorStatusIcon({ status, size = 28 }: { status: SensorStatus; size?: number }) {
  const Icon = ICONS[status];
  return (
    <Tooltip label={STATUS_LABEL[status]} withArrow openDelay={300}>
      <ThemeIcon variant="light" color={STATUS_COLOUR[status]} size={size} radius="xl" role="img" aria-label={`Status: ${STATUS_LABEL[status]}`} data-status={status}>
        <Icon size={size * 0.62} stroke={1.8} />
      </ThemeIcon>
    </Tooltip>
  );
}
