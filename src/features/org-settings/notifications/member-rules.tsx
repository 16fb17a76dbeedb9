import { useEffect, useState } from 'react';
import { Alert, Badge, Button, Group, Loader, Paper, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconAlertCircle, IconPlus } from '@tabler/icons-react';
import { memberListSchema, type Member } from '../../../contract/member.schema';
import { ORG_SETTINGS_MESSAGES } from '../../../domain/org-settings';
import { api, regionQuery } from '../../../shared/api';
import type { SettingsSectionProps } from '../section-types';
import { RuleDialog, type RuleDialogMode, type Rule } from './rule-dialog';

const channels = (r: Rule) => [r.email && 'Email', r.sms && 'SMS'].filter(Boolean).join(' and ') || 'None';

/**
 * Member Rules (organisation-and-routes 2.1): the default rule that applies to everyone, then one
 * row per active member with their own rule or the default. Managers edit, add and remove rules.
 */
export function MemberRules({ org, user, isManager, mobile, refreshOrganisations }: SettingsSectionProps) {
  const [members, setMembers] = useState<Member[] | null>(null);
  const [failed, setFailed] = useState(false);
  const [reload, setReload] = useState(0);
  const [dialog, setDialog] = useState<RuleDialogMode | null>(null);
  const [defaultRule, setDefaultRule] = useState<Rule>(org.defaultNotificationRule);

  useEffect(() => {
    const ctrl = new AbortController();
    api
      .get(`/organisations/${org.id}/members`, { schema: memberListSchema, signal: ctrl.signal })
      .then((r) => setMembers(r.members.filter((m) => m.status === 'Active' && m.cognitoIdentityId)))
      .catch(() => !ctrl.signal.aborted && setFailed(true));
    return () => ctrl.abort();
  }, [org.id, reload]);

  const save = async (mode: RuleDialogMode, rule: Rule | null) => {
    try {
      if (mode.kind === 'default') {
        await api.put(`/organisations/${org.id}`, { name: org.name, measurementUnit: org.measurementUnit, defaultNotificationRule: rule });
        setDefaultRule(rule!);
        await refreshOrganisations();
      } else {
        const id = mode.member!.cognitoIdentityId;
        await api.patch(`/organisations/${org.id}/members/${id}`, { cognitoIdentityId: id, notificationRule: rule }, { query: regionQuery() });
        setReload((n) => n + 1);
      }
      setDialog(null);
    } catch {
      notifications.show({ color: 'red', message: ORG_SETTINGS_MESSAGES.changeSettingsFailed, autoClose: 4000 });
    }
  };

  if (failed)
    return (
      <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />}>
        The member rules could not be loaded. Please check your internet connection and try again.
      </Alert>
    );
  if (!members) return <Loader size="sm" aria-label="Loading member rules" />;
  const withoutRule = members.filter((m) => !m.notificationRule);

  const who = (m: Member) => m.name || m.email;
  const ruleActions = (m: Member) =>
    m.notificationRule ? (
      <Group gap={4} justify="flex-end" wrap="nowrap">
        <Button size="compact-sm" variant="subtle" aria-label={`Edit the rule of ${who(m)}`} onClick={() => setDialog({ kind: 'edit', member: m })}>
          Edit
        </Button>
        <Button size="compact-sm" variant="subtle" color="red" aria-label={`Remove the rule of ${who(m)}`} onClick={() => setDialog({ kind: 'remove', member: m })}>
          Remove
        </Button>
      </Group>
    ) : (
      <Button size="compact-sm" variant="subtle" aria-label={`Add a rule for ${who(m)}`} onClick={() => setDialog({ kind: 'add', member: m })}>
        Add
      </Button>
    );
  const notifiedBy = (m: Member) =>
    m.notificationRule ? (
      <Text size="sm">{channels(m.notificationRule)}</Text>
    ) : (
      <Group gap={6} wrap="nowrap">
        <Text size="sm">{channels(defaultRule)}</Text>
        <Badge size="sm" variant="light" color="gray">
          Default
        </Badge>
      </Group>
    );
  const dialogEl = dialog && <RuleDialog mode={dialog} defaultRule={defaultRule} candidates={withoutRule} selfId={user.cognitoIdentityId} onClose={() => setDialog(null)} onSave={save} />;
  const addRule = isManager && (
    <Group justify="flex-end">
      <Button size="compact-sm" variant="light" leftSection={<IconPlus size={14} />} disabled={!withoutRule.length} onClick={() => setDialog({ kind: 'add', member: null })}>
        Add Rule
      </Button>
    </Group>
  );

  if (mobile)
    // phones: one card per rule, the actions under it (no sideways scrolling)
    return (
      <Stack gap="xs">
        {addRule}
        <Stack gap="xs" component="ul" aria-label="Member Rules" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          <Paper component="li" withBorder radius="md" p="sm">
            <Group justify="space-between" wrap="nowrap">
              <div>
                <Text fw={600} size="sm">
                  Default
                </Text>
                <Text size="sm">{channels(defaultRule)}</Text>
              </div>
              {isManager && (
                <Button size="compact-sm" variant="subtle" onClick={() => setDialog({ kind: 'default', member: null })} aria-label="Edit the default rule">
                  Edit
                </Button>
              )}
            </Group>
          </Paper>
          {members.map((m) => (
            <Paper component="li" key={m.cognitoIdentityId} withBorder radius="md" p="sm">
              <Text size="sm" fw={500}>
                {who(m)}
              </Text>
              <Text size="xs" c="dimmed">
                {m.email}
              </Text>
              <Group justify="space-between" mt={6} wrap="nowrap">
                {notifiedBy(m)}
                {isManager && ruleActions(m)}
              </Group>
            </Paper>
          ))}
        </Stack>
        {dialogEl}
      </Stack>
    );

  return (
    <Stack gap="xs">
      {addRule}
      <Table.ScrollContainer minWidth={0}>
        <Table withTableBorder verticalSpacing="xs" aria-label="Member Rules">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Who</Table.Th>
              <Table.Th>Notified by</Table.Th>
              {isManager && (
                <Table.Th>
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.Th>
              )}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            <Table.Tr>
              <Table.Td>
                <Text fw={600} size="sm">
                  Default
                </Text>
                <Text size="xs" c="dimmed">
                  Everyone without a rule of their own
                </Text>
              </Table.Td>
              <Table.Td>{channels(defaultRule)}</Table.Td>
              {isManager && (
                <Table.Td ta="right">
                  <Button size="compact-sm" variant="subtle" onClick={() => setDialog({ kind: 'default', member: null })} aria-label="Edit the default rule">
                    Edit
                  </Button>
                </Table.Td>
              )}
            </Table.Tr>
            {members.map((m) => (
              <Table.Tr key={m.cognitoIdentityId}>
                <Table.Td>
                  <Text size="sm">{who(m)}</Text>
                  <Text size="xs" c="dimmed">
                    {m.email}
                  </Text>
                </Table.Td>
                <Table.Td>{notifiedBy(m)}</Table.Td>
                {isManager && <Table.Td ta="right">{ruleActions(m)}</Table.Td>}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {dialogEl}
    </Stack>
  );
}
