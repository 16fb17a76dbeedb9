import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Button, Group, Input, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { organisationSchema, type Organisation } from '../../../contract/organisation.schema';
import { ORG_SETTINGS_MESSAGES } from '../../../domain/org-settings';
import { checkOrganisationName } from '../../../domain/sign-up-rules';
import { api } from '../../../shared/api';
import type { SettingsSectionProps } from '../section-types';

type Unit = Organisation['measurementUnit'];
const UNITS: { value: Unit; label: string }[] = [
  { value: 'Metres', label: 'Metres' },
  { value: 'Inches', label: 'Inches' },
];

/**
 * Details (organisation-and-routes 2.1, 5): name and measurement unit. Managers edit, everyone
 * else reads. The name is trimmed and checked by the sign-up rules; a rename re-slugs the
 * organisation and the browser follows to the new slug; the unit shows everywhere at once
 * because the organisations are read again after a save.
 */
export default function DetailsSection({ org, isManager, refreshOrganisations }: SettingsSectionProps) {
  const navigate = useNavigate();
  const [name, setName] = useState(org.name);
  const [unit, setUnit] = useState<Unit>(org.measurementUnit);
  const [touched, setTouched] = useState(false);
  const [saving, setSaving] = useState(false);
  const checked = checkOrganisationName(name);
  const changed = (checked.ok ? checked.value : name) !== org.name || unit !== org.measurementUnit;

  if (!isManager)
    return (
      <Stack gap="md" maw={520}>
        <ReadOnly label="Organisation name" value={org.name} />
        <ReadOnly label="Measurement unit" value={org.measurementUnit} />
        <Text size="sm" c="dimmed">
          Only the organisation's admins and owner can change these details.
        </Text>
      </Stack>
    );

  const save = async () => {
    setTouched(true);
    if (!checked.ok || !changed || saving) return;
    setSaving(true);
    try {
      const updated = await api.put(`/organisations/${org.id}`, { name: checked.value, measurementUnit: unit }, { schema: organisationSchema });
      notifications.show({ color: 'teal', message: ORG_SETTINGS_MESSAGES.detailsUpdated, autoClose: 4000 });
      setName(updated.name);
      await refreshOrganisations();
      // a rename re-slugs the organisation: carry the browser to the path with the new slug
      if (updated.slug !== org.slug) navigate(`/org/${updated.slug}/settings/details`, { replace: true });
    } catch {
      notifications.show({ color: 'red', message: ORG_SETTINGS_MESSAGES.detailsFailed, autoClose: 4000 });
    } finally {
      setSaving(false);
    }
  };

  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
      noValidate
    >
      <Stack gap="md" maw={520}>
        <TextInput
          label="Organisation name"
          value={name}
          onChange={(e) => {
            setName(e.currentTarget.value);
            setTouched(true);
          }}
          error={touched && !checked.ok ? checked.error.message : undefined}
          maxLength={1000}
          required
        />
        <Input.Wrapper label="Measurement unit" id="org-unit-label">
          <div>
            <SegmentedControl aria-labelledby="org-unit-label" data={UNITS} value={unit} onChange={(v) => setUnit(v as Unit)} mt={4} />
          </div>
        </Input.Wrapper>
        <Group>
          <Button type="submit" loading={saving} disabled={!checked.ok || !changed}>
            Save
          </Button>
          {changed && !saving && (
            <Button
              variant="subtle"
              color="gray"
              onClick={() => {
                setName(org.name);
                setUnit(org.measurementUnit);
                setTouched(false);
              }}
            >
              Discard changes
            </Button>
          )}
        </Group>
      </Stack>
    </form>
  );
}

function ReadOnly({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <Text size="sm" fw={500} c="dimmed">
        {label}
      </Text>
      <Text size="md">{value}</Text>
    </div>
  );
}
