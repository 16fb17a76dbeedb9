import type { ReactNode } from 'react';
import { Alert, Anchor, Button, Stack, Text } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';

/** A list that could not be loaded: the message, then "Try again" inline (notifications, measurement errors). */
export function LoadFailedNotice({ children, onRetry }: { children: ReactNode; onRetry(): void }) {
  return (
    <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />}>
      {children}{' '}
      <Anchor component="button" type="button" fz="sm" onClick={onRetry}>
        Try again
      </Anchor>
    </Alert>
  );
}

/** A whole section or page that could not be loaded: a title, the reason, and a "Try again" button. */
export function LoadFailedPanel({ title, message, onRetry }: { title: string; message: ReactNode; onRetry(): void }) {
  return (
    <Alert color="red" icon={<IconAlertCircle size={18} />} title={title}>
      <Stack gap="sm" align="flex-start">
        <Text size="sm">{message}</Text>
        <Button size="xs" variant="default" onClick={onRetry}>
          Try again
        </Button>
      </Stack>
    </Alert>
  );
}
