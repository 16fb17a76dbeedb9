import { Link } from 'react-router-dom';
import { Alert, Anchor, Badge, Group, Stack, Switch, Table, Text, TextInput } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import type { Alarm, Sensor } from '../../contract/sensor.schema';
import { ALARM_LABELS, alarmFormOf, alarmFormToBody, toggleAlarm, type AlarmForm } from '../../domain/alarm-form';
import { formatLevel, type MeasurementUnit } from '../../domain/sensor-format';
import { isSatellite } from '../../domain/sensor-update';
import { SETUP_NOTICES } from '../../domain/setup-messages';
import { unitSuffix } from '../../domain/setup-units';
import { UpdateButton } from './update-button';
import type { SectionProps } from './section-types';
import { saveFailure } from './failure';
import { useSectionSave } from './use-section-save';

/** Alarm settings (sensor-setup 2, 4, 5): editable for the satellite radio, read-only with the remote-task banner otherwise. */
export default function AlarmsSection(props: SectionProps) {
  return isSatellite(props.sensor) ? <SatelliteAlarms {...props} /> : <ReadOnlyAlarms {...props} />;
}

const thresholdText = (a: Alarm, unit: MeasurementUnit) => (a.type === 'ACCELEROMETER' ? String(a.threshold) : a.type.startsWith('DELTA') ? `${formatLevel(a.threshold, unit)} per hour` : formatLevel(a.threshold, unit));

function ReadOnlyAlarms({ sensor, org, sectionPath }: SectionProps) {
  const alarms = Object.entries(sensor.alarms).sort(([a], [b]) => Number(a) - Number(b));
  return (
    <Stack gap="md">
      <Alert color="blue" icon={<IconInfoCircle />} data-testid="alarms-banner">
        Alarms can be set over bluetooth with the mobile app, or by creating a{' '}
        <Anchor component={Link} to={sectionPath('remote')} inherit>
          remote task
        </Anchor>
        . A minimum firmware version is required.
      </Alert>
      {alarms.length === 0 ? (
        <Text size="sm" c="dimmed">
          This sensor has no alarms.
        </Text>
      ) : (
        <Table withTableBorder maw={560}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Alarm</Table.Th>
              <Table.Th>Threshold</Table.Th>
              <Table.Th>Status</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {alarms.map(([slot, a]) => (
              <Table.Tr key={slot}>
                <Table.Td>{ALARM_LABELS[a.type]}</Table.Td>
                <Table.Td>{thresholdText(a, org.measurementUnit)}</Table.Td>
                <Table.Td>
                  <Badge variant="light" color={a.enabled ? 'teal' : 'gray'}>
                    {a.enabled ? 'Enabled' : 'Disabled'}
                  </Badge>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}

function SatelliteAlarms({ sensor, org, onSaved }: SectionProps) {
  const unit = org.measurementUnit;
  const form = useSectionSave<AlarmForm>({
    sensor,
    orgId: org.id,
    initial: alarmFormOf(sensor, unit),
    check: (v) => alarmFormToBody(v, unit, sensor),
    valuesOf: (s: Sensor) => alarmFormOf(s, unit),
    successMessage: SETUP_NOTICES.alarmsUpdated,
    failureMessage: saveFailure(SETUP_NOTICES.somethingWrong),
    onSaved,
    // enabling an alarm with an empty threshold raises the required error at once (sensor-setup 4)
    liveErrors: true,
  });
  const { values, errors, saving, edit } = form;
  const anyError = Object.keys(errors).length > 0;
  return (
    <form onSubmit={(e) => (e.preventDefault(), form.submit())} noValidate>
      <Stack gap="md" maw={560}>
        {values.map((row) => (
          <Group key={row.type} align="flex-start" gap="md" data-testid={`alarm-${row.type}`}>
            <Switch label={ALARM_LABELS[row.type]} checked={row.enabled} onChange={(e) => {
              const on = e.currentTarget.checked;
              edit((f) => toggleAlarm(f, row.type, on));
            }} disabled={saving} w={200} mt={8} />
            <TextInput
              aria-label={`${ALARM_LABELS[row.type]} threshold`}
              placeholder="Threshold"
              inputMode="decimal"
              rightSection={<Text size="xs" c="dimmed">{row.type === 'ACCELEROMETER' ? '' : unitSuffix(unit)}</Text>}
              value={row.threshold}
              onChange={(e) => {
                const threshold = e.currentTarget.value;
                edit((f) => f.map((r) => (r.type === row.type ? { ...r, threshold } : r)));
              }}
              error={errors[row.type]}
              disabled={saving}
              w={200}
            />
          </Group>
        ))}
        <Group>
          <UpdateButton saving={saving} disabled={anyError} />
        </Group>
      </Stack>
    </form>
  );
}
