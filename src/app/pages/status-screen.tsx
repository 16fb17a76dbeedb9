import type { ReactNode } from 'react';
import { Center, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';

/** The layout of every whole-page status screen: an icon, a title, a note and what to do next. */
export function StatusScreen({ icon, title, children, actions, color = 'tide' }: { icon: ReactNode; title: string; children: ReactNode; actions?: ReactNode; color?: string }) {
  return (
    <Center mih="calc(100dvh - 60px)" p="md">
      <Paper withBorder shadow="sm" p="xl" maw={480} w="100%">
        <Stack align="center" gap="md" ta="center">
          <ThemeIcon size={64} radius="xl" variant="light" color={color}>
            {icon}
          </ThemeIcon>
          <Title order={2}>{title}</Title>
          <Text c="dimmed">{children}</Text>
          {actions}
        </Stack>
      </Paper>
    </Center>
  );
}
