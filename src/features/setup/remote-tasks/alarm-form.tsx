import { useState } from 'react';
import { Button, NumberInput, Select, Stack, Switch, Text } from '@mantine/core';
import type { CreateTaskRequest, DownlinkTask } from '../../../contract/downlink-task.schema';
import type { Alarm, Sensor } from '../../../contract/sensor.schema';
import { queuedAlarmTypes } from '../../../domain/remote-tasks';
import { ALARM_TYPE_LABEL, alarmSlotFor, alarmValueError, offeredAlarmTypes } from '../../../domain/task-params';
import { formatLevel, MM_PER_INCH } from '../../../domain/sensor-format';

interface Props {
  sensor: Sensor;
  unit: 'Metres' | 'Inches';
  queued: DownlinkTask[];
  busy: boolean;
  onSubmit(req: CreateTaskRequest): void;
}

const isLevel = (t: Alarm['type']) => t === 'THRESHOLD_INCREASING' || t === 'THRESHOLD_DECREASING';

/** Update Alarm Setting (sensor-setup 4, 5): one alarm slot, its type, on or off and threshold. */
export function AlarmForm({ sensor, unit, queued, busy, onSubmit }: Props) {
  const qTypes = queuedAlarmTypes(queued);
  const types = offeredAlarmTypes(sensor.alarms, qTypes);
  const [type, setType] = useState<Alarm['type'] | null>(types[0] ?? null);
  const claimed = new Set(queued.filter((t) => t.type === 'AlarmConfig').map((t) => Number(t.params.index)));
  const index = type ? alarmSlotFor(type, sensor.alarms, claimed) : undefined;
  const original = index !== undefined ? (sensor.alarms[String(index)] ?? null) : null;
  const [enabled, setEnabled] = useState(original?.enabled ?? true);
  const [value, setValue] = useState<number | string>('');
  const [touched, setTouched] = useState(false);

  // level thresholds are typed in the organisation's unit and sent in mm; rapid change in mm; movement 1-255
  const perUnit = type && isLevel(type) ? (unit === 'Inches' ? MM_PER_INCH : 1000) : type?.startsWith('DELTA') ? 1 : 1;
  const threshold = value === '' ? undefined : Math.round(Number(value) * perUnit * 1000) / 1000;
  const others: Partial<Record<Alarm['type'], number>> = {};
  for (const [k, a] of Object.entries(sensor.alarms)) if (a.enabled && Number(k) !== index) others[a.type] = a.threshold;
  const error = type ? alarmValueError({ type, threshold, enabled }, { sensorType: sensor.sensorType, offset: sensor.displayInfo.offsetMeasurement }, others) : null;

  if (!types.length || index === undefined) return <Text c="dimmed">Every alarm type already has a queued task.</Text>;
  const suffix = type && isLevel(type) ? (unit === 'Inches' ? 'in' : 'm') : type === 'ACCELEROMETER' ? '' : 'mm';
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        setTouched(true);
        if (error || !type) return;
        onSubmit({ type: 'AlarmConfig', params: { index, value: { type, enabled, threshold: threshold ?? original?.threshold ?? 0 }, original } });
      }}
    >
      <Stack>
        <Select label="Alarm type" data={types.map((t) => ({ value: t, label: ALARM_TYPE_LABEL[t] }))} value={type} onChange={(v) => v && setType(v as Alarm['type'])} allowDeselect={false} />
        {original && (
          <Text size="sm" c="dimmed">
            Currently {original.enabled ? `on at ${isLevel(original.type) ? formatLevel(original.threshold, unit) : original.type === 'ACCELEROMETER' ? original.threshold : `${original.threshold} mm`}` : 'off'} (alarm {index + 1})
          </Text>
        )}
        <Switch label="Enabled" checked={enabled} onChange={(e) => setEnabled(e.currentTarget.checked)} />
        <NumberInput
          label={`Threshold${suffix ? ` (${suffix})` : ''}`}
          value={value}
          onChange={setValue}
          decimalScale={3}
          onBlur={() => setTouched(true)}
          error={touched ? error : null}
        />
        <Button type="submit" loading={busy}>
          Create
        </Button>
      </Stack>
    </form>
  );
}
