import { useCallback, useEffect, useState } from 'react';
import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useNavigate } from 'react-router-dom';
import { api, ApiError } from '../shared/api';
import { invitationAnswerResponseSchema, pendingInvitationListSchema, type PendingInvitation } from '../contract/pending-invitation.schema';
import { orgPath } from './sections';

const ROLE_NAMES: Record<number, string> = { 1: 'member', 2: 'admin', 3: 'owner', 4: 'meter reader' };

/**
 * An existing account invited to another organisation is asked here, after sign-in, to accept or
 * decline (issue 9): nobody is added to an organisation without saying yes.
 */
export function PendingInvitationsPrompt({
  onJoined,
  invitations,
  onNoneLeft,
}: {
  onJoined: () => Promise<void>;
  /** already fetched (the meter reader's landing asks before leaving for the reader app) */
  invitations?: PendingInvitation[];
  /** every invitation declined or the prompt closed without joining */
  onNoneLeft?: () => void;
}) {
  const [pending, setPending] = useState<PendingInvitation[]>(invitations ?? []);
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const navigate = useNavigate();

  useEffect(() => {
    if (invitations) return;
    const ctl = new AbortController();
    api
      .get('/invitations', { schema: pendingInvitationListSchema, signal: ctl.signal })
      .then((r) => setPending(r.invitations))
      .catch(() => undefined); // no prompt is better than a broken frame; it comes back next load
    return () => ctl.abort();
  }, [invitations]);

  const answer = useCallback(
    async (inv: PendingInvitation, choice: 'accept' | 'decline') => {
      setBusy(`${inv.inviteId}:${choice}`);
      setError(null);
      try {
        const r = await api.post(`/invitations/${inv.inviteId}/${choice}`, undefined, { schema: invitationAnswerResponseSchema });
        const left = pending.filter((i) => i.inviteId !== inv.inviteId);
        setPending(left);
        if (r.status === 'Accepted') {
          await onJoined();
          notifications.show({ color: 'teal', message: `You joined ${r.organisation.name}.`, autoClose: 4000 });
          navigate(orgPath(r.organisation.slug));
        } else {
          notifications.show({ message: `You declined the invitation to ${r.organisation.name}.`, autoClose: 4000 });
          if (left.length === 0) onNoneLeft?.();
        }
      } catch (err) {
        setError(err instanceof ApiError ? err.message : 'The invitation could not be answered. Please try again.');
      } finally {
        setBusy(null);
      }
    },
    [navigate, onJoined, onNoneLeft, pending],
  );

  const [first] = pending;
  if (!first) return null;
  return (
    <Modal
      opened
      onClose={() => {
        setPending([]);
        onNoneLeft?.();
      }}
      title="You have been invited" centered>
      <Stack>
        <Text>
          {first.invitedBy} has invited you to join <b>{first.organisation.name}</b> as {ROLE_NAMES[first.role] ?? 'member'}.
        </Text>
        {error && <Alert color="red">{error}</Alert>}
        <Group justify="flex-end">
          <Button variant="default" loading={busy === `${first.inviteId}:decline`} disabled={!!busy} onClick={() => void answer(first, 'decline')}>
            Decline
          </Button>
          <Button loading={busy === `${first.inviteId}:accept`} disabled={!!busy} onClick={() => void answer(first, 'accept')}>
            Accept
          </Button>
        </Group>
        {pending.length > 1 && (
          <Text size="sm" c="dimmed">
            {pending.length - 1} more invitation{pending.length > 2 ? 's' : ''} after this one.
          </Text>
        )}
      </Stack>
    </Modal>
  );
}
