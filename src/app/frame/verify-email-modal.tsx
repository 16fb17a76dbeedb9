import { useEffect, useState } from 'react';
import { Alert, Button, Group, Loader, Modal, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconAlertCircle, IconMailForward } from '@tabler/icons-react';
import { sendUserAttributeVerificationCode } from 'aws-amplify/auth';
import { VERIFY_EMAIL_MESSAGES } from '../../domain/messages';

type Sending = { state: 'sending' } | { state: 'sent' } | { state: 'failed'; message: string };

/** Verify email (organisation-and-routes 2.3): sends a code and says a verification link was sent to the address. */
export function VerifyEmailModal({ opened, onClose, email }: { opened: boolean; onClose: () => void; email: string }) {
  const [sending, setSending] = useState<Sending>({ state: 'sending' });
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    if (!opened) return;
    let live = true;
    setSending({ state: 'sending' });
    sendUserAttributeVerificationCode({ userAttributeKey: 'email' }).then(
      () => live && setSending({ state: 'sent' }),
      (err: Error) => live && setSending({ state: 'failed', message: err.message || 'Unable to send the verification email.' }),
    );
    return () => {
      live = false;
    };
  }, [opened, attempt]);

  return (
    <Modal opened={opened} onClose={onClose} title="Verify your email" centered>
      <Stack gap="md">
        {sending.state === 'sending' && (
          <Group gap="sm">
            <Loader size="sm" />
            <Text size="sm">Sending a verification link to {email}...</Text>
          </Group>
        )}
        {sending.state === 'sent' && (
          <Group wrap="nowrap" align="flex-start" gap="md">
            <ThemeIcon size={40} radius="xl" variant="light">
              <IconMailForward size={22} />
            </ThemeIcon>
            <Text size="sm">{VERIFY_EMAIL_MESSAGES.sent(email)}</Text>
          </Group>
        )}
        {sending.state === 'failed' && (
          <Alert color="red" icon={<IconAlertCircle size={18} />} role="alert">
            {sending.message}
          </Alert>
        )}
        <Group justify="flex-end">
          {sending.state === 'failed' && (
            <Button variant="default" onClick={() => setAttempt((n) => n + 1)}>
              Try again
            </Button>
          )}
          <Button onClick={onClose}>Done</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
