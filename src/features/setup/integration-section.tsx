import { Group, Select, Stack, TextInput } from '@mantine/core';
import type { Sensor } from '../../contract/sensor.schema';
import { COMMISSIONING_STATUSES } from '../../domain/sensor-settings';
import { checkSensorUpdate } from '../../domain/sensor-update';
import { SETUP_NOTICES, SETUP_RULES } from '../../domain/setup-messages';
import { UpdateButton } from './update-button';
import type { SectionProps } from './section-types';
import { useSectionSave } from './use-section-save';

interface IntegrationForm {
  pointId: string;
  commissioningStatus: string;
}

const formOf = (s: Sensor): IntegrationForm => ({ pointId: s.integration?.pointId ?? '', commissioningStatus: String(s.integration?.commissioningStatus ?? 1) });

/** The spec's integration notices (sensor-setup 8): the point id conflict, else 'Something went wrong'. */
const integrationFailure = (err: unknown) =>
  (err as { code?: string } | null)?.code === 'INTEGRATION_POINT_ID_ALREADY_IN_USE' ? SETUP_RULES.INTEGRATION_POINT_ID_ALREADY_IN_USE : SETUP_NOTICES.somethingWrong;

/** Integration settings (sensor-setup 2, 3): the point id and commissioning status, saved together. */
export default function IntegrationSection({ sensor, org, onSaved }: SectionProps) {
  const form = useSectionSave<IntegrationForm>({
    sensor,
    orgId: org.id,
    initial: formOf(sensor),
    check: (v) => {
      const body = { integration: { pointId: v.pointId.trim(), commissioningStatus: Number(v.commissioningStatus) } };
      const checked = checkSensorUpdate(sensor, body);
      const errors: Record<string, string> = {};
      if (!checked.ok) for (const p of checked.problems) errors[String(p.path[1] ?? 'pointId')] ??= p.message;
      return { body, errors };
    },
    valuesOf: formOf,
    successMessage: SETUP_NOTICES.integrationUpdated,
    failureMessage: integrationFailure,
    onSaved,
  });
  const { values: v, errors, saving, edit } = form;
  return (
    <form onSubmit={(e) => (e.preventDefault(), form.submit())} noValidate>
      <Stack gap="md" maw={420}>
        <TextInput label="Point ID" value={v.pointId} onChange={(e) => {
          const pointId = e.currentTarget.value;
          edit((f) => ({ ...f, pointId }));
        }} error={errors.pointId} disabled={saving} />
        <Select
          label="Commissioning status"
          data={COMMISSIONING_STATUSES.map((s) => ({ value: String(s.value), label: s.label }))}
          value={v.commissioningStatus}
          onChange={(s) => s && edit((f) => ({ ...f, commissioningStatus: s }))}
          allowDeselect={false}
          error={errors.commissioningStatus}
          disabled={saving}
        />
        <Group>
          <UpdateButton saving={saving} />
        </Group>
      </Stack>
    </form>
  );
}
