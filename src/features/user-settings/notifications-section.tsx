import { useCallback, useEffect, useState } from 'react';
import { Alert, Badge, Button, Checkbox, Group, Loader, Paper, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconMailExclamation } from '@tabler/icons-react';
import { Link } from 'react-router-dom';
import { memberListSchema, memberSchema, type Member } from '../../contract/member.schema';
import type { Organisation } from '../../contract/organisation.schema';
import { isManager, ORG_SETTINGS_MESSAGES } from '../../domain/org-settings';
import { messageForError } from '../../domain/messages';
import { USER_SETTINGS_MESSAGES } from '../../domain/user-settings';
import { api, regionQuery } from '../../shared/api';
import { useSession } from '../../shared/session';

/**
 * Notifications (organisation-and-routes 2.2, 2.1 "Member Rules", 6): the user's own rule in each
 * organisation (their own, or the organisation's default), and the unverified-email warning.
 * Rules are the managers' to change (the gateway refuses anyone else), so managers edit their own
 * here and others read theirs.
 */
export function NotificationsSection() {
  const { user, organisations } = useSession();
  return (
    <Stack gap="md">
      {!user.emailVerified && (
        <Alert color="orange" icon={<IconMailExclamation size={18} />} role="status">
          {USER_SETTINGS_MESSAGES.unverified}
        </Alert>
      )}
      {organisations.map((org) => (
        <OwnRule key={org.id} org={org} />
      ))}
    </Stack>
  );
}

type Load = { state: 'loading' } | { state: 'ready'; me: Member | null } | { state: 'failed'; message: string };

function OwnRule({ org }: { org: Organisation }) {
  const { user } = useSession();
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const [saving, setSaving] = useState(false);
  const read = useCallback(async () => {
    try {
      const { members } = await api.get(`/organisations/${org.id}/members`, { schema: memberListSchema });
      setLoad({ state: 'ready', me: members.find((m) => m.cognitoIdentityId === user.cognitoIdentityId) ?? null });
    } catch (err) {
      setLoad({ state: 'failed', message: messageForError(err) });
    }
  }, [org.id, user.cognitoIdentityId]);
  useEffect(() => {
    void read();
  }, [read]);

  const own = load.state === 'ready' ? load.me?.notificationRule ?? null : null;
  const rule = own ?? org.defaultNotificationRule;
  const editable = isManager(org.role) && load.state === 'ready';
  const set = async (change: Partial<typeof rule> | null) => {
    setSaving(true);
    try {
      const notificationRule = change === null ? null : { ...rule, ...change };
      const me = await api.patch(`/organisations/${org.id}/members/${user.cognitoIdentityId}`, { cognitoIdentityId: user.cognitoIdentityId, notificationRule }, { schema: memberSchema, query: regionQuery() });
      setLoad({ state: 'ready', me });
    } catch {
      notifications.show({ color: 'red', message: ORG_SETTINGS_MESSAGES.changeSettingsFailed, autoClose: 4000 });
    } finally {
      setSaving(false);
    }
  };

  return (
    <Paper withBorder radius="md" p="md" data-testid={`own-rule-${org.slug}`}>
      <Group justify="space-between" wrap="wrap" gap="sm" align="flex-start">
        <Stack gap={4}>
          <Text fw={600}>{org.name}</Text>
          {load.state === 'ready' && (
            <Badge variant="light" color={own ? 'tide' : 'gray'} radius="sm">
              {own ? 'Your own rule' : "The organisation's default rule"}
            </Badge>
          )}
        </Stack>
        {load.state === 'loading' && <Loader size="sm" aria-label={`Loading your rule in ${org.name}`} />}
        {load.state === 'failed' && (
          <Text size="sm" c="red">
            {load.message}
          </Text>
        )}
        {load.state === 'ready' && (
          <Group gap="lg">
            <Checkbox label="Email alerts" checked={rule.email} disabled={!editable || saving} onChange={(e) => void set({ email: e.currentTarget.checked })} />
            <Checkbox label="SMS alerts" checked={rule.sms} disabled={!editable || saving} onChange={(e) => void set({ sms: e.currentTarget.checked })} />
          </Group>
        )}
      </Group>
      {load.state === 'ready' && (
        <Group gap="sm" mt="xs">
          {editable && own && (
            <Button size="xs" variant="subtle" onClick={() => void set(null)} disabled={saving}>
              Use the default rule
            </Button>
          )}
          {!editable && (
            <Text size="xs" c="dimmed">
              The organisation's admins set who gets which alerts.
            </Text>
          )}
          {rule.sms && !user.mobile && (
            <Text size="xs" c="orange">
              You have no mobile number, so SMS alerts cannot reach you. <Link to="/settings/account">Add one</Link>.
            </Text>
          )}
          <Text size="xs" c="dimmed">
            <Link to={`/org/${org.slug}/settings/notifications`}>Organisation notification settings</Link>
          </Text>
        </Group>
      )}
    </Paper>
  );
}
