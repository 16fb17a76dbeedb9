import { useState } from 'react';
import { Alert, Button, Group, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconMailExclamation, IconSend } from '@tabler/icons-react';
import { ORG_SETTINGS_MESSAGES } from '../../../domain/org-settings';
import { api } from '../../../shared/api';
import type { SettingsSectionProps } from '../section-types';
import { MemberRules } from './member-rules';
import { NotificationTypes } from './notification-types';

/**
 * Notifications (organisation-and-routes 2.1, 8): the unverified-email warning, 'Send Test
 * Notification' for site admins, 'Notification Types' and 'Member Rules' (managers change them).
 * The server delivers alerts by exactly these settings and rules.
 */
export default function NotificationsSection(props: SettingsSectionProps) {
  const { org, user } = props;
  const [sending, setSending] = useState(false);

  const sendTest = async () => {
    setSending(true);
    try {
      await api.post(`/organisations/${org.id}/notifications/test`, {});
      notifications.show({ title: 'Tidewatch', color: 'teal', message: ORG_SETTINGS_MESSAGES.testSent, autoClose: 4000 });
    } catch {
      notifications.show({ color: 'red', message: ORG_SETTINGS_MESSAGES.testFailed, autoClose: 4000 });
    } finally {
      setSending(false);
    }
  };

  return (
    <Stack gap="xl">
      {!user.emailVerified && (
        <Alert color="orange" variant="light" icon={<IconMailExclamation size={18} />} title="Your email is not verified">
          Alert emails may not reach {user.email} until it is verified. Choose Verify email in the profile menu to get a verification link.
        </Alert>
      )}
      {user.isSiteAdmin && (
        <Group justify="space-between" wrap="wrap">
          <Text size="sm">Send a test notification to {user.email} (and the organisation's webhook, if it has one).</Text>
          <Button variant="light" leftSection={<IconSend size={16} />} loading={sending} onClick={() => void sendTest()}>
            Send Test Notification
          </Button>
        </Group>
      )}
      <Stack gap="xs">
        <Title order={3} size="h5">
          Notification Types
        </Title>
        <NotificationTypes {...props} />
      </Stack>
      <Stack gap="xs">
        <Title order={3} size="h5">
          Member Rules
        </Title>
        <MemberRules {...props} />
      </Stack>
    </Stack>
  );
}
