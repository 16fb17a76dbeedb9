import type { ReactNode } from 'react';
import { Badge, Box, Group, Menu, Paper, Tabs, Text, Title, UnstyledButton } from '@mantine/core';
import { IconChevronDown, IconLayoutDashboard, IconTool, IconAlertOctagon, IconSettings } from '@tabler/icons-react';
import type { Sensor } from '../../contract/sensor.schema';
import { displayStatus, STATUS_COLOUR, STATUS_LABEL } from '../../domain/sensor-status';
import { sensorTypeName } from '../../domain/sensor-types';
import classes from './sensor-detail-frame.module.css';

export type DetailTab = 'dashboard' | 'setup' | 'errors';

interface SensorDetailFrameProps {
  sensor: Sensor;
  tab: DetailTab;
  isSiteAdmin: boolean;
  /** Admins, owners and site admins see the Sensor Setup tab. */
  canSetup: boolean;
  mobile: boolean;
  onTab(tab: DetailTab): void;
  children: ReactNode;
}

/**
 * The sensor header and its tabs by role (monitoring-client 2.5): Dashboard for all; site admins
 * get Measurement Errors under an Admin Tools menu (a plain tab on mobile); admins, owners and
 * site admins get Sensor Setup.
 */
export function SensorDetailFrame({ sensor, tab, isSiteAdmin, canSetup, mobile, onTab, children }: SensorDetailFrameProps) {
  const status = displayStatus(sensor);
  return (
    <Box>
      <Paper withBorder radius="lg" px="lg" pt="md" mb="md">
        <Group justify="space-between" align="flex-start" wrap="nowrap" gap="sm">
          {/* the serial and type beside the name where they fit (a laptop keeps the chart on its first screen) */}
          <Group miw={0} gap="xs" align="baseline" style={{ columnGap: "var(--mantine-spacing-md)" }}>
            <Title order={1} size="h3" style={{ overflowWrap: 'anywhere' }}>
              {sensor.name}
            </Title>
            <Group gap="xs">
              <Text size="sm" c="dimmed" ff="monospace">
                {sensor.serial}
              </Text>
              <Text size="sm" c="dimmed">
                · {sensorTypeName(sensor.sensorType)}
              </Text>
            </Group>
          </Group>
          <Badge color={STATUS_COLOUR[status]} variant="light" size="lg" radius="sm" style={{ flexShrink: 0 }}>
            {STATUS_LABEL[status]}
          </Badge>
        </Group>
        {/* the Admin Tools menu sits beside the tab list, not in it (a tablist holds only tabs), drawn as a tab */}
        <Group gap={0} wrap="nowrap" align="flex-end" mt="sm" className={classes.tabRow}>
          <Tabs value={tab} onChange={(v) => v && onTab(v as DetailTab)} style={{ minWidth: 0 }} styles={{ list: { flexWrap: 'nowrap', overflowX: 'auto', overflowY: 'hidden' }, tab: { whiteSpace: 'nowrap' } }}>
            <Tabs.List>
              <Tabs.Tab value="dashboard" leftSection={<IconLayoutDashboard size={16} />}>
                Dashboard
              </Tabs.Tab>
              {canSetup && (
                <Tabs.Tab value="setup" leftSection={<IconSettings size={16} />}>
                  Sensor Setup
                </Tabs.Tab>
              )}
              {isSiteAdmin && mobile && (
                <Tabs.Tab value="errors" leftSection={<IconAlertOctagon size={16} />}>
                  Measurement Errors
                </Tabs.Tab>
              )}
            </Tabs.List>
          </Tabs>
          {isSiteAdmin && !mobile && (
            <Menu position="bottom-start" withinPortal>
              <Menu.Target>
                <UnstyledButton className={classes.adminTab} data-active={tab === 'errors' || undefined}>
                  <IconTool size={16} />
                  Admin Tools
                  <IconChevronDown size={14} />
                </UnstyledButton>
              </Menu.Target>
              <Menu.Dropdown>
                <Menu.Item leftSection={<IconAlertOctagon size={16} />} onClick={() => onTab('errors')}>
                  Measurement Errors
                </Menu.Item>
              </Menu.Dropdown>
            </Menu>
          )}
        </Group>
      </Paper>
      {children}
    </Box>
  );
}
