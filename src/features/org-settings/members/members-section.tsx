import { useEffect, useMemo, useState } from 'react';
import { Alert, Badge, Button, Center, Group, Loader, Modal, Paper, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMachine } from '@xstate/react';
import { fromPromise } from 'xstate';
import { IconAlertCircle, IconUserPlus } from '@tabler/icons-react';
import { inviteFormMachine } from '../../../../machines/invite-form.machine';
import { confirmText, memberActionsMachine, type ActionRequest } from '../../../../machines/member-actions.machine';
import { inviteResponseSchema } from '../../../contract/invitation.schema';
import { memberListSchema, memberMfaResetResponseSchema, type Member } from '../../../contract/member.schema';
import { userLookupResponseSchema } from '../../../contract/account.schema';
import { ACTION_ROLE, invitationStatus, memberActions, relativeTime, ROLE_LABELS, unassignNotice, type Viewer } from '../../../domain/org-settings';
import { api, regionQuery } from '../../../shared/api';
import { PasswordConfirmForm } from '../../../shared/password-confirm-form';
import type { SettingsSectionProps } from '../section-types';
import { InviteModal } from './invite-modal';
import { MemberActionsMenu } from './member-actions-menu';
import { countOrNull, useUnfinishedRouteTasks } from '../../../shared/use-unfinished-route-tasks';

type Load = { status: 'loading' } | { status: 'ready'; members: Member[] } | { status: 'error' };

/** The gateway call of each member action (organisation-and-routes 7.1). */
const performFor = (orgId: string) =>
  fromPromise<unknown, ActionRequest>(async ({ input: { action, member } }) => {
    const base = `/organisations/${orgId}`;
    if (action === 'resend') return api.post(`${base}/invite`, { email: member.email }, { query: { resend: 'true' } });
    if (action === 'cancelInvite') return api.delete(`${base}/invite/${encodeURIComponent(member.email)}`);
    if (action === 'resetMfa') return api.post(`${base}/members/${member.cognitoIdentityId}/reset-mfa`, undefined, { schema: memberMfaResetResponseSchema });
    if (action === 'remove') return api.delete(`${base}/members/${member.cognitoIdentityId}`, { cognitoIdentityId: member.cognitoIdentityId }, { query: regionQuery() });
    return api.patch(`${base}/members/${member.cognitoIdentityId}`, { cognitoIdentityId: member.cognitoIdentityId, role: ACTION_ROLE[action] }, { query: regionQuery() });
  });

/**
 * Members (organisation-and-routes 2.1, 4): 'Organisation Members', a table on wide screens and a
 * stacked list on narrow ones, 'Invite Member' and row actions for managers only; the owner and
 * site admins also see who has two-factor authentication on and may reset it (issue 35), after
 * their own current password (the server asks for it again, as for turning their own off).
 */
export default function MembersSection({ org, user, isManager, mobile }: SettingsSectionProps) {
  const [load, setLoad] = useState<Load>({ status: 'loading' });
  const viewer: Viewer = useMemo(() => ({ selfId: user.cognitoIdentityId, selfEmail: user.email, role: org.role, meterReading: org.features.meterReading, siteAdmin: user.isSiteAdmin }), [user, org]);
  const withActions = isManager || user.isSiteAdmin;

  const [actions, sendAction] = useMachine(memberActionsMachine.provide({ actors: { perform: performFor(org.id) } }), { input: { viewer } });
  const [invite, sendInvite] = useMachine(
    inviteFormMachine.provide({
      actors: {
        lookup: fromPromise(({ input }) => api.get('/users', { query: { email: input }, schema: userLookupResponseSchema })),
        invite: fromPromise(({ input }) => api.post(`/organisations/${org.id}/invite`, input, { schema: inviteResponseSchema })),
      },
    }),
    { input: { meterReading: org.features.meterReading } },
  );
  useEffect(() => sendAction({ type: 'VIEWER', viewer }), [viewer, sendAction]);

  const { changes, notice } = actions.context;
  const { invited, lastInvited } = invite.context;
  useEffect(() => {
    const ctrl = new AbortController();
    api
      .get(`/organisations/${org.id}/members`, { schema: memberListSchema, signal: ctrl.signal })
      .then(({ members }) => setLoad({ status: 'ready', members }))
      .catch(() => !ctrl.signal.aborted && setLoad((prev) => (prev.status === 'ready' ? prev : { status: 'error' })));
    return () => ctrl.abort();
  }, [org.id, changes, invited]);

  useEffect(() => {
    if (notice) notifications.show({ color: notice.kind === 'success' ? 'teal' : 'red', message: notice.text, autoClose: 4000 });
  }, [notice]);
  useEffect(() => {
    if (lastInvited) notifications.show({ color: 'teal', message: `An invitation has been sent to ${lastInvited.email}.`, autoClose: 4000 });
  }, [lastInvited]);

  const busy = actions.matches('working');
  const now = Date.now();
  const question = confirmText(actions);
  // a removal unassigns the member's unfinished route tasks: the confirmation says how many first
  const removing = question && actions.context.action === 'remove' ? actions.context.member?.cognitoIdentityId ?? null : null;
  const tasks = useUnfinishedRouteTasks(removing ? org.id : null, removing);
  const tasksNote = removing && tasks.status !== 'loading' && tasks.status !== 'idle' ? unassignNotice(countOrNull(tasks), 'Their') : null;
  const resettingMfa = !!question && actions.context.action === 'resetMfa';

  return (
    <Stack gap="md">
      <Group justify="space-between" align="center">
        <Text size="sm" c="dimmed">
          {load.status === 'ready' ? `${load.members.filter((m) => m.status === 'Active').length} members, ${load.members.filter((m) => m.status === 'Invited').length} invited` : ' '}
        </Text>
        {isManager && (
          <Button leftSection={<IconUserPlus size={16} />} onClick={() => sendInvite({ type: 'OPEN' })}>
            Invite Member
          </Button>
        )}
      </Group>
      {load.status === 'loading' && (
        <Center h={120}>
          <Loader aria-label="Loading members" />
        </Center>
      )}
      {load.status === 'error' && (
        <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />}>
          The members could not be loaded. Please check your internet connection and try again.
        </Alert>
      )}
      {load.status === 'ready' &&
        (mobile ? (
          <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label="Members">
            {load.members.map((m) => (
              <Paper component="li" key={m.inviteId ?? m.cognitoIdentityId ?? m.email} withBorder radius="md" p="sm">
                <Group justify="space-between" wrap="nowrap" align="flex-start">
                  <Stack gap={2} style={{ minWidth: 0 }}>
                    <Text fw={600} truncate>
                      {m.name || m.email}
                    </Text>
                    <Text size="sm" c="dimmed" truncate>
                      {m.email}
                    </Text>
                    {m.mobile && <Text size="sm">{m.mobile}</Text>}
                    <Group gap={6} mt={4}>
                      <Badge variant="light" color="tide">
                        {ROLE_LABELS[m.role]}
                      </Badge>
                      <Status member={m} now={now} />
                    </Group>
                  </Stack>
                  <MemberActionsMenu who={m.name || m.email} actions={memberActions(m, viewer)} busy={busy} onAction={(a) => sendAction({ type: 'ACT', action: a, member: m })} />
                </Group>
              </Paper>
            ))}
          </Stack>
        ) : (
          <Table.ScrollContainer minWidth={640}>
            <Table verticalSpacing="sm" highlightOnHover aria-label="Organisation members">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Name</Table.Th>
                  <Table.Th>Email</Table.Th>
                  <Table.Th>Mobile</Table.Th>
                  <Table.Th>Role</Table.Th>
                  <Table.Th>Status</Table.Th>
                  {withActions && (
                    <Table.Th>
                      <VisuallyHidden>Actions</VisuallyHidden>
                    </Table.Th>
                  )}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {load.members.map((m) => (
                  <Table.Tr key={m.inviteId ?? m.cognitoIdentityId ?? m.email}>
                    <Table.Td fw={500}>
                      {m.name || '—'}
                      {m.cognitoIdentityId === user.cognitoIdentityId && (
                        <Text span size="xs" c="dimmed" ml={6}>
                          (you)
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td>{m.email}</Table.Td>
                    <Table.Td>{m.mobile ?? '—'}</Table.Td>
                    <Table.Td>{ROLE_LABELS[m.role]}</Table.Td>
                    <Table.Td>
                      <Status member={m} now={now} />
                    </Table.Td>
                    {withActions && (
                      <Table.Td ta="right" w={56}>
                        <MemberActionsMenu who={m.name || m.email} actions={memberActions(m, viewer)} busy={busy} onAction={(a) => sendAction({ type: 'ACT', action: a, member: m })} />
                      </Table.Td>
                    )}
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        ))}
      <Modal opened={!!question} onClose={() => sendAction({ type: 'DISMISS' })} title="Please confirm" radius="lg" centered>
        <Stack>
          <Text>{question}</Text>
          {actions.context.member && (
            <Text size="sm" c="dimmed">
              {actions.context.member.name || actions.context.member.email} ({actions.context.member.email})
            </Text>
          )}
          {tasksNote && <Text data-testid="unassign-note">{tasksNote}</Text>}
          {resettingMfa ? (
            // the password proved for this sign-in first (POST /reauthenticate), then the reset
            <PasswordConfirmForm
              submitLabel="Reset two-factor authentication"
              submitColor="red"
              description="Confirm it is you before their second step is removed."
              onConfirmed={async () => {
                sendAction({ type: 'CONFIRM' });
                return true;
              }}
              onCancel={() => sendAction({ type: 'DISMISS' })}
            />
          ) : (
            <Group justify="flex-end">
              <Button variant="default" onClick={() => sendAction({ type: 'DISMISS' })}>
                No
              </Button>
              <Button color="red" loading={!!removing && tasks.status === 'loading'} onClick={() => sendAction({ type: 'CONFIRM' })}>
                Yes
              </Button>
            </Group>
          )}
        </Stack>
      </Modal>
      <InviteModal state={invite} send={sendInvite} meterReading={org.features.meterReading} fullScreen={mobile} />
    </Stack>
  );
}

function Status({ member, now }: { member: Member; now: number }) {
  if (member.status === 'Active')
    return (
      <Group gap={6} wrap="nowrap">
        <Badge variant="light" color="teal">
          Active
        </Badge>
        {member.mfaEnabled && (
          <Badge variant="outline" color="gray" title="Two-factor authentication is on">
            2FA
          </Badge>
        )}
      </Group>
    );
  const status = invitationStatus(member.lastInviteAt, now);
  if (status.expired)
    return (
      <Badge variant="light" color="red">
        Expired
      </Badge>
    );
  return (
    <Group gap={6} wrap="nowrap">
      <Badge variant="light" color="orange">
        Invited
      </Badge>
      <Text size="xs" c="dimmed" title={new Date(status.expiresAt).toLocaleString()}>
        Invitation expires {relativeTime(status.expiresAt, now)}
      </Text>
    </Group>
  );
}
