import { useState } from 'react';
import { Button, NumberInput, SegmentedControl, Select, Stack, Switch, Text } from '@mantine/core';
import type { CreateTaskRequest, DownlinkTask } from '../../../contract/downlink-task.schema';
import type { Alarm, Sensor } from '../../../contract/sensor.schema';
import { queuedAlarmTypes } from '../../../domain/remote-tasks';
import {
  ALARM_TYPE_LABEL,
  alarmSlotFor,
  alarmsInForce,
  alarmValueError,
  levelMode,
  mmToPercent,
  offeredAlarmTypes,
  percentAvailable,
  percentError,
  percentToMm,
  type ThresholdMode,
} from '../../../domain/task-params';
import { formatLevel } from '../../../domain/sensor-format';
import { toMm } from '../../../domain/setup-units';

interface Props {
  sensor: Sensor;
  unit: 'Metres' | 'Inches';
  queued: DownlinkTask[];
  busy: boolean;
  onSubmit(req: CreateTaskRequest): void;
}

const isLevel = (t: Alarm['type']) => t === 'THRESHOLD_INCREASING' || t === 'THRESHOLD_DECREASING';

/** The typed threshold in what the device stores: level thresholds in mm (from the unit or a percentage), rapid change in mm, movement 1-255. */
function thresholdOf(type: Alarm['type'], typed: number | undefined, unit: Props['unit'], percent: boolean, sensor: Sensor): number | undefined {
  if (typed === undefined) return undefined;
  if (!isLevel(type)) return typed;
  return percent ? percentToMm(typed, sensor.displayInfo) : toMm(typed, unit);
}

/**
 * Update Alarm Setting (sensor-setup 4, 5): one alarm slot, its type, on or off and threshold.
 * A level threshold is typed as a depth (the sensor has an offset) or a distance (it has none) in
 * the organisation's unit, or as a percentage of the display limits when both are set.
 */
export function AlarmForm({ sensor, unit, queued, busy, onSubmit }: Props) {
  const qTypes = queuedAlarmTypes(queued);
  const types = offeredAlarmTypes(sensor.alarms, qTypes);
  const [type, setType] = useState<Alarm['type'] | null>(types[0] ?? null);
  const queuedAlarms = queued.filter((t) => t.type === 'AlarmConfig');
  const claimed = new Set(queuedAlarms.map((t) => Number(t.params.index)));
  const index = type ? alarmSlotFor(type, sensor.alarms, claimed) : undefined;
  const original = index !== undefined ? (sensor.alarms[String(index)] ?? null) : null;
  const [enabled, setEnabled] = useState(original?.enabled ?? true);
  const [value, setValue] = useState<number | string>('');
  const [touched, setTouched] = useState(false);
  const canPercent = percentAvailable(sensor.displayInfo);
  const [inPercent, setInPercent] = useState(false);
  const offset = sensor.displayInfo.offsetMeasurement;

  const level = !!type && isLevel(type);
  const percent = level && canPercent && inPercent;
  const mode: ThresholdMode = percent ? 'percentage' : levelMode(offset);
  const typed = value === '' || value === '-' ? undefined : Number(value);
  const threshold = type ? thresholdOf(type, typed, unit, percent, sensor) : undefined;
  const others = alarmsInForce(sensor.alarms, queuedAlarms.map((t) => t.params.value as Alarm), index);
  const error = !type
    ? null
    : ((percent ? percentError(typed, enabled, sensor.displayInfo) : null) ?? alarmValueError({ type, threshold, enabled }, { sensorType: sensor.sensorType, offset }, others, mode));

  if (!types.length || index === undefined) return <Text c="dimmed">Every alarm type already has a queued task.</Text>;
  const suffix = percent ? '%' : level ? (unit === 'Inches' ? 'in' : 'm') : type === 'ACCELEROMETER' ? '' : 'mm';
  const what = percent ? 'percentage of the display range' : level ? (mode === 'depth' ? 'water depth' : 'distance from the sensor') : undefined;
  const current = (a: Alarm) => {
    if (!isLevel(a.type)) return a.type === 'ACCELEROMETER' ? String(a.threshold) : `${a.threshold} mm`;
    const pct = canPercent ? mmToPercent(a.threshold, sensor.displayInfo) : undefined;
    return `${formatLevel(a.threshold, unit)}${pct !== undefined ? ` (${pct}%)` : ''}`;
  };
  return (
    <form
      noValidate
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
            Currently {original.enabled ? `on at ${current(original)}` : 'off'} (alarm {index + 1})
          </Text>
        )}
        <Switch label="Enabled" checked={enabled} onChange={(e) => setEnabled(e.currentTarget.checked)} />
        {level && canPercent && (
          <SegmentedControl
            aria-label="Enter the threshold as"
            value={inPercent ? 'percent' : 'level'}
            onChange={(v) => {
              setInPercent(v === 'percent');
              setValue('');
              setTouched(false);
            }}
            data={[
              { value: 'level', label: `${levelMode(offset) === 'distance' ? 'Distance' : 'Level'} (${unit === 'Inches' ? 'in' : 'm'})` },
              { value: 'percent', label: 'Percentage (%)' },
            ]}
          />
        )}
        <NumberInput
          label={`Threshold${suffix ? ` (${suffix})` : ''}`}
          description={what ? `The ${what}` : undefined}
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
