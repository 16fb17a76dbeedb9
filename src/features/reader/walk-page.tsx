import { lazy, Suspense, useCallback, useDeferredValue, useMemo, useState } from 'react';
import { Alert, Badge, Button, Card, Group, Loader, Stack, Text, TextInput, Title } from '@mantine/core';
import { previousReadingOf, ROUTE_ERROR_CODES, type MeterReading, type MeterReadingRecord, type Position } from '../../contract/route.schema';
import type { Capture } from '../../../machines/reader-sync.machine';
import type { DownloadedTask } from './reader-db';
import { RecordForm } from './record-form';
import { capturesByReading, nearestUnread, readingState, searchReadings, taskProgress, type ReadingState } from './reader-state';

const ReaderMap = lazy(() => import('./reader-map').then((m) => ({ default: m.ReaderMap })));

const STATE_LABEL: Record<ReadingState, { label: string; color: string }> = {
  unread: { label: 'To read', color: 'gray' },
  waiting: { label: 'Waiting to send', color: 'orange' },
  sending: { label: 'Sending', color: 'orange' },
  sent: { label: 'Sent', color: 'green' },
  recorded: { label: 'Recorded', color: 'green' },
  refused: { label: 'Refused', color: 'red' },
};

/** A button whose label wraps onto more lines on a phone (an address with a distance is wider than 390 px) rather than being cut off. */
const WRAP = { root: { height: 'auto', minHeight: 'var(--button-height)', paddingBlock: 6 }, label: { whiteSpace: 'normal', textAlign: 'left' } } as const;

// one formatter for every reading (toLocaleDateString with options builds a new one on each call)
const DATE = new Intl.DateTimeFormat('en-NZ', { day: 'numeric', month: 'short', year: 'numeric' });
const dateText = (ms: number | null) => (ms === null ? 'date unknown' : DATE.format(ms));

export interface WalkPageProps {
  downloaded: DownloadedTask;
  captures: readonly Capture[];
  position: Position | null;
  mapStyle: string;
  now: () => number;
  onCapture: (reading: MeterReading, body: MeterReadingRecord) => void;
  onBack: () => void;
}

/** The walk (issue 33): readings in sequence order with next and previous, search, the map, and recording. */
export function WalkPage({ downloaded, captures, position, mapStyle, now, onCapture, onBack }: WalkPageProps) {
  const { task, readings } = downloaded;
  const byReading = useMemo(() => capturesByReading(captures), [captures]);
  const states = useMemo(() => new Map(readings.map((r) => [r.id, readingState(r, byReading)])), [readings, byReading]);
  const firstLeft = Math.max(0, readings.findIndex((r) => states.get(r.id) === 'unread'));
  // the server refused a reading of this task as not assigned to me (it was given to someone else
  // after the download, or I am a manager looking at the app): every other reading would be refused
  // too, so the walk says why instead of offering the form (it comes back once the refusal is dismissed)
  const notMine = useMemo(() => captures.some((c) => c.taskId === task.id && c.status === 'refused' && c.refusal?.code === ROUTE_ERROR_CODES.NOT_ASSIGNED), [captures, task.id]);
  const [index, setIndex] = useState(firstLeft);
  const [query, setQuery] = useState('');
  const [showMap, setShowMap] = useState(false);
  // opening the walk, and every move to another meter (next, previous, a search pick, a save), paints
  // the meter's card first; the record form for that meter follows in a second render (React's
  // deferred value: a transition), so a click is two short tasks rather than one long one (mounting
  // the form is most of a click's render: bench/README.md, benchmark 20)
  const formFor = useDeferredValue<string | null>(readings[index]?.id ?? null, null);
  const progress = taskProgress(readings, byReading);
  const nearest = position ? nearestUnread(readings, byReading, position) : undefined;
  const found = useMemo(() => (query.trim() ? searchReadings(readings, query).slice(0, 8) : []), [readings, query]);
  const r = readings[index];
  const goTo = (id: string) => {
    const i = readings.findIndex((x) => x.id === id);
    if (i >= 0) setIndex(i);
    setQuery('');
  };
  // after a capture the walk moves on to the next meter still to read; one callback while the meter
  // and the captures stay, so typing a search does not render the (memoised) record form again
  const captureShown = useCallback(
    (body: MeterReadingRecord) => {
      onCapture(readings[index]!, body);
      const next = readings.findIndex((x, i) => i > index && states.get(x.id) === 'unread');
      if (next >= 0) setIndex(next);
    },
    [onCapture, readings, states, index],
  );
  if (!r) return <Text>This task has no readings.</Text>;
  const state = states.get(r.id)!;
  const capture = byReading.get(r.id);
  const prev = previousReadingOf(r);

  return (
    <Stack gap="sm">
      <Group justify="space-between" wrap="nowrap">
        <Button variant="subtle" onClick={onBack} px={4}>
          ‹ Tasks
        </Button>
        <Text size="sm" c="dimmed">
          {progress.left} left{progress.refused > 0 && ` · ${progress.refused} refused`} · {progress.percent}%
        </Text>
      </Group>
      <Title order={1} size="h4">
        Task {task.taskNumber} · {task.routeName}
      </Title>
      <TextInput placeholder="Search address or serial" aria-label="Search address or serial" value={query} onChange={(e) => setQuery(e.currentTarget.value)} />
      {found.length > 0 && (
        <Card withBorder p={0}>
          {found.map((f) => (
            <Button key={f.id} variant="subtle" fullWidth justify="flex-start" styles={WRAP} onClick={() => goTo(f.id)}>
              {f.meterInfo.propertyAddress} · {f.meterInfo.serial}
            </Button>
          ))}
        </Card>
      )}
      {query.trim() && found.length === 0 && <Text size="sm" c="dimmed">No reading matches.</Text>}
      <Group gap="xs">
        <Button variant="light" size="xs" onClick={() => setShowMap((s) => !s)}>
          {showMap ? 'Hide map' : 'Map'}
        </Button>
        {nearest && (
          <Button variant="light" size="xs" color="yellow" styles={WRAP} maw="100%" onClick={() => goTo(nearest.reading.id)}>
            Nearest unread ({Math.round(nearest.metres).toLocaleString('en-NZ')} m): {nearest.reading.meterInfo.propertyAddress}
          </Button>
        )}
      </Group>
      {showMap && (
        <Suspense fallback={<Loader size="sm" aria-label="Loading the map" />}>
          <ReaderMap style={mapStyle} readings={readings} states={states} position={position} nearestId={nearest?.reading.id} onPick={goTo} />
        </Suspense>
      )}
      <Card withBorder padding="md">
        <Group justify="space-between" align="flex-start" wrap="nowrap">
          <div>
            <Text size="xs" c="dimmed">
              {index + 1} of {readings.length} · sequence {r.sequence}
            </Text>
            <Title order={2} size="h4">
              {r.meterInfo.propertyAddress}
            </Title>
            <Text size="sm">{r.meterInfo.ownerName}</Text>
          </div>
          <Badge color={STATE_LABEL[state].color} style={{ flexShrink: 0 }}>{STATE_LABEL[state].label}</Badge>
        </Group>
        <Stack gap={2} mt="xs">
          <Text size="sm">
            Serial <b>{r.meterInfo.serial}</b>
          </Text>
          <Text size="sm">Location: {[r.meterInfo.location, r.meterInfo.additionalLocationInfo].filter(Boolean).join(' · ')}</Text>
          {r.reason && <Text size="sm">Reason: {r.reason}</Text>}
          <Text size="sm">Previous reading: {prev ? `${prev.value.toLocaleString('en-NZ')} (${dateText(prev.date)})` : 'none'}</Text>
        </Stack>
      </Card>
      {capture?.status === 'refused' && (
        <Alert color="red" title="The server refused this reading">
          {capture.refusal?.message} Your reading is kept on this device: {capture.body.cantReadCode ?? capture.body.value}.
        </Alert>
      )}
      {state === 'unread' && notMine ? (
        <Alert color="orange" title="This task is not assigned to you" data-testid="not-assigned">
          Readings of a task that is not assigned to you are refused, so none can be recorded here. Ask an admin of {downloaded.orgName} to assign the task to you, then dismiss the refused reading.
        </Alert>
      ) : state === 'unread' ? (
        formFor === r.id && (
          <Card withBorder padding="md">
            <RecordForm key={r.id} reading={r} position={position} now={now} onCapture={captureShown} />
          </Card>
        )
      ) : (
        capture && capture.status !== 'refused' && (
          <Text size="sm">
            Captured: {capture.body.cantReadCode ?? capture.body.value?.toLocaleString('en-NZ')} at {new Date(capture.body.recordedAt).toLocaleTimeString('en-NZ')}
          </Text>
        )
      )}
      <Group grow>
        <Button variant="default" disabled={index === 0} onClick={() => setIndex(index - 1)}>
          Previous
        </Button>
        <Button variant="default" disabled={index === readings.length - 1} onClick={() => setIndex(index + 1)}>
          Next
        </Button>
      </Group>
    </Stack>
  );
}
