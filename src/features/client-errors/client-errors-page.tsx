import { useState } from 'react';
import { Alert, Badge, Box, Button, Center, Code, Group, Loader, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { IconBug, IconRefresh } from '@tabler/icons-react';
import type { ClientError } from '../../contract/client-error.schema';
import { useSession } from '../../shared/session';
import { useClientErrors } from './use-client-errors';

const KIND_LABEL: Record<ClientError['kind'], string> = { error: 'Uncaught error', unhandledrejection: 'Unhandled rejection', render: 'Failed render' };
const KIND_COLOR: Record<ClientError['kind'], string> = { error: 'red', unhandledrejection: 'orange', render: 'grape' };
const when = (ms: number) => new Date(ms).toLocaleString('en-NZ', { day: '2-digit', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit' });
const pathOf = (url: string | null) => {
  if (!url) return '';
  try {
    return new URL(url).pathname;
  } catch {
    return url;
  }
};

function Details({ e }: { e: ClientError }) {
  return (
    <Stack gap={6} py={4}>
      <Text size="xs" c="dimmed">
        {e.url ?? 'no address'} · {e.userAgent ?? 'unknown browser'} · from {e.clientAddress}
        {e.release ? ` · build ${e.release}` : ''}
      </Text>
      {e.stack && (
        <Code block fz="xs" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
          {e.stack}
        </Code>
      )}
      {e.componentStack && (
        <Code block fz="xs" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
          {e.componentStack.trim()}
        </Code>
      )}
    </Stack>
  );
}

/** Site admins: the sampled client error reports (monitoring-client 9), newest first. */
export function ClientErrorsPage() {
  const { user } = useSession();
  const [attempt, setAttempt] = useState(0);
  const [open, setOpen] = useState<string | null>(null);
  const { state, loadMore } = useClientErrors(user.isSiteAdmin ? attempt : -1);

  if (!user.isSiteAdmin)
    return (
      <Box maw={1240} mx="auto" p="md">
        <Alert color="gray">Client errors are shown to site admins only.</Alert>
      </Box>
    );
  return (
    <Stack gap="md" maw={1240} mx="auto" p="md">
      <Group justify="space-between">
        <Group gap="xs">
          <IconBug size={22} />
          <Title order={1} size="h2">Client errors</Title>
        </Group>
        <Button variant="default" leftSection={<IconRefresh size={16} />} onClick={() => setAttempt((a) => a + 1)}>
          Refresh
        </Button>
      </Group>
      <Text size="sm" c="dimmed">
        Uncaught errors and failed renders reported by browsers (a sample of them), newest first. Select a row for its stack.
      </Text>
      {state.status === 'loading' && (
        <Center py="xl">
          <Loader aria-label="Loading" />
        </Center>
      )}
      {state.status === 'error' && <Alert color="red">Failed to load client errors... Error: {state.message}</Alert>}
      {state.status === 'ready' && state.errors.length === 0 && <Text>No client errors have been reported.</Text>}
      {state.status === 'ready' && state.errors.length > 0 && (
        <Paper withBorder>
          <Table.ScrollContainer minWidth={640}>
            <Table highlightOnHover verticalSpacing="xs">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Time</Table.Th>
                  <Table.Th>Kind</Table.Th>
                  <Table.Th>Message</Table.Th>
                  <Table.Th>User</Table.Th>
                  <Table.Th>Page</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {state.errors.map((e) => [
                  <Table.Tr key={e.id} style={{ cursor: 'pointer' }} onClick={() => setOpen(open === e.id ? null : e.id)} aria-expanded={open === e.id}>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>{when(e.createdAt)}</Table.Td>
                    <Table.Td style={{ minWidth: 180 }}>
                      <Badge color={KIND_COLOR[e.kind]} variant="light">
                        {KIND_LABEL[e.kind]}
                      </Badge>
                    </Table.Td>
                    <Table.Td style={{ wordBreak: 'break-word' }}>{e.message}</Table.Td>
                    <Table.Td>{e.user?.email ?? <Text c="dimmed" size="sm">signed out</Text>}</Table.Td>
                    <Table.Td style={{ wordBreak: 'break-all' }}>{pathOf(e.url)}</Table.Td>
                  </Table.Tr>,
                  open === e.id && (
                    <Table.Tr key={`${e.id}-details`}>
                      <Table.Td colSpan={5}>
                        <Details e={e} />
                      </Table.Td>
                    </Table.Tr>
                  ),
                ])}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Paper>
      )}
      {state.status === 'ready' && state.next && (
        <Group justify="center">
          <Button variant="light" loading={state.loadingMore} onClick={() => void loadMore()}>
            Load more
          </Button>
        </Group>
      )}
    </Stack>
  );
}
