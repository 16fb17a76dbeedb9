import { useEffect, useState } from 'react';
import { ActionIcon, Divider, Popover, Table, Text } from '@mantine/core';
import { IconCpu } from '@tabler/icons-react';
import { firmwareListSchema, type Firmware, type Sensor } from '../../contract/sensor.schema';
import { hardwareVersionText } from '../../domain/sensor-types';
import { api } from '../../shared/api';

const valid = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0;
const num = (v: unknown) => (valid(v) ? String(v) : 'N/A');
const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v : 'N/A');

/** Site admins' firmware details (monitoring-client 2.5): values that are not valid show N/A. */
export function FirmwarePopup({ sensor }: { sensor: Sensor }) {
  const [opened, setOpened] = useState(false);
  const [latest, setLatest] = useState<Firmware | null | undefined>(undefined);
  const boot = sensor.latestBootInfo ?? {};
  const hw = boot.hardwareVersion;

  useEffect(() => {
    if (!opened || latest !== undefined) return;
    api
      .get('/admin/firmware', { schema: firmwareListSchema })
      .then(({ firmware }) => {
        const fits = firmware.filter((f) => f.fwType === 'Main' && (hw === undefined || f.applyTo.hardwareVersions.includes(hw)));
        setLatest(fits.sort((a, b) => b.fwVersion - a.fwVersion)[0] ?? null);
      })
      .catch(() => setLatest(null));
  }, [opened, latest, hw]);

  const rows: [string, string][] = [
    ['Build type', text(boot.buildType)],
    ['Firmware version', num(boot.firmwareVersion)],
    ['Sensor version', num(boot.sensorVersion)],
    ['Hardware version', valid(hw) ? `${hardwareVersionText(hw)} (${hw})` : 'N/A'],
  ];
  return (
    <Popover opened={opened} onChange={setOpened} position="bottom-end" withArrow shadow="md" width={280}>
      <Popover.Target>
        <ActionIcon variant="light" size="sm" aria-label="Firmware details" onClick={() => setOpened((o) => !o)}>
          <IconCpu size={14} />
        </ActionIcon>
      </Popover.Target>
      <Popover.Dropdown>
        <Text fw={600} size="sm" mb={4}>
          Firmware details
        </Text>
        <Table withRowBorders={false} verticalSpacing={2} fz="sm">
          <Table.Tbody>
            {rows.map(([k, v]) => (
              <Table.Tr key={k}>
                <Table.Td c="dimmed">{k}</Table.Td>
                <Table.Td ta="right">{v}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        <Divider my={6} />
        <Text size="xs" c="dimmed">
          {latest === undefined
            ? 'Checking for newer firmware...'
            : latest
              ? `Newest main firmware for this hardware: ${latest.fwName} (v${latest.fwVersion}, ${latest.buildType})`
              : 'No firmware records for this hardware.'}
        </Text>
      </Popover.Dropdown>
    </Popover>
  );
}
