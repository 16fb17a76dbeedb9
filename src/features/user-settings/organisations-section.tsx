import { useState } from 'react';
import { Badge, Button, Group, Modal, Paper, Stack, Text, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { Link } from 'react-router-dom';
import { ROLES, type Organisation } from '../../contract/organisation.schema';
import { ROLE_LABELS, unassignNotice } from '../../domain/org-settings';
import { USER_SETTINGS_MESSAGES } from '../../domain/user-settings';
import { api, regionQuery } from '../../shared/api';
import { useSession } from '../../shared/session';
import { countOrNull, useUnfinishedRouteTasks } from '../../shared/use-unfinished-route-tasks';

/**
 * Organisations (organisation-and-routes 2.2, 6, 8; DESIGN.md "Leave organisation"): the user's
 * organisations, each with Leave (disabled for the owner). Leaving deletes the user's own
 * membership and unassigns the user's unfinished route tasks there, which the confirmation counts
 * first; the organisations are read again, so the app moves off the one just left.
 */
export function OrganisationsSection() {
  const { user, organisations, refreshOrganisations } = useSession();
  const [leaving, setLeaving] = useState<Organisation | null>(null);
  const [busy, setBusy] = useState(false);
  const tasks = useUnfinishedRouteTasks(leaving?.id ?? null, leaving ? user.cognitoIdentityId : null);
  const tasksNote = tasks.status === 'ready' || tasks.status === 'error' ? unassignNotice(countOrNull(tasks), 'Your') : null;

  const leave = async (org: Organisation) => {
    setBusy(true);
    try {
      await api.delete(`/organisations/${org.id}/members/${user.cognitoIdentityId}`, { cognitoIdentityId: user.cognitoIdentityId }, { query: regionQuery() });
      setLeaving(null);
      notifications.show({ color: 'teal', message: USER_SETTINGS_MESSAGES.left(org.name), autoClose: 4000 });
      await refreshOrganisations();
    } catch {
      notifications.show({ color: 'red', message: USER_SETTINGS_MESSAGES.leaveFailed(org.name), autoClose: 4000 });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack gap="sm">
      {organisations.map((org) => {
        const owner = org.role === ROLES.OWNER;
        return (
          <Paper key={org.id} withBorder radius="md" p="md" data-testid={`user-org-${org.slug}`}>
            <Group justify="space-between" wrap="wrap" gap="sm">
              <Stack gap={2}>
                <Text fw={600} component={Link} to={`/org/${org.slug}`} c="tide" style={{ textDecoration: 'none' }}>
                  {org.name}
                </Text>
                <Group gap={6}>
                  <Badge variant="light" color={owner ? 'tide' : 'gray'} radius="sm">
                    {ROLE_LABELS[org.role]}
                  </Badge>
                  {org.features.meterReading && (
                    <Text size="xs" c="dimmed">
                      Meter reading
                    </Text>
                  )}
                </Group>
              </Stack>
              <Tooltip label="The owner cannot leave the organisation" disabled={!owner}>
                {/* a disabled button gets no pointer events: the wrapper carries the tooltip */}
                <span>
                  <Button variant="default" color="red" disabled={owner} onClick={() => setLeaving(org)} aria-label={`Leave ${org.name}`}>
                    Leave
                  </Button>
                </span>
              </Tooltip>
            </Group>
          </Paper>
        );
      })}
      <Modal opened={!!leaving} onClose={() => !busy && setLeaving(null)} title={leaving ? `Leave ${leaving.name}?` : ''} centered>
        <Stack gap="md">
          <Text size="sm">You will lose access to its sensors, notifications and settings. An admin can invite you again.</Text>
          {tasksNote && (
            <Text size="sm" data-testid="unassign-note">
              {tasksNote}
            </Text>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setLeaving(null)} disabled={busy}>
              Cancel
            </Button>
            <Button color="red" loading={busy || tasks.status === 'loading'} onClick={() => leaving && void leave(leaving)}>
              Leave organisation
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
