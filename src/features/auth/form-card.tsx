import type { ReactNode } from 'react';
import { Alert, Anchor, Stack, Text, Title } from '@mantine/core';
import { IconAlertCircle, IconCircleCheck } from '@tabler/icons-react';

/** Heading, messages and body of every signed-out form, so they all read alike. */
export function FormCard({ title, subtitle, error, notice, children }: { title: string; subtitle?: ReactNode; error?: string | null; notice?: string | null; children: ReactNode }) {
  return (
    <Stack gap="lg">
      <Stack gap={6}>
        <Title order={1} fz={26}>
          {title}
        </Title>
        {subtitle && (
          <Text c="dimmed" size="sm">
            {subtitle}
          </Text>
        )}
      </Stack>
      {notice && (
        <Alert color="teal" variant="light" icon={<IconCircleCheck size={18} />} role="status">
          {notice}
        </Alert>
      )}
      {error && (
        <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} role="alert">
          {error}
        </Alert>
      )}
      {children}
    </Stack>
  );
}

/** "Back to login" under a step of the sign-in (a new password, an authenticator code): it cancels the step. */
export function BackToLoginButton({ onCancel }: { onCancel: () => void }) {
  return (
    <Text size="sm" ta="center">
      <Anchor component="button" type="button" onClick={onCancel}>
        Back to login
      </Anchor>
    </Text>
  );
}
