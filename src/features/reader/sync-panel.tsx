import { Badge, Button, Card, Group, Stack, Text } from '@mantine/core';
import { queueCounts, type Capture } from '../../../machines/reader-sync.machine';

export interface SyncPanelProps {
  captures: readonly Capture[];
  online: boolean;
  backingOff: boolean;
  addressOf: (c: Capture) => string;
  onRetry: () => void;
  /** Drops a refused capture from the device, once the reader has read the server's reason. */
  onDismiss: (id: string) => void;
}

/** What is waiting, sending, sent or refused (issue 33 "Sync"); refused captures keep the server's reason. */
export function SyncPanel({ captures, online, backingOff, addressOf, onRetry, onDismiss }: SyncPanelProps) {
  const n = queueCounts(captures);
  const refused = captures.filter((c) => c.status === 'refused');
  return (
    <Card withBorder padding="sm" data-testid="sync-panel">
      <Group justify="space-between" wrap="nowrap">
        <Group gap={6}>
          <Badge color={online ? 'green' : 'gray'} variant="dot">
            {online ? 'Online' : 'Offline'}
          </Badge>
          <Badge color="orange" variant="light" data-testid="sync-waiting">
            {n.waiting + n.sending} waiting
          </Badge>
          <Badge color="green" variant="light" data-testid="sync-sent">
            {n.sent} sent
          </Badge>
          {n.refused > 0 && (
            <Badge color="red" variant="light" data-testid="sync-refused">
              {n.refused} refused
            </Badge>
          )}
        </Group>
        {backingOff && online && (
          <Button size="compact-sm" variant="light" onClick={onRetry}>
            Send now
          </Button>
        )}
      </Group>
      {n.sending > 0 && (
        <Text size="xs" c="dimmed" mt={4}>
          Sending…
        </Text>
      )}
      {refused.length > 0 && (
        <Stack gap={4} mt="xs">
          {refused.map((c) => (
            <Group key={c.id} gap="xs" wrap="nowrap" justify="space-between" data-testid="refused-capture">
              <Text size="xs" c="red.8">
                {addressOf(c)}: {c.refusal?.message} (kept on this device: {c.body.cantReadCode ?? c.body.value})
              </Text>
              <Button size="compact-xs" variant="subtle" color="red" style={{ flexShrink: 0 }} onClick={() => onDismiss(c.id)} aria-label={`Dismiss the refused reading of ${addressOf(c)}`}>
                Dismiss
              </Button>
            </Group>
          ))}
        </Stack>
      )}
    </Card>
  );
}
