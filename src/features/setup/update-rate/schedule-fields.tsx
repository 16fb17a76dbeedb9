import { NumberInput, Select, Stack, Switch } from '@mantine/core';
import { intervalText } from '../../../domain/sensor-format';
import { adjustTransmission, alarmOptions, maxPerTransmission, measurementError, measurementOptions, scheduleErrors, transmissionOptions } from '../../../domain/update-rate';

export interface ScheduleValue {
  measurementInterval: number | undefined;
  transmissionInterval: number | undefined;
  deltaCompressionEnabled: boolean;
  maxGradient: number | undefined;
  txCountOnAlarm: number | undefined;
}

interface Props {
  radio: string;
  currentMeasurement: number;
  value: ScheduleValue;
  onChange(v: ScheduleValue): void;
  /** The alarm-mode option (an ExtendedConfig task) is part of the full update-rate form. */
  withAlarmMode: boolean;
  disabled?: boolean;
}

const opt = (m: number) => ({ value: String(m), label: intervalText(m) });

/** The full scheduler form (sensor-setup 4, 5, 9): intervals, alarm-mode transmit, delta compression, max gradient. */
export function ScheduleFields({ radio, currentMeasurement, value, onChange, withAlarmMode, disabled }: Props) {
  const v = value;
  const errs = scheduleErrors({ radio, currentMeasurement, ...v, txCountOnAlarm: withAlarmMode ? v.txCountOnAlarm : undefined });
  const listed = measurementOptions(radio, currentMeasurement);
  const tOpts = v.measurementInterval && !errs.measurementInterval ? transmissionOptions(radio, v.measurementInterval, v.deltaCompressionEnabled) : [];
  const aOpts = v.measurementInterval && v.transmissionInterval ? alarmOptions(v.measurementInterval, v.transmissionInterval) : [];

  // a new measurement interval (or compression) keeps the transmission interval if still valid, else the largest option
  const setMeasurement = (m: number | undefined, delta = v.deltaCompressionEnabled) => {
    // an interval the rules refuse keeps the transmission as it was (its own message shows): nothing moves behind the user's back
    const t = m && !measurementError(radio, currentMeasurement, m) ? adjustTransmission(radio, m, v.transmissionInterval, delta) : v.transmissionInterval;
    const a = m && t ? alarmOptions(m, t) : [];
    onChange({ ...v, measurementInterval: m, deltaCompressionEnabled: delta, transmissionInterval: t, txCountOnAlarm: a.includes(v.txCountOnAlarm as 1) ? v.txCountOnAlarm : a.at(-1) });
  };
  const setTransmission = (t: number | undefined) => {
    const a = v.measurementInterval && t ? alarmOptions(v.measurementInterval, t) : [];
    onChange({ ...v, transmissionInterval: t, txCountOnAlarm: a.includes(v.txCountOnAlarm as 1) ? v.txCountOnAlarm : a.at(-1) });
  };
  return (
    <Stack gap="sm">
      {listed ? (
        <Select label="Measurement interval" data={listed.map(opt)} value={v.measurementInterval ? String(v.measurementInterval) : null} onChange={(x) => setMeasurement(x ? Number(x) : undefined)} error={errs.measurementInterval} allowDeselect={false} disabled={disabled} />
      ) : (
        // no clamping and no rounding: what the user typed stays, with the rule's message (sensor-setup 5)
        <NumberInput label="Measurement interval (minutes)" value={v.measurementInterval ?? ''} onChange={(x) => setMeasurement(x === '' ? undefined : Number(x))} clampBehavior="none" error={errs.measurementInterval} disabled={disabled} />
      )}
      <Select
        label="Transmission interval"
        data={tOpts.map(opt)}
        value={v.transmissionInterval ? String(v.transmissionInterval) : null}
        onChange={(x) => setTransmission(x ? Number(x) : undefined)}
        error={errs.transmissionInterval}
        description={`Up to ${maxPerTransmission(v.deltaCompressionEnabled)} measurements per transmission`}
        allowDeselect={false}
        disabled={disabled}
      />
      {withAlarmMode && (
        <Select
          label="Transmission while an alarm is active"
          data={aOpts.map((k) => ({ value: String(k), label: `Every ${intervalText(k * (v.measurementInterval ?? 0))}` }))}
          value={v.txCountOnAlarm ? String(v.txCountOnAlarm) : null}
          onChange={(x) => onChange({ ...v, txCountOnAlarm: x ? Number(x) : undefined })}
          error={errs.txCountOnAlarm}
          placeholder={aOpts.length ? undefined : 'No alarm options available for your current settings.'}
          allowDeselect={false}
          disabled={disabled || !aOpts.length}
        />
      )}
      <Switch label="Delta compression" checked={v.deltaCompressionEnabled} onChange={(e) => setMeasurement(v.measurementInterval, e.currentTarget.checked)} disabled={disabled} />
      <NumberInput label="Maximum gradient (mm)" value={v.maxGradient ?? ''} onChange={(x) => onChange({ ...v, maxGradient: x === '' ? undefined : Number(x) })} clampBehavior="none" error={errs.maxGradient} disabled={disabled} />
    </Stack>
  );
}

export const scheduleValid = (radio: string, currentMeasurement: number, v: ScheduleValue, withAlarmMode: boolean) =>
  Object.keys(scheduleErrors({ radio, currentMeasurement, ...v, txCountOnAlarm: withAlarmMode ? v.txCountOnAlarm : undefined })).length === 0 && v.maxGradient !== undefined;
