import type { ReactNode } from 'react';
import { Alert, Stack, Text, Title } from '@mantine/core';
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
