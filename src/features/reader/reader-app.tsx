import { startTransition, useCallback, useEffect, useState } from 'react';
import { Alert, AppShell, Button, Container, Group, Stack, Text } from '@mantine/core';
import { useSelector } from '@xstate/react';
import type { Actor } from 'xstate';
import type { readerSyncMachine } from '../../../machines/reader-sync.machine';
import type { MeterReading, MeterReadingAnswer, MeterReadingRecord, Position } from '../../contract/route.schema';
import { pageTitle, READER_NAME, useDocumentTitle } from '../../shared/page-title';
import { assignedTasks, readerOrganisations } from './reader-api';
import { downloadOffMainThread } from './download-client';
import { withAnswer, type DownloadedTask, type ReaderDb, type ReaderOwner } from './reader-db';
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
  /** Subscribes to the answers of sent captures (after the device's copy was updated); returns the unsubscribe. */
  onAnswer: (listener: (taskId: string, answer: MeterReadingAnswer) => void) => () => void;
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
/** How often the task list is re-read while the app is on screen. */
export const TASKS_REFRESH_MS = 5 * 60_000;

export function ReaderApp({ db, owner, sync, mapStyle, online, onAnswer, newKey, onSignOut }: ReaderAppProps) {
  const captures = useSelector(sync, (s) => s.context.captures);
  const backingOff = useSelector(sync, (s) => s.matches('backoff'));
  const [downloaded, setDownloaded] = useState<DownloadedTask[]>([]);
  const [assigned, setAssigned] = useState<AssignedTask[] | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [now, setNow] = useState(Date.now());
  const position = usePosition();

  const reloadLocal = useCallback(async () => setDownloaded(await db.tasks()), [db]);
  useEffect(() => {
    void reloadLocal();
  }, [reloadLocal]);
  // each sent capture's answer, as the device's copy took it (reading that copy back would
  // deserialize every reading of the task again: tens of milliseconds for 1,000)
  useEffect(() => onAnswer((taskId, answer) => setDownloaded((ds) => ds.map((d) => (d.task.id === taskId ? withAnswer(d, answer) : d)))), [onAnswer]);
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(t);
  }, []);

  /** Reads my tasks; a quiet re-read (in the background) that fails keeps the list shown. */
  const refresh = useCallback(
    async (quiet = false) => {
      if (!online) return setAssigned(null);
      try {
        const orgs = await readerOrganisations();
        const lists = await Promise.all(orgs.map(async (o) => (await assignedTasks(o.id)).map((t) => ({ ...t, orgId: o.id, orgName: o.name }))));
        setAssigned(lists.flat());
        setError(null);
      } catch (err) {
        if (quiet) return;
        setAssigned(null);
        setError(`Your tasks could not be loaded: ${(err as Error).message}`);
      }
    },
    [online],
  );
  useEffect(() => {
    void refresh();
    // a task assigned (or taken away) while the app stays open shows without reopening it: re-read
    // when the app comes back to the screen, and every few minutes while it is on it
    const again = () => document.visibilityState === 'visible' && void refresh(true);
    const t = setInterval(again, TASKS_REFRESH_MS);
    document.addEventListener('visibilitychange', again);
    return () => {
      clearInterval(t);
      document.removeEventListener('visibilitychange', again);
    };
  }, [refresh]);

  const download = async (t: AssignedTask) => {
    setBusy(t.task.id);
    try {
      // fetched, validated and stored by the download worker, which hands the stored task over in parts
      const stored = await downloadOffMainThread({ orgId: t.orgId, orgName: t.orgName, taskId: t.task.id });
      // a transition: React renders the new list in slices between which the page stays responsive
      startTransition(() => {
        setDownloaded((ds) => [...ds.filter((d) => d.task.id !== stored.task.id), stored]);
        setNow(Date.now());
        setError(null);
        setBusy(null);
      });
    } catch (err) {
      setError(`The task could not be downloaded: ${(err as Error).message}`);
      setBusy(null);
    }
  };

  // the walk of a 1,000-reading task is rendered as a transition too (in slices, not one long task)
  const openTask = (taskId: string | null) => startTransition(() => setOpen(taskId));

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
  // the reader's two screens, titled as they are headed (WCAG 2.4.2); reader.html's title until the app draws
  useDocumentTitle(pageTitle([current ? `Task ${current.task.taskNumber} · ${current.task.routeName}` : 'My route tasks'], READER_NAME));

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
              <TasksPage assigned={assigned} downloaded={downloaded} captures={captures} now={now} busy={busy} onDownload={(t) => void download(t)} onOpen={openTask} onRemove={(id) => void remove(id)} />
            )}
          </Stack>
        </Container>
      </AppShell.Main>
    </AppShell>
  );
}
