import { useState } from 'react';
import { Stack, Switch, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { ROLES, organisationSchema, type Organisation } from '../../../contract/organisation.schema';
import { messageForError } from '../../../domain/messages';
import { api } from '../../../shared/api';

const OWN_MFA_FIRST = 'Turn on two-factor authentication for your own account first (Account settings): the rule applies to you too.';

/**
 * MFA required by role: the owner requires two-factor authentication of the organisation's owners
 * and admins (the server enforces it: sign-in asks them to set it up, and a session without it is
 * refused the organisation's data). Admins see the setting; only the owner changes it.
 */
export function ManagerMfaSetting({ org, refreshOrganisations }: { org: Organisation; refreshOrganisations(): Promise<void> }) {
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string>();
  const owner = org.role === ROLES.OWNER;
  const on = org.managerMfaRequired ?? false;
  const change = async (value: boolean) => {
    setSaving(true);
    setError(undefined);
    try {
      await api.put(`/organisations/${org.id}/security`, { managerMfaRequired: value }, { schema: organisationSchema });
      await refreshOrganisations();
      notifications.show({ color: 'teal', message: value ? 'Owners and admins now need two-factor authentication.' : 'Two-factor authentication is no longer required.', autoClose: 4000 });
    } catch (err) {
      setError((err as { code?: string }).code === 'MFA_NOT_SET_UP' ? OWN_MFA_FIRST : messageForError(err));
    } finally {
      setSaving(false);
    }
  };
  return (
    <Stack gap={6} maw={520} pt="lg" style={{ borderTop: '1px solid var(--tw-border)' }}>
      <Text fw={600}>Security</Text>
      <Switch
        label="Require two-factor authentication for owners and admins"
        description="They set up an authenticator app at their next sign-in, and cannot open the organisation without it."
        checked={on}
        disabled={!owner || saving}
        onChange={(e) => void change(e.currentTarget.checked)}
        error={error}
      />
      {!owner && (
        <Text size="sm" c="dimmed">
          Only the organisation&apos;s owner can change this.
        </Text>
      )}
    </Stack>
  );
}
