import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Button, Group, Input, NativeSelect, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { organisationSchema, type CouncilFileEncoding, type Organisation } from '../../../contract/organisation.schema';
import { DEFAULT_COUNCIL_FILE_ENCODING } from '../../../domain/council-encoding';
import { ORG_SETTINGS_MESSAGES } from '../../../domain/org-settings';
import { checkOrganisationName } from '../../../domain/sign-up-rules';
import { api } from '../../../shared/api';
import type { SettingsSectionProps } from '../section-types';
import { ManagerMfaSetting } from './manager-mfa';

type Unit = Organisation['measurementUnit'];
const UNITS: { value: Unit; label: string }[] = [
  { value: 'Metres', label: 'Metres' },
  { value: 'Inches', label: 'Inches' },
];
const ENCODINGS: { value: CouncilFileEncoding; label: string }[] = [
  { value: 'UTF-8', label: 'UTF-8 (recommended)' },
  { value: 'Windows-1252', label: 'Windows-1252 (older council systems)' },
];
const ENCODING_HELP = "The council results files you export are written in it, and route files you import may use it. Choose Windows-1252 only if the council's system cannot read UTF-8; characters it cannot hold (such as macrons) are written as '?'.";

/**
 * Details (organisation-and-routes 2.1, 5): name, measurement unit and, for a meter-reading
 * organisation, the council file encoding. Managers edit, everyone
 * else reads. The name is trimmed and checked by the sign-up rules; a rename re-slugs the
 * organisation and the browser follows to the new slug; the unit shows everywhere at once
 * because the organisations are read again after a save.
 */
export default function DetailsSection({ org, isManager, refreshOrganisations }: SettingsSectionProps) {
  const navigate = useNavigate();
  const [name, setName] = useState(org.name);
  const [unit, setUnit] = useState<Unit>(org.measurementUnit);
  const savedEncoding = org.councilFileEncoding ?? DEFAULT_COUNCIL_FILE_ENCODING;
  const [encoding, setEncoding] = useState<CouncilFileEncoding>(savedEncoding);
  const meterReading = org.features.meterReading;
  const [touched, setTouched] = useState(false);
  const [saving, setSaving] = useState(false);
  const checked = checkOrganisationName(name);
  const changed = (checked.ok ? checked.value : name) !== org.name || unit !== org.measurementUnit || encoding !== savedEncoding;

  if (!isManager)
    return (
      <Stack gap="md" maw={520}>
        <ReadOnly label="Organisation name" value={org.name} />
        <ReadOnly label="Measurement unit" value={org.measurementUnit} />
        {meterReading && <ReadOnly label="Council file encoding" value={savedEncoding} />}
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
      const updated = await api.put(`/organisations/${org.id}`, { name: checked.value, measurementUnit: unit, ...(meterReading ? { councilFileEncoding: encoding } : {}) }, { schema: organisationSchema });
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
        {meterReading && (
          <NativeSelect label="Council file encoding" description={ENCODING_HELP} data={ENCODINGS} value={encoding} onChange={(e) => setEncoding(e.currentTarget.value as CouncilFileEncoding)} />
        )}
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
                setEncoding(savedEncoding);
                setTouched(false);
              }}
            >
              Discard changes
            </Button>
          )}
        </Group>
      </Stack>
      <ManagerMfaSetting org={org} refreshOrganisations={refreshOrganisations} />
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
