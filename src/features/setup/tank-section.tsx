import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { Alert, Anchor, Group, SegmentedControl, Select, Stack, Text, TextInput } from '@mantine/core';
import { tankPresetListSchema, type TankPreset } from '../../contract/sensor.schema';
import { CONVERSION_TYPES } from '../../domain/display-form';
import { tankFormFromPreset, tankFormOf, tankFormToBody, type TankForm } from '../../domain/tank-form';
import { SETUP_NOTICES } from '../../domain/setup-messages';
import { unitSuffix } from '../../domain/setup-units';
import { api } from '../../shared/api';
import { UpdateButton } from './update-button';
import type { SectionProps } from './section-types';
import { saveFailure } from './failure';
import { useSectionSave } from './use-section-save';

const conversionLabel = (type: string | undefined) => CONVERSION_TYPES.find((t) => t.value === type)?.label.toLowerCase() ?? 'conversion';

/** Tank settings (sensor-setup 2, 5): the simplified form for the T35 family, with presets and a link to the full display settings. */
export default function TankSection({ sensor, org, sectionPath, onSaved }: SectionProps) {
  const unit = org.measurementUnit;
  const u = unitSuffix(unit);
  const form = useSectionSave<TankForm>({
    sensor,
    orgId: org.id,
    initial: tankFormOf(sensor, unit),
    check: (v) => tankFormToBody(v, unit, sensor),
    valuesOf: (s) => tankFormOf(s, unit),
    successMessage: SETUP_NOTICES.sensorUpdated,
    failureMessage: saveFailure(SETUP_NOTICES.tankFailed),
    onSaved,
  });
  const { values: v, errors, saving, edit } = form;
  const set = (key: keyof TankForm) => (e: React.ChangeEvent<HTMLInputElement>) => {
    const value = e.currentTarget.value;
    edit((f) => ({ ...f, [key]: value }));
  };
  const [presets, setPresets] = useState<TankPreset[]>([]);
  useEffect(() => {
    const ctrl = new AbortController();
    api
      .get(`/organisations/${org.id}/tank-presets`, { schema: tankPresetListSchema, signal: ctrl.signal })
      .then((r) => setPresets(r.presets))
      .catch(() => {}); // without presets the form is typed by hand
    return () => ctrl.abort();
  }, [org.id]);

  return (
    <form onSubmit={(e) => (e.preventDefault(), form.submit())} noValidate>
      <Stack gap="md" maw={480}>
        {presets.length > 0 && (
          <Select
            label="Tank preset"
            description="Fills in the tank's measurements"
            placeholder="Choose a tank model"
            data={presets.map((p) => ({ value: p.id, label: `${p.manufacturer} ${p.model}` }))}
            onChange={(id) => {
              const p = presets.find((x) => x.id === id);
              if (p) edit((f) => tankFormFromPreset(f, p, unit));
            }}
            searchable
            clearable
            disabled={saving}
          />
        )}
        <TextInput label="Sensor name" placeholder="Stock Tank" value={v.name} onChange={set('name')} error={errors.name} disabled={saving} />
        <TextInput label={`Sensor height (${u})`} description="The height of the sensor from the bottom of the tank" inputMode="decimal" value={v.height} onChange={set('height')} error={errors.height} disabled={saving} />
        <TextInput label={`Max water depth (${u})`} description="The depth of water when the tank is full" inputMode="decimal" value={v.depth} onChange={set('depth')} error={errors.depth} disabled={saving} />
        {v.shape === 'VOLUME_CYLINDER' && (
          <>
            <SegmentedControl
              value={v.mode}
              onChange={(mode) => edit((f) => ({ ...f, mode: mode as TankForm['mode'] }))}
              data={[
                { value: 'diameter', label: 'Diameter' },
                { value: 'volume', label: 'Volume' },
              ]}
              disabled={saving}
            />
            {v.mode === 'diameter' ? (
              <TextInput label={`Tank diameter (${u})`} inputMode="decimal" value={v.diameter} onChange={set('diameter')} error={errors.diameter} disabled={saving} />
            ) : (
              <TextInput label="Tank volume (l)" description="Saved as a round tank's diameter" inputMode="numeric" value={v.volume} onChange={set('volume')} error={errors.volume} disabled={saving} />
            )}
          </>
        )}
        {v.shape === 'VOLUME_CYLINDER_HORIZONTAL' && (
          <>
            <Text size="sm">A horizontal cylinder (a tank lying on its side)</Text>
            <TextInput label={`Tank diameter (${u})`} inputMode="decimal" value={v.diameter} onChange={set('diameter')} error={errors.diameter} disabled={saving} />
            <TextInput label={`Tank length (${u})`} inputMode="decimal" value={v.length} onChange={set('length')} error={errors.length} disabled={saving} />
          </>
        )}
        {v.shape === 'VOLUME_RECTANGULAR' && (
          <>
            <Text size="sm">A rectangular tank</Text>
            <TextInput label={`Tank width (${u})`} inputMode="decimal" value={v.width} onChange={set('width')} error={errors.width} disabled={saving} />
            <TextInput label={`Tank length (${u})`} inputMode="decimal" value={v.length} onChange={set('length')} error={errors.length} disabled={saving} />
          </>
        )}
        {v.shape === 'other' && (
          <Alert color="blue" data-testid="tank-other-conversion">
            This sensor converts its level with a {conversionLabel(sensor.conversionConfigs[0]?.type)}, which this form does not edit: it is kept as it is. Change it under{' '}
            <Anchor component={Link} to={sectionPath('display')} size="sm">
              Advanced Settings
            </Anchor>
            .
          </Alert>
        )}
        {errors.form && (
          <Text size="sm" c="red">
            {errors.form}
          </Text>
        )}
        <Group justify="space-between">
          <UpdateButton saving={saving} />
          <Anchor component={Link} to={sectionPath('display')} size="sm">
            Advanced Settings
          </Anchor>
        </Group>
      </Stack>
    </form>
  );
}
