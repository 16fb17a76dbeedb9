import { useState } from 'react';
import { Button, NumberInput, Select, SimpleGrid, Stack, Switch, Text } from '@mantine/core';
import type { FullRadarParams } from '../../../contract/downlink-task.schema';
import { FULL_RADAR_DEFAULTS, HW_AVG_OPTIONS, PEAK_SORTING, THRESHOLD_TYPE } from '../../../domain/task-params';

interface Props {
  busy: boolean;
  /** Starting values (the sensor's current settings); the spec's defaults otherwise. */
  initial?: FullRadarParams;
  /** Why the form cannot be sent now, shown instead of enabling Create. */
  disabledReason?: string;
  onSubmit(params: FullRadarParams): void;
}

type V = Omit<FullRadarParams, 'length'>;

/** FullRadarConfig (sensor-setup 3, 5, 9): its fields with the spec's defaults; only gain has a rule; length is derived. */
export function FullRadarForm({ busy, initial, disabledReason, onSubmit }: Props) {
  const [v, setV] = useState<V>(() => {
    if (!initial) return { ...FULL_RADAR_DEFAULTS };
    const { length: _length, ...rest } = initial;
    return { ...FULL_RADAR_DEFAULTS, ...rest };
  });
  const set = <K extends keyof V>(k: K, x: V[K]) => setV({ ...v, [k]: x });
  const num = (k: keyof V) => (x: number | string) => set(k, (x === '' ? NaN : Number(x)) as never);
  const gainError = !(v.gain >= 0 && v.gain <= 1) ? 'Gain must be from 0 to 1' : null;
  const length = Math.round((v.endDistance - v.startDistance) * 1000) / 1000;
  const rangeError = !(length > 0) ? 'The end distance must be greater than the start distance' : null;
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        if (!gainError && !rangeError && !disabledReason) onSubmit({ ...v, length });
      }}
    >
      <Stack>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <NumberInput label="Gain" value={v.gain} onChange={num('gain')} decimalScale={3} step={0.05} error={gainError} />
          <Select label="Profile" data={['1', '2', '3', '4', '5']} value={String(v.profile)} onChange={(x) => x && set('profile', Number(x))} allowDeselect={false} />
          <NumberInput label="Start distance (m)" value={v.startDistance} onChange={num('startDistance')} decimalScale={3} min={0} />
          <NumberInput label="End distance (m)" value={v.endDistance} onChange={num('endDistance')} decimalScale={3} min={0} error={rangeError} />
          <Select label="Hardware average" data={HW_AVG_OPTIONS.map(String)} value={String(v.hwAvg)} onChange={(x) => x && set('hwAvg', Number(x))} allowDeselect={false} />
          <Select label="Threshold type" data={THRESHOLD_TYPE.map((l, i) => ({ value: String(i), label: l }))} value={String(v.thresholdType)} onChange={(x) => x && set('thresholdType', Number(x))} allowDeselect={false} />
          <Select label="Peak sorting" data={PEAK_SORTING.map((l, i) => ({ value: String(i), label: l }))} value={String(v.peakSorting)} onChange={(x) => x && set('peakSorting', Number(x))} allowDeselect={false} />
          <NumberInput label="Running average factor" value={v.runningAvgFactor} onChange={num('runningAvgFactor')} decimalScale={3} min={0} max={1} />
          <NumberInput label="Sweep count" value={v.sweepCount} onChange={num('sweepCount')} allowDecimal={false} min={1} />
        </SimpleGrid>
        <Text size="sm" c="dimmed">
          Length: {Number.isFinite(length) ? `${length} m` : 'N/A'}
        </Text>
        <Switch label="Noise normalization" checked={v.noiseNormalization} onChange={(e) => set('noiseNormalization', e.currentTarget.checked)} />
        <Switch label="High accuracy scan" checked={v.highAccuracyScan} onChange={(e) => set('highAccuracyScan', e.currentTarget.checked)} />
        <Switch label="Interference check" checked={v.interferenceCheck} onChange={(e) => set('interferenceCheck', e.currentTarget.checked)} />
        <Button type="submit" loading={busy} disabled={!!disabledReason}>
          Create
        </Button>
      </Stack>
    </form>
  );
}
