import { useState } from 'react';
import { Divider, Group, Select, SimpleGrid, Stack, Switch, Text, TextInput } from '@mantine/core';
import { CONVERSION_TYPES, displayFormOf, displayFormToBody, withConversion, withOffset, type ConversionField, type ConversionType, type DisplayForm } from '../../domain/display-form';
import { SETUP_NOTICES } from '../../domain/setup-messages';
import { unitSuffix } from '../../domain/setup-units';
import { UpdateButton } from './update-button';
import type { SectionProps } from './section-types';
import { ConfirmOff } from './confirm-off';
import { ReferenceLines } from './reference-lines';
import { saveFailure } from './failure';
import { useSectionSave } from './use-section-save';

const FIELD_LABEL: Record<ConversionField, string> = {
  width: 'Width (m)',
  flowCoefficient: 'Flow coefficient',
  n: 'Exponent n',
  diameter: 'Diameter (m)',
  length: 'Length (m)',
  x: 'x',
  y: 'y',
};

/** Edit display settings (sensor-setup 2, 4, 5): name, offset, display limits, conversion and reference lines. */
export default function DisplaySection({ sensor, org, onSaved }: SectionProps) {
  const unit = org.measurementUnit;
  const u = unitSuffix(unit);
  const form = useSectionSave<DisplayForm>({
    sensor,
    orgId: org.id,
    initial: displayFormOf(sensor, unit),
    check: (v) => displayFormToBody(v, unit, sensor),
    valuesOf: (s) => displayFormOf(s, unit),
    successMessage: SETUP_NOTICES.displayUpdated,
    failureMessage: saveFailure(SETUP_NOTICES.somethingWrong),
    onSaved,
  });
  const { values: v, errors, saving, edit } = form;
  const [confirm, setConfirm] = useState<'offset' | 'conversion' | null>(null);
  const set = <K extends keyof DisplayForm>(key: K) => (value: DisplayForm[K]) => edit((f) => ({ ...f, [key]: value }));
  const type = CONVERSION_TYPES.find((t) => t.value === v.conversionType)!;

  return (
    <form onSubmit={(e) => (e.preventDefault(), form.submit())} noValidate>
      <Stack gap="md" maw={720}>
        <TextInput label="Sensor name" value={v.name} onChange={(e) => set('name')(e.currentTarget.value)} error={errors.name} disabled={saving} required />

        <Divider label="Offset" labelPosition="left" />
        <Switch
          label="Offset enabled"
          checked={v.offsetEnabled}
          disabled={saving}
          onChange={(e) => (e.currentTarget.checked ? edit((f) => withOffset(f, true)) : setConfirm('offset'))}
        />
        {v.offsetEnabled && (
          <>
            <TextInput label={`Offset (${u})`} description="The distance from the sensor to the zero level" inputMode="decimal" value={v.offset} onChange={(e) => set('offset')(e.currentTarget.value)} error={errors.offset} disabled={saving} maw={240} />
            <Text size="sm" fw={500}>
              Display limits
            </Text>
            <SimpleGrid cols={{ base: 1, xs: 2 }} maw={500}>
              <TextInput label={`Minimum Water Level (${u})`} inputMode="decimal" value={v.minLevel} onChange={(e) => set('minLevel')(e.currentTarget.value)} error={errors.minLevel} disabled={saving} />
              <TextInput label={`Maximum Water Level (${u})`} inputMode="decimal" value={v.maxLevel} onChange={(e) => set('maxLevel')(e.currentTarget.value)} error={errors.maxLevel} disabled={saving} />
            </SimpleGrid>
          </>
        )}

        <Divider label="Conversion" labelPosition="left" />
        <Switch
          label="Conversion enabled"
          checked={v.conversionEnabled}
          disabled={saving}
          onChange={(e) => (e.currentTarget.checked ? edit((f) => withConversion(f, true)) : setConfirm('conversion'))}
        />
        {v.conversionEnabled && (
          <>
            <Select
              label="Conversion type"
              data={CONVERSION_TYPES.map((t) => ({ value: t.value, label: t.label }))}
              value={v.conversionType}
              onChange={(t) => t && set('conversionType')(t as ConversionType)}
              allowDeselect={false}
              disabled={saving}
              maw={320}
            />
            <SimpleGrid cols={{ base: 1, xs: 3 }} maw={600}>
              {type.fields.map((field) =>
                field === 'n' ? (
                  <Select key={field} label={FIELD_LABEL.n} data={['1.5', '2.5']} value={v.conversion.n} onChange={(n) => n && edit((f) => ({ ...f, conversion: { ...f.conversion, n } }))} allowDeselect={false} error={errors['conversion.n']} disabled={saving} />
                ) : (
                  <TextInput
                    key={field}
                    label={FIELD_LABEL[field]}
                    inputMode="decimal"
                    value={v.conversion[field]}
                    onChange={(e) => {
                      const value = e.currentTarget.value;
                      edit((f) => ({ ...f, conversion: { ...f.conversion, [field]: value } }));
                    }}
                    error={errors[`conversion.${field}`]}
                    disabled={saving}
                  />
                ),
              )}
            </SimpleGrid>
          </>
        )}

        <Divider label="Reference lines" labelPosition="left" />
        <ReferenceLines lines={v.referenceLines} unit={u} errors={errors} disabled={saving} onChange={(referenceLines) => edit((f) => ({ ...f, referenceLines }))} />

        <Group>
          <UpdateButton saving={saving} />
        </Group>
      </Stack>
      <ConfirmOff
        what={confirm}
        onCancel={() => setConfirm(null)}
        onConfirm={() => {
          edit((f) => (confirm === 'offset' ? withOffset(f, false) : withConversion(f, false)));
          setConfirm(null);
        }}
      />
    </form>
  );
}
