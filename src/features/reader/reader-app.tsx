import { useCallback, useEffect, useState } from 'react';
import { Alert, AppShell, Button, Container, Group, Stack, Text } from '@mantine/core';
import { useSelector } from '@xstate/react';
import type { Actor } from 'xstate';
import type { readerSyncMachine } from '../../../machines/reader-sync.machine';
import type { MeterReading, MeterReadingRecord, Position } from '../../contract/route.schema';
import { assignedTasks, downloadTask, readerOrganisations } from './reader-api';
import type { DownloadedTask, ReaderDb, ReaderOwner } from './reader-db';
import { SyncPanel } from './sync-panel';
import { TasksPage, type AssignedTask } from './tasks-page';
import { WalkPage } from './walk-page';

export interface ReaderAppProps {
  db: ReaderDb;
  owner: ReaderOwner;
  sync: Actor<typeof readerSyncMachine>;
  mapStyle: string;
  /** The network as the browser reports it (online/offline events). */
  online: boolean;
  newKey: () => string;
  onSignOut: () => void;
}

/** Watches the GPS position while the app is open (null when unavailable or refused). */
function usePosition(): Position | null {
  const [pos, setPos] = useState<Position | null>(null);
  useEffect(() => {
    if (!('geolocation' in navigator)) return;
    const id = navigator.geolocation.watchPosition(
      (p) => setPos({ latitude: p.coords.latitude, longitude: p.coords.longitude, accuracy: Math.min(p.coords.accuracy, 100_000) }),
      () => setPos(null),
      { enableHighAccuracy: true, maximumAge: 10_000 },
    );
    return () => navigator.geolocation.clearWatch(id);
  }, []);
  return pos;
}

/** The meter reader's app (issue 33): my tasks, downloads for offline use, the walk, and the upload queue. */
export function ReaderApp({ db, owner, sync, mapStyle, online, newKey, onSignOut }: ReaderAppProps) {
  const captures = useSelector(sync, (s) => s.context.captures);
  const sentCount = useSelector(sync, (s) => s.context.captures.filter((c) => c.status === 'sent').length);
  const backingOff = useSelector(sync, (s) => s.matches('backoff'));
  const [downloaded, setDownloaded] = useState<DownloadedTask[]>([]);
  const [assigned, setAssigned] = useState<AssignedTask[] | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [now, setNow] = useState(Date.now());
  const position = usePosition();

  const reloadLocal = useCallback(async () => setDownloaded(await db.tasks()), [db]);
  // again after each sent capture: its answer has updated the downloaded copy
  useEffect(() => {
    void reloadLocal();
  }, [reloadLocal, sentCount]);
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(t);
  }, []);

  const refresh = useCallback(async () => {
    if (!online) return setAssigned(null);
    try {
      const orgs = await readerOrganisations();
      const lists = await Promise.all(orgs.map(async (o) => (await assignedTasks(o.id)).map((t) => ({ ...t, orgId: o.id, orgName: o.name }))));
      setAssigned(lists.flat());
      setError(null);
    } catch (err) {
      setAssigned(null);
      setError(`Your tasks could not be loaded: ${(err as Error).message}`);
    }
  }, [online]);
  useEffect(() => {
    void refresh();
  }, [refresh]);

  const download = async (t: AssignedTask) => {
    setBusy(t.task.id);
    try {
      const fresh = await downloadTask(t.orgId, t.task.id);
      await db.putTask({ ...fresh, orgId: t.orgId, orgName: t.orgName, downloadedAt: Date.now() });
      await reloadLocal();
      setNow(Date.now());
      setError(null);
    } catch (err) {
      setError(`The task could not be downloaded: ${(err as Error).message}`);
    } finally {
      setBusy(null);
    }
  };

  /** Off the device: the task and its sent captures (the tasks page offers it only when nothing of it waits or was refused). */
  const remove = async (taskId: string) => {
    await db.removeTask(taskId);
    sync.send({ type: 'FORGET_SENT', taskId });
    await reloadLocal();
  };

  const capture = (d: DownloadedTask) => (reading: MeterReading, body: MeterReadingRecord) => {
    const at = Date.now();
    sync.send({ type: 'CAPTURE', capture: { id: newKey(), orgId: d.orgId, taskId: d.task.id, readingId: reading.id, body, capturedAt: at } });
  };

  const addressOf = (c: { taskId: string; readingId: string }) =>
    downloaded.find((d) => d.task.id === c.taskId)?.readings.find((r) => r.id === c.readingId)?.meterInfo.propertyAddress ?? 'A reading';

  const current = open ? downloaded.find((d) => d.task.id === open) : undefined;

  return (
    <AppShell header={{ height: 52 }} padding="sm">
      <AppShell.Header>
        <Container size="sm" h="100%">
          <Group h="100%" justify="space-between" wrap="nowrap">
            <Text fw={700} style={{ whiteSpace: 'nowrap' }}>
              Tidewatch Reader
            </Text>
            <Group gap="xs" wrap="nowrap">
              <Text size="xs" c="dimmed" truncate maw={96}>
                {owner.email}
              </Text>
              <Button size="compact-sm" variant="subtle" onClick={onSignOut} disabled={!online}>
                Log out
              </Button>
            </Group>
          </Group>
        </Container>
      </AppShell.Header>
      <AppShell.Main>
        <Container size="sm" px={0}>
          <Stack gap="sm">
            <SyncPanel captures={captures} online={online} backingOff={backingOff} addressOf={addressOf} onRetry={() => sync.send({ type: 'RETRY' })} onDismiss={(id) => sync.send({ type: 'DISMISS', id })} />
            {error && (
              <Alert color="red" withCloseButton onClose={() => setError(null)}>
                {error}
              </Alert>
            )}
            {current ? (
              <WalkPage downloaded={current} captures={captures} position={position} mapStyle={mapStyle} now={Date.now} onCapture={capture(current)} onBack={() => setOpen(null)} />
            ) : (
              <TasksPage assigned={assigned} downloaded={downloaded} captures={captures} now={now} busy={busy} onDownload={(t) => void download(t)} onOpen={setOpen} onRemove={(id) => void remove(id)} />
            )}
          </Stack>
        </Container>
      </AppShell.Main>
    </AppShell>
  );
}
