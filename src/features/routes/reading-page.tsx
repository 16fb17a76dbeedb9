import { useCallback, useEffect, useState } from 'react';
import { ActionIcon, Alert, Anchor, Badge, Box, Breadcrumbs, Button, Center, Grid, Group, Image, Loader, Paper, SimpleGrid, Stack, Text, Title, Tooltip } from '@mantine/core';
import { IconPencil, IconPhotoOff, IconRefresh } from '@tabler/icons-react';
import { Link, Navigate, useParams } from 'react-router-dom';
import { readingStatus, type MeterReading, type MeterReadingAnswer, type RouteTask } from '../../contract/route.schema';
import { formatTime } from '../../domain/time-format';
import { useIsMobile } from '../../shared/layout';
import { EditReadingModal } from './edit-reading-modal';
import { exceptionLabel, startCase } from './route-format';
import { useRoutes } from './routes-context';
import { STATUS_COLOR, useTaskFromPath } from './task-detail-page';
import { useTaskReadings } from './use-routes-data';

/** One reading (organisation-and-routes 2.4): its details, the recording member, the photo, Edit. */
export function ReadingPage() {
  const { task, missing } = useTaskFromPath();
  const { base } = useRoutes();
  if (missing) return <Navigate to={base} replace />;
  if (!task)
    return (
      <Center h="50vh">
        <Loader aria-label="Loading the reading" />
      </Center>
    );
  return <ReadingOfTask listed={task} />;
}

function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Box>
      <Text size="xs" c="dimmed" fw={600} tt="uppercase">
        {label}
      </Text>
      <Text size="sm" component="div" style={{ wordBreak: 'break-word' }}>
        {children === '' || children === null || children === undefined ? '-' : children}
      </Text>
    </Box>
  );
}

function Photo({ reading }: { reading: MeterReading }) {
  const { api } = useRoutes();
  const [state, setState] = useState<{ url: string | null; failed: boolean }>({ url: null, failed: false });
  useEffect(() => {
    if (!reading.photoUrl) return;
    const abort = new AbortController();
    let url: string | null = null;
    api.photo(reading.photoUrl, abort.signal).then(
      (u) => {
        url = u;
        setState({ url: u, failed: false });
      },
      () => !abort.signal.aborted && setState({ url: null, failed: true }),
    );
    return () => {
      abort.abort();
      if (url) URL.revokeObjectURL(url);
    };
  }, [api, reading.photoUrl]);
  if (!reading.photoUrl || state.failed)
    return (
      <Center h={220} bg="var(--tw-muted-bg)" style={{ borderRadius: 8 }}>
        <Stack align="center" gap={4}>
          <IconPhotoOff size={28} color="var(--mantine-color-gray-7)" aria-hidden />
          <Text size="sm" c="dimmed">
            {state.failed ? 'The photo could not be loaded.' : 'No photo was taken.'}
          </Text>
        </Stack>
      </Center>
    );
  if (!state.url)
    return (
      <Center h={220}>
        <Loader size="sm" aria-label="Loading the photo" />
      </Center>
    );
  return <Image src={state.url} alt={`Meter at ${startCase(reading.meterInfo.propertyAddress)}`} radius="md" mah={420} fit="contain" />;
}

function ReadingOfTask({ listed }: { listed: RouteTask }) {
  const { api, base, manager, timeDisplay, timeZone, replaceTasks } = useRoutes();
  const { readingId } = useParams();
  const mobile = useIsMobile();
  const readings = useTaskReadings(api, listed.id);
  const [editing, setEditing] = useState(false);
  const onSaved = useCallback(
    (a: MeterReadingAnswer) => {
      readings.replaceReading(a.reading, a.task);
      replaceTasks([a.task]);
    },
    [readings, replaceTasks],
  );
  const closeEdit = useCallback(() => setEditing(false), []);
  if (readings.state.status === 'loading')
    return (
      <Center h="50vh">
        <Loader aria-label="Loading the reading" />
      </Center>
    );
  if (readings.state.status === 'error')
    return (
      <Alert color="red" m="lg" title="The reading could not be loaded">
        {readings.state.message}
      </Alert>
    );
  const { task } = readings.state.data;
  const reading = readings.state.data.readings.find((r) => r.id === readingId);
  const taskHref = `${base}/${task.taskNumber}`;
  if (!reading) return <Navigate to={taskHref} replace />;
  const status = readingStatus(reading);
  const when = (t: number | null) => (t === null ? '' : formatTime(t, timeDisplay, timeZone, true));
  const editBlocked = task.exported ? 'The task has been exported' : !reading.completed ? 'The reading is not completed' : null;
  const address = startCase(reading.meterInfo.propertyAddress);
  const m = reading.meterInfo;

  return (
    <Stack gap="md" p={mobile ? 'sm' : 'lg'} maw={1200} mx="auto">
      <Breadcrumbs component="nav" aria-label="Breadcrumb">
        <Anchor component={Link} to={base}>
          Routes
        </Anchor>
        <Anchor component={Link} to={taskHref}>
          {task.taskNumber}
        </Anchor>
        <Text aria-current="page">{address}</Text>
      </Breadcrumbs>
      <Group justify="space-between" align="flex-end" gap="sm">
        <Box>
          <Title order={1} fz={mobile ? 22 : 26}>
            {address}
          </Title>
          <Group gap="xs" mt={4}>
            <Badge color={STATUS_COLOR[status]} variant="light">
              {status}
            </Badge>
            {reading.completed && <Badge variant="outline" color={reading.exception && reading.exception !== 'NoError' ? 'orange' : 'teal'}>{exceptionLabel(reading.exception)}</Badge>}
            {reading.edited && <Badge variant="outline" color="grape">Edited</Badge>}
            <Text size="sm" c="dimmed">
              #{reading.sequence} of task {task.taskNumber} · {task.routeName}
            </Text>
          </Group>
        </Box>
        <Group gap="xs">
          <Tooltip label="Refresh">
            <ActionIcon variant="default" size="lg" aria-label="Refresh reading" onClick={() => void readings.refresh().catch(() => {})} loading={readings.state.updating}>
              <IconRefresh size={18} />
            </ActionIcon>
          </Tooltip>
          {manager && (
            <Tooltip label={editBlocked} disabled={!editBlocked}>
              <Button leftSection={<IconPencil size={16} />} disabled={!!editBlocked} onClick={() => setEditing(true)}>
                Edit
              </Button>
            </Tooltip>
          )}
        </Group>
      </Group>
      <Grid gap="md">
        <Grid.Col span={{ base: 12, md: 7 }}>
          <Stack gap="md">
            <Paper withBorder radius="md" p="md" component="section" aria-labelledby="reading-heading">
              <Title order={2} size="h4" id="reading-heading" mb="sm">
                Reading
              </Title>
              <SimpleGrid cols={{ base: 1, xs: 2, sm: 3 }} spacing="md">
                <Field label="Reading">{reading.value === null || reading.value === -1 ? '' : String(reading.value)}</Field>
                <Field label="Previous reading">{reading.lastRecordedReading ?? reading.importedPrevReading?.value ?? ''}</Field>
                <Field label="Previous read date">{reading.importedPrevReading ? formatTime(reading.importedPrevReading.date, timeDisplay, timeZone).split(',')[0] : ''}</Field>
                <Field label="Can't Read Code">{reading.cantReadCode ?? ''}</Field>
                <Field label="Comment Code">{reading.commentCode ?? ''}</Field>
                <Field label="Service Required">{reading.serviceRequired ? 'Yes' : 'No'}</Field>
                <Field label="Recorded By">{reading.recorderName ?? ''}</Field>
                <Field label="Recorded Time">{when(reading.recordedAt)}</Field>
                <Field label="Position">{reading.position ? `${reading.position.latitude.toFixed(5)}, ${reading.position.longitude.toFixed(5)}` : ''}</Field>
              </SimpleGrid>
              <Box mt="md">
                <Field label="Notes">{reading.notes ?? ''}</Field>
              </Box>
            </Paper>
            <Paper withBorder radius="md" p="md" component="section" aria-labelledby="property-heading">
              <Title order={2} size="h4" id="property-heading" mb="sm">
                Property and meter
              </Title>
              <SimpleGrid cols={{ base: 1, xs: 2, sm: 3 }} spacing="md">
                <Field label="Address">{address}</Field>
                <Field label="Owner">{m.ownerName}</Field>
                <Field label="Valuation Ref">{m.valuationRef}</Field>
                <Field label="Serial">{m.serial}</Field>
                <Field label="Ozone Reference">{reading.ozoneReference ?? ''}</Field>
                <Field label="Location">{m.location}</Field>
                <Field label="Additional Location Info">{m.additionalLocationInfo}</Field>
                {reading.reason !== null && <Field label="Reason">{reading.reason}</Field>}
              </SimpleGrid>
            </Paper>
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 5 }}>
          <Paper withBorder radius="md" p="md" component="section" aria-labelledby="photo-heading">
            <Title order={2} size="h4" id="photo-heading" mb="sm">
              Photo
            </Title>
            <Photo reading={reading} />
          </Paper>
        </Grid.Col>
      </Grid>
      {editing && <EditReadingModal task={task} reading={reading} onClose={closeEdit} onSaved={onSaved} />}
    </Stack>
  );
}
