import { Anchor, Group, Stack, Text } from '@mantine/core';
import { IconBook2 } from '@tabler/icons-react';
import { Link } from 'react-router-dom';
import { integrationParts } from '../../../domain/org-settings';
import type { SettingsSectionProps } from '../section-types';
import { NetworkCallbacks } from './network-callbacks';
import { SelectableField } from './selectable-field';

/**
 * Integration (organisation-and-routes 2.1, 7.2; managers): with a REST API, the organisation id,
 * API key and token, read from the organisation, and the API documentation; then, and alone in an
 * organisation without a REST API that has Sigfox or Myriota sensors, the radio network callbacks
 * (docs/decisions.md).
 */
export default function IntegrationSection({ org, isManager }: SettingsSectionProps) {
  const parts = integrationParts(isManager, org);
  return (
    <Stack gap="md" maw={640}>
      {parts?.restApi && (
        <>
          <Text size="sm" c="dimmed">
            Use these to call the Tidewatch API from your own systems. Keep the key and token secret: anyone holding them can read this organisation's data.
          </Text>
          <SelectableField label="Organisation id" value={org.id} />
          <SelectableField label="API key" value={org.restApi?.key ?? ''} />
          <SelectableField label="API token" value={org.restApi?.token ?? ''} />
          <Group gap={6}>
            <IconBook2 size={18} color="var(--mantine-color-tide-7)" aria-hidden />
            <Anchor component={Link} to="/api-docs" fw={500}>
              API documentation
            </Anchor>
          </Group>
        </>
      )}
      <NetworkCallbacks orgId={org.id} />
    </Stack>
  );
}
