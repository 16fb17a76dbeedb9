import { useContext, type ReactNode } from 'react';
import { Center, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { InsideMain } from '../../shared/layout';

/** The layout of every whole-page status screen: an icon, a title, a note and what to do next. */
export function StatusScreen({ icon, title, children, actions, color = 'tide' }: { icon: ReactNode; title: string; children: ReactNode; actions?: ReactNode; color?: string }) {
  const inMain = useContext(InsideMain);
  return (
    <Center component={inMain ? 'div' : 'main'} mih="calc(100dvh - 60px)" p="md">
      <Paper withBorder shadow="sm" p="xl" maw={480} w="100%">
        <Stack align="center" gap="md" ta="center">
          <ThemeIcon size={64} radius="xl" variant="light" color={color}>
            {icon}
          </ThemeIcon>
          <Title order={1} size="h2">{title}</Title>
          <Text c="dimmed">{children}</Text>
          {actions}
        </Stack>
      </Paper>
    </Center>
  );
}
