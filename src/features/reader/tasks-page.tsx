import { Badge, Button, Card, Group, Progress, Stack, Text, Title } from '@mantine/core';
import type { ReaderTask } from '../../contract/reader.schema';
import type { Capture } from '../../../machines/reader-sync.machine';
import type { DownloadedTask } from './reader-db';
import { ageText, capturesByReading, taskProgress } from './reader-state';

export interface AssignedTask extends ReaderTask {
  orgId: string;
  orgName: string;
}

export interface TasksPageProps {
  /** What the server lists as assigned to me (null: not known, e.g. offline). */
  assigned: AssignedTask[] | null;
  downloaded: DownloadedTask[];
  captures: readonly Capture[];
  now: number;
  busy: string | null;
  onDownload: (t: AssignedTask) => void;
  onOpen: (taskId: string) => void;
  /** Removes the downloaded copy (offered only when none of the task's captures waits or was refused). */
  onRemove: (taskId: string) => void;
}

/** My tasks (issue 33 "Tasks"): task number, route, group, suburb, progress, readings left; download and its age. */
export function TasksPage({ assigned, downloaded, captures, now, busy, onDownload, onOpen, onRemove }: TasksPageProps) {
  const byReading = capturesByReading(captures);
  const local = new Map(downloaded.map((d) => [d.task.id, d]));
  const rows: { key: string; t: ReaderTask; remote?: AssignedTask; local?: DownloadedTask }[] = [];
  for (const a of assigned ?? []) rows.push({ key: a.task.id, t: a, remote: a, local: local.get(a.task.id) });
  for (const d of downloaded) if (!assigned?.some((a) => a.task.id === d.task.id)) rows.push({ key: d.task.id, t: d, local: d });
  rows.sort((a, b) => a.t.task.taskNumber - b.t.task.taskNumber);

  return (
    <Stack gap="sm">
      <Title order={1} size="h3">
        My route tasks
      </Title>
      {rows.length === 0 && <Text c="dimmed">{assigned === null ? 'No task is downloaded on this device. Connect to the network to see your tasks.' : 'No route task is assigned to you.'}</Text>}
      {rows.map(({ key, t, remote, local: d }) => {
        const readings = d?.readings ?? t.readings;
        const p = taskProgress(readings, byReading);
        const stillAssigned = assigned === null || remote !== undefined;
        // the device's only copy of a capture not yet sent, or refused and not dismissed, stays with its task
        const unsent = captures.filter((c) => c.taskId === t.task.id && c.status !== 'sent').length;
        return (
          <Card key={key} withBorder padding="md" data-testid={`task-${t.task.taskNumber}`}>
            <Group justify="space-between" wrap="nowrap" align="flex-start">
              <div>
                <Text fw={700}>Task {t.task.taskNumber}</Text>
                <Text size="sm">
                  Route {t.task.routeName}
                  {t.task.group ? ` · ${t.task.group}` : ''}
                </Text>
                <Text size="sm" c="dimmed">
                  {t.task.suburb ?? 'No suburb'}
                </Text>
              </div>
              <Badge variant="light" color={p.refused > 0 ? 'red' : p.left === 0 ? 'green' : 'blue'}>
                {p.left} left
              </Badge>
            </Group>
            <Progress value={p.percent} mt="sm" aria-label={`Progress ${p.percent}%`} />
            <Text size="xs" c="dimmed" mt={4}>
              {p.percent}% · {p.done} of {p.total} read
              {p.refused > 0 && ` · ${p.refused} refused`}
            </Text>
            <Text size="xs" c={d ? 'teal.8' : 'dimmed'} mt={2}>
              {d ? `Downloaded ${ageText(now - d.downloadedAt)}` : 'Not downloaded'}
              {!stillAssigned && ' · no longer assigned to you'}
            </Text>
            <Group mt="sm" gap="xs">
              {d && (
                <Button size="sm" onClick={() => onOpen(t.task.id)}>
                  Open
                </Button>
              )}
              {remote && (
                <Button size="sm" variant={d ? 'default' : 'filled'} loading={busy === t.task.id} onClick={() => onDownload(remote)}>
                  {d ? 'Download again' : 'Download'}
                </Button>
              )}
              {d && (
                <Button size="sm" variant="subtle" color="red" disabled={unsent > 0} onClick={() => onRemove(t.task.id)}>
                  Remove from device
                </Button>
              )}
            </Group>
            {d && unsent > 0 && (
              <Text size="xs" c="dimmed" mt={4}>
                {unsent} reading{unsent === 1 ? '' : 's'} not sent yet: send or dismiss {unsent === 1 ? 'it' : 'them'} before removing the task.
              </Text>
            )}
          </Card>
        );
      })}
    </Stack>
  );
}
