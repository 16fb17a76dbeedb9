import { useState } from 'react';
import { Alert, Button, NumberInput, SegmentedControl, Select, Stack, Switch, Text, TextInput } from '@mantine/core';
import type { CreateTaskRequest } from '../../../contract/downlink-task.schema';
import type { Sensor } from '../../../contract/sensor.schema';
import { FIRMWARE_MIN } from '../../../domain/remote-tasks';
import { RADAR_FIELDS, radarFieldError, startingLevelError, startingLevelFromDistance, TRANSMISSION_MESSAGES, userRangeErrors, rangeOf } from '../../../domain/task-params';
import { alarmOptions } from '../../../domain/update-rate';

interface FormProps {
  sensor: Sensor;
  busy: boolean;
  isSiteAdmin: boolean;
  onSubmit(req: CreateTaskRequest): void;
}

/** Update Extended Configuration (site admins) / Update Alarm Mode Scheduler (others), sensor-setup 3, 5. */
export function ExtendedForm({ sensor, busy, isSiteAdmin, onSubmit }: FormProps) {
  const sched = (sensor.pendingConfig as { measurementInterval?: number; transmissionInterval?: number } | null) ?? sensor.config;
  const mi = Number(sched.measurementInterval);
  const opts = alarmOptions(mi, Number(sched.transmissionInterval));
  const [count, setCount] = useState<string | null>(opts.includes((sensor.config.txCountOnAlarm ?? 1) as 1) ? String(sensor.config.txCountOnAlarm ?? 1) : opts[0] ? String(opts[0]) : null);
  const range = rangeOf(sensor.sensorType);
  const [rangeOn, setRangeOn] = useState(sensor.rangeConfig?.enabled ?? false);
  const [min, setMin] = useState<number | string>(sensor.rangeConfig?.min ?? range.min + 1);
  const [max, setMax] = useState<number | string>(sensor.rangeConfig?.max ?? range.max - 1);
  const errs = isSiteAdmin && rangeOn ? userRangeErrors(sensor.sensorType, Number(min), Number(max)) : {};
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        if (!count || errs.min || errs.max) return;
        onSubmit({ type: 'ExtendedConfig', params: { txCountOnAlarm: Number(count), userRangeEnabled: rangeOn, userRangeMin: Number(min), userRangeMax: Number(max) } });
      }}
    >
      <Stack>
        <Text size="sm">{isSiteAdmin ? 'Update the extended configurations' : 'Update the alarm mode scheduler setting'}</Text>
        {opts.length ? (
          <Select
            label="Transmit while an alarm is active"
            data={opts.map((k) => ({ value: String(k), label: `Every ${k * mi} minutes (${k} measurement${k > 1 ? 's' : ''})` }))}
            value={count}
            onChange={setCount}
            allowDeselect={false}
          />
        ) : (
          <Alert color="yellow">No alarm options available for your current settings.</Alert>
        )}
        {isSiteAdmin && (
          <>
            <Switch label="User range enabled" checked={rangeOn} onChange={(e) => setRangeOn(e.currentTarget.checked)} />
            <NumberInput label="User range minimum (mm)" value={min} onChange={setMin} allowDecimal={false} disabled={!rangeOn} error={errs.min} />
            <NumberInput label="User range maximum (mm)" value={max} onChange={setMax} allowDecimal={false} disabled={!rangeOn} error={errs.max} />
          </>
        )}
        <Button type="submit" loading={busy} disabled={!opts.length}>
          Create
        </Button>
      </Stack>
    </form>
  );
}

/** Update Transmission Config: extra radar data and its starting level, typed as a level or a distance (sensor-setup 4, 5). */
export function TransmissionForm({ sensor, busy, onSubmit }: FormProps) {
  const [on, setOn] = useState(false);
  const [mode, setMode] = useState<'level' | 'distance'>('level');
  const [text, setText] = useState('');
  const offset = sensor.displayInfo.offsetMeasurement;
  const error = startingLevelError(on, text);
  const noOffset = on && mode === 'distance' && (offset === null || offset === undefined);
  const [tried, setTried] = useState(false);
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        setTried(true);
        if (error || noOffset) return;
        const typed = on ? Number(text.trim()) : null;
        const level = typed === null ? null : mode === 'distance' ? startingLevelFromDistance(offset, typed) : typed;
        onSubmit({ type: 'TransmissionConfig', params: { additionalRadarDataEnabled: on, startingLevelMm: level } });
      }}
    >
      <Stack>
        <Switch label="Extra radar data enabled" checked={on} onChange={(e) => setOn(e.currentTarget.checked)} />
        {on && <SegmentedControl value={mode} onChange={(v) => setMode(v as 'level' | 'distance')} data={[{ value: 'level', label: 'Level' }, { value: 'distance', label: 'Distance' }]} />}
        {on && <TextInput label={`Starting ${mode} (mm)`} value={text} onChange={(e) => setText(e.currentTarget.value)} error={tried ? error : null} />}
        {tried && on && text.trim() === '' && <Alert color="yellow">{TRANSMISSION_MESSAGES.noStartingLevel}</Alert>}
        {noOffset && <Alert color="yellow">{TRANSMISSION_MESSAGES.noOffset}</Alert>}
        <Button type="submit" loading={busy}>
          Create
        </Button>
      </Stack>
    </form>
  );
}

type RadarKey = keyof typeof RADAR_FIELDS;
const SCORING = ['Highest peak', 'Closest peak', 'Best score', 'Weighted'];

/** Update Radar Configuration (site admins): section 5's ranges; from firmware 70 a scoring method replaces hwAvg. */
export function RadarForm({ sensor, busy, onSubmit }: FormProps) {
  const scoring = (sensor.latestBootInfo?.firmwareVersion ?? 0) >= FIRMWARE_MIN.scoringMethod;
  const keys: RadarKey[] = ['debugInterval', 'scoreSize', 'scoreReflection', 'gain', 'profile', ...(scoring ? [] : (['hwAvg'] as RadarKey[]))];
  const [v, setV] = useState<Record<string, number | string>>({ debugInterval: 0, scoreSize: 1, scoreReflection: 2, gain: 0.3, profile: 2, hwAvg: 30 });
  const [method, setMethod] = useState<string | null>('0');
  const [tooClose, setTooClose] = useState('yes');
  const errs = Object.fromEntries(keys.map((k) => [k, radarFieldError(k, v[k] === '' ? undefined : Number(v[k]))]));
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        if (Object.values(errs).some(Boolean)) return;
        const n = (k: string) => Number(v[k]);
        onSubmit({
          type: 'RadarConfig',
          params: {
            debugInterval: n('debugInterval'),
            scoreSize: n('scoreSize'),
            scoreReflection: n('scoreReflection'),
            gain: n('gain'),
            profile: n('profile'),
            ...(scoring ? { scoringMethod: Number(method) } : { hwAvg: n('hwAvg') }),
            checkTooClose: tooClose === 'yes',
          },
        });
      }}
    >
      <Stack gap="xs">
        {keys.map((k) => (
          <NumberInput key={k} label={RADAR_FIELDS[k].label} value={v[k]} onChange={(x) => setV({ ...v, [k]: x })} min={0} allowNegative={false} decimalScale={RADAR_FIELDS[k].int ? 0 : 3} error={errs[k]} />
        ))}
        {scoring && <Select label="Scoring method" data={SCORING.map((l, i) => ({ value: String(i), label: l }))} value={method} onChange={setMethod} allowDeselect={false} />}
        <Select label="Check too close" data={[{ value: 'yes', label: 'Yes' }, { value: 'no', label: 'No' }]} value={tooClose} onChange={(x) => x && setTooClose(x)} allowDeselect={false} />
        <Button type="submit" loading={busy}>
          Create
        </Button>
      </Stack>
    </form>
  );
}
