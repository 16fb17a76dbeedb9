import { useEffect, useMemo, useRef, useState } from 'react';
import { ActionIcon, Alert, Anchor, Badge, Box, Breadcrumbs, Button, Center, Checkbox, Group, Loader, Modal, MultiSelect, Pagination, Paper, Select, Stack, Text, TextInput, Title, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconDownload, IconFileSpreadsheet, IconPlus, IconRefresh } from '@tabler/icons-react';
import { type ColumnDef, type RowSelectionState, type SortingState } from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import { Link, Navigate, useParams } from 'react-router-dom';
import { CANT_READ_CODES, COMMENT_CODES, EXCEPTIONS, ROUTE_MESSAGES, readingStatus, type MeterReading, type ReadingStatus, type RouteTask } from '../../contract/route.schema';
import { formatTime } from '../../domain/time-format';
import { useIsMobile } from '../../shared/layout';
import { FilterPanel } from './filter-panel';
import { importMessage } from './import-modal';
import { download } from './route-files';
import { SelectionBar, SortButton, ariaSort, useRouteTable } from './route-table';
import { ALREADY_EXPORTED_ONE, EXCEPTION_LABELS, READING_PAGE_SIZE, exceptionLabel, isCompleted, startCase } from './route-format';
import { ProgressCell } from './route-tasks-page';
import { useRoutes } from './routes-context';
import classes from './routes.module.css';
import { ConfirmActionModal, ExportOptionsModal } from './task-dialogs';
import { useExportCooldown, useExporter } from './use-exporter';
import { usePersisted, useTaskReadings } from './use-routes-data';

export const STATUS_COLOR: Record<ReadingStatus, string> = { Complete: 'teal', 'Not Read': 'orange', Waiting: 'gray' };
const NONE = '__none__';

interface ReadingFilters {
  status: string[];
  exception: string[];
  cantRead: string[];
  comment: string[];
  service: string | null;
  edited: string | null;
  recordedBy: string[];
}
const NO_FILTERS: ReadingFilters = { status: [], exception: [], cantRead: [], comment: [], service: null, edited: null, recordedBy: [] };
const validFilters = (v: unknown): v is ReadingFilters => !!v && typeof v === 'object' && Array.isArray((v as ReadingFilters).status);

function readingMatches(r: MeterReading, f: ReadingFilters) {
  const any = (list: string[], v: string) => list.length === 0 || list.includes(v);
  return (
    any(f.status, readingStatus(r)) &&
    any(f.exception, r.exception ?? 'NoError') &&
    any(f.cantRead, r.cantReadCode ?? NONE) &&
    any(f.comment, r.commentCode ?? NONE) &&
    (f.service === null || (f.service === 'yes') === r.serviceRequired) &&
    (f.edited === null || (f.edited === 'edited') === r.edited) &&
    any(f.recordedBy, r.recordedBy ?? NONE)
  );
}

/** Resolves the path's task number against the task list; unknown numbers go back to the list. */
export function useTaskFromPath(): { task: RouteTask | null; missing: boolean } {
  const { tasks } = useRoutes();
  const { taskNumber } = useParams();
  if (tasks.status !== 'ready') return { task: null, missing: tasks.status === 'error' };
  const task = tasks.data.find((t) => String(t.taskNumber) === taskNumber) ?? null;
  return { task, missing: !task };
}

/** The readings' columns after the selection box, in order (section 2.4). */
const HEADERS = [
  ['sequence', '#'],
  ['address', 'Address'],
  ['owner', 'Owner'],
  ['status', 'Status'],
  ['exception', 'Exception'],
  ['cantRead', 'Cant Read Code'],
  ['comment', 'Comment Code'],
  ['service', 'Service Required'],
  ['edited', 'Edited'],
  ['recordedBy', 'Recorded By'],
  ['recordedAt', 'Recorded Time'],
  ['notes', 'Notes'],
] as const;
const WIDTHS = { select: 44, sequence: 70, address: 280, owner: 220, status: 110, exception: 180, cantRead: 165, comment: 170, service: 140, edited: 90, recordedBy: 180, recordedAt: 200, notes: 361 };

/** A task's readings (organisation-and-routes 2.4): 1000 a page, virtualised, scroll restored on return. */
export function TaskDetailPage() {
  const { task: listed, missing } = useTaskFromPath();
  const { base } = useRoutes();
  if (missing) return <Navigate to={base} replace />;
  if (!listed)
    return (
      <Center h="50vh">
        <Loader aria-label="Loading the task" />
      </Center>
    );
  return <TaskReadings listed={listed} />;
}

function TaskReadings({ listed }: { listed: RouteTask }) {
  const { api, files, base, manager, timeDisplay, timeZone, replaceTasks } = useRoutes();
  const mobile = useIsMobile();
  const readings = useTaskReadings(api, listed.id);
  const task = readings.state.status === 'ready' ? readings.state.data.task : listed;
  const all = useMemo(() => (readings.state.status === 'ready' ? readings.state.data.readings : []), [readings.state]);
  const [filters, setFilters] = usePersisted<ReadingFilters>(`tidewatch.readings.filters.${listed.id}`, NO_FILTERS, validFilters, 'session');
  const [sorting, setSorting] = usePersisted<SortingState>(`tidewatch.readings.sort.${listed.id}`, [{ id: 'sequence', desc: false }], (v): v is SortingState => Array.isArray(v), 'session');
  const [rowSelection, setRowSelection] = useState<RowSelectionState>({});
  const [pagination, setPagination] = useState({ pageIndex: 0, pageSize: READING_PAGE_SIZE });
  const [exportCooling, startExportCooldown] = useExportCooldown();
  const [dialog, setDialog] = useState<'reexport' | 'export' | 'create' | null>(null);
  const exporter = useExporter();
  const shown = useMemo(() => all.filter((r) => readingMatches(r, filters)), [all, filters]);
  const recorders = useMemo(() => {
    const m = new Map<string, string>();
    for (const r of all) if (r.recordedBy) m.set(r.recordedBy, r.recorderName ?? r.recordedBy);
    return [{ value: NONE, label: 'Nobody yet' }, ...[...m].map(([value, label]) => ({ value, label }))];
  }, [all]);
  const when = (t: number | null) => (t === null ? '' : formatTime(t, timeDisplay, timeZone, true));
  const setFilter = <K extends keyof ReadingFilters>(k: K, v: ReadingFilters[K]) => {
    setFilters((f) => ({ ...f, [k]: v }));
    setPagination((p) => ({ ...p, pageIndex: 0 }));
  };

  const columns = useMemo<ColumnDef<MeterReading>[]>(
    () => [
      { id: 'sequence', accessorKey: 'sequence', header: '#' },
      { id: 'address', accessorFn: (r) => r.meterInfo.propertyAddress, header: 'Address' },
      { id: 'owner', accessorFn: (r) => r.meterInfo.ownerName, header: 'Owner' },
      { id: 'status', accessorFn: (r) => readingStatus(r), header: 'Status' },
      { id: 'exception', accessorFn: (r) => exceptionLabel(r.exception), header: 'Exception' },
      { id: 'cantRead', accessorFn: (r) => r.cantReadCode ?? '', header: 'Cant Read Code' },
      { id: 'comment', accessorFn: (r) => r.commentCode ?? '', header: 'Comment Code' },
      { id: 'service', accessorFn: (r) => (r.serviceRequired ? 'Yes' : 'No'), header: 'Service Required' },
      { id: 'edited', accessorFn: (r) => (r.edited ? 'Yes' : 'No'), header: 'Edited' },
      { id: 'recordedBy', accessorFn: (r) => r.recorderName ?? '', header: 'Recorded By' },
      { id: 'recordedAt', accessorFn: (r) => r.recordedAt ?? 0, header: 'Recorded Time' },
      { id: 'notes', accessorFn: (r) => r.notes ?? '', header: 'Notes', enableSorting: false },
    ],
    [],
  );
  const table = useRouteTable({ data: shown, columns, getRowId: (r) => r.id, sorting: [sorting, setSorting], selection: [rowSelection, setRowSelection], paging: [pagination, setPagination] });
  const rows = table.getRowModel().rows;

  // the readings scroll inside their own box: virtualised, and its position is restored on return
  const scroller = useRef<HTMLDivElement>(null);
  const virtual = useVirtualizer({ count: rows.length, getScrollElement: () => scroller.current, estimateSize: () => 37, overscan: 12 });
  const scrollKey = `tidewatch.readings.scroll.${listed.id}`;
  const restored = useRef(false);
  useEffect(() => {
    if (restored.current || readings.state.status !== 'ready' || !scroller.current) return;
    restored.current = true;
    const saved = Number(sessionStorage.getItem(scrollKey) ?? 0);
    if (saved > 0) requestAnimationFrame(() => scroller.current?.scrollTo({ top: saved }));
  }, [readings.state.status, scrollKey]);
  const onScroll = () => sessionStorage.setItem(scrollKey, String(scroller.current?.scrollTop ?? 0));

  const selected = all.filter((r) => rowSelection[r.id]);
  const completed = isCompleted(task);
  const exportDisabled = !completed || exportCooling || exporter.busy || readings.state.status !== 'ready';
  const readingHref = (r: MeterReading) => `${base}/${task.taskNumber}/reading/${r.id}`;
  const allOnPage = rows.length > 0 && rows.every((r) => r.getIsSelected());
  const someOnPage = rows.some((r) => r.getIsSelected());

  const clickExport = () => {
    startExportCooldown();
    setDialog(task.exported ? 'reexport' : 'export');
  };

  const header = (id: string, label: string, width: number) => {
    const col = table.getColumn(id)!;
    return (
      <div key={id} role="columnheader" className={classes.readingCell} style={{ width }} aria-sort={ariaSort(col)}>
        {col.getCanSort() ? (
          <SortButton column={col} className={classes.sortButton}>
            {label}
          </SortButton>
        ) : (
          label
        )}
      </div>
    );
  };
  const totalWidth = Object.values(WIDTHS).reduce((a, b) => a + b, 0);

  return (
    <Stack gap="md" p={mobile ? 'sm' : 'lg'} maw={1600} mx="auto">
      <Breadcrumbs component="nav" aria-label="Breadcrumb">
        <Anchor component={Link} to={base}>
          Routes
        </Anchor>
        <Text aria-current="page">{task.taskNumber}</Text>
      </Breadcrumbs>
      <Group justify="space-between" align="flex-end" gap="sm">
        <Box>
          <Title order={1} fz={mobile ? 22 : 26}>
            Task {task.taskNumber} · {task.routeName}
          </Title>
          <Group gap="md" mt={4}>
            <ProgressCell task={task} />
            <Text size="sm" c="dimmed">
              {task.completedReadings} of {task.totalReadings} read · {task.totalExceptions} exceptions
              {task.assignedTo ? ` · assigned to ${task.assignedTo.name || task.assignedTo.email}` : ' · unassigned'}
              {task.group ? ` · group ${task.group}` : ''}
            </Text>
          </Group>
        </Box>
        <Group gap="xs">
          <Tooltip label="Refresh">
            <ActionIcon variant="default" size="lg" aria-label="Refresh readings" onClick={() => void readings.refresh().catch(() => {})} loading={readings.state.status === 'ready' && readings.state.updating}>
              <IconRefresh size={18} />
            </ActionIcon>
          </Tooltip>
          {manager && (
            <Button leftSection={<IconDownload size={16} />} disabled={exportDisabled} onClick={clickExport} title={completed ? undefined : 'The task is not completed yet'}>
              Export
            </Button>
          )}
          {/* To CSV is for admins and owners (the roles table); members have no selection to act on (issue 36 item 25) */}
          {manager && (
            <Button
              variant="default"
              leftSection={<IconFileSpreadsheet size={16} />}
              disabled={selected.length === 0}
              onClick={() =>
                files.selectionCsv(task, selected, timeZone).then(download, () => notifications.show({ closeButtonProps: { 'aria-label': 'Dismiss' }, color: 'red', message: ROUTE_MESSAGES.CSV_FAILED, autoClose: 6000 }))
              }
            >
              To CSV
            </Button>
          )}
          {manager && (
            <Button variant="default" leftSection={<IconPlus size={16} />} disabled={selected.length === 0} onClick={() => setDialog('create')}>
              Create Task
            </Button>
          )}
        </Group>
      </Group>

      <FilterPanel mobile={!!mobile} active={[filters.status, filters.exception, filters.cantRead, filters.comment, filters.recordedBy].filter((l) => l.length).length + [filters.service, filters.edited].filter((v) => v !== null).length}>
          <MultiSelect size="xs" label="Status" placeholder={filters.status.length ? undefined : 'Any'} data={['Complete', 'Not Read', 'Waiting']} value={filters.status} onChange={(v) => setFilter('status', v)} clearable />
          <MultiSelect size="xs" label="Exception" placeholder={filters.exception.length ? undefined : 'Any'} data={EXCEPTIONS.map((e) => ({ value: e, label: EXCEPTION_LABELS[e] }))} value={filters.exception} onChange={(v) => setFilter('exception', v)} clearable />
          <MultiSelect size="xs" label="Cant Read Code" placeholder={filters.cantRead.length ? undefined : 'Any'} data={[{ value: NONE, label: 'None' }, ...CANT_READ_CODES.map((c) => ({ value: c, label: c }))]} value={filters.cantRead} onChange={(v) => setFilter('cantRead', v)} clearable />
          <MultiSelect size="xs" label="Comment Code" placeholder={filters.comment.length ? undefined : 'Any'} data={[{ value: NONE, label: 'None' }, ...COMMENT_CODES.map((c) => ({ value: c, label: c }))]} value={filters.comment} onChange={(v) => setFilter('comment', v)} clearable />
          <Select size="xs" label="Service Required" placeholder="Any" data={[{ value: 'yes', label: 'Yes' }, { value: 'no', label: 'No' }]} value={filters.service} onChange={(v) => setFilter('service', v)} clearable />
          <Select size="xs" label="Edited" placeholder="Any" data={[{ value: 'edited', label: 'Edited' }, { value: 'not', label: 'Not Edited' }]} value={filters.edited} onChange={(v) => setFilter('edited', v)} clearable />
          <MultiSelect size="xs" label="Recorded By" placeholder={filters.recordedBy.length ? undefined : 'Anyone'} data={recorders} value={filters.recordedBy} onChange={(v) => setFilter('recordedBy', v)} clearable />
      </FilterPanel>

      <Paper withBorder radius="md">
        <SelectionBar count={selected.length}>
          <Text size="sm" c="dimmed">
            {shown.length} of {all.length} readings
          </Text>
        </SelectionBar>
        {readings.state.status === 'loading' && (
          <Center py="xl">
            <Loader aria-label="Loading readings" />
          </Center>
        )}
        {readings.state.status === 'error' && (
          <Alert color="red" m="sm" title="Readings could not be loaded">
            {readings.state.message}
          </Alert>
        )}
        {readings.state.status === 'ready' && (
          <div ref={scroller} className={classes.readingScroll} onScroll={onScroll} data-testid="readings-scroll">
            <div role="table" aria-label="Readings" aria-rowcount={rows.length + 1} className={classes.readingTable} style={{ width: totalWidth, minWidth: '100%' }}>
              <div role="rowgroup" className={classes.readingHead}>
                <div role="row" className={classes.readingRow} style={{ borderBottom: 0 }}>
                  <div role="columnheader" className={classes.readingCell} style={{ width: WIDTHS.select }}>
                    {manager && <Checkbox aria-label="Select all readings on this page" checked={allOnPage} indeterminate={someOnPage && !allOnPage} onChange={() => table.toggleAllPageRowsSelected(!allOnPage)} />}
                  </div>
                  {HEADERS.map(([id, label]) => header(id, label, WIDTHS[id]))}
                </div>
              </div>
              <div role="rowgroup" style={{ height: virtual.getTotalSize(), position: 'relative' }}>
                {rows.length === 0 && (
                  <Text c="dimmed" p="lg" ta="center" style={{ position: 'sticky', left: 0 }} w="min(100%, 90vw)">
                    {all.length === 0 ? 'This task has no readings.' : 'No reading matches the filters.'}
                  </Text>
                )}
                {virtual.getVirtualItems().map((v) => {
                  const row = rows[v.index];
                  const r = row.original;
                  const status = readingStatus(r);
                  return (
                    <div
                      key={row.id}
                      role="row"
                      aria-rowindex={v.index + 2}
                      data-selected={row.getIsSelected() || undefined}
                      className={`${classes.readingRow} ${classes.readingBodyRow}`}
                      style={{ position: 'absolute', top: 0, left: 0, width: '100%', height: v.size, transform: `translateY(${v.start}px)` }}
                    >
                      <div role="cell" className={classes.readingCell} style={{ width: WIDTHS.select }}>
                        {manager && <Checkbox aria-label={`Select reading ${r.sequence}`} checked={row.getIsSelected()} onChange={row.getToggleSelectedHandler()} />}
                      </div>
                      <div role="cell" className={classes.readingCell} style={{ width: WIDTHS.sequence }}>
                        {r.sequence}
                      </div>
                      <div role="cell" className={classes.readingCell} style={{ width: WIDTHS.address }}>
                        <Anchor component={Link} to={readingHref(r)} size="sm" fw={500}>
                          {startCase(r.meterInfo.propertyAddress)}
                        </Anchor>
                      </div>
                      <div role="cell" className={classes.readingCell} style={{ width: WIDTHS.owner }} title={r.meterInfo.ownerName}>
                        {r.meterInfo.ownerName}
                      </div>
                      <div role="cell" className={classes.readingCell} style={{ width: WIDTHS.status }}>
                        <Badge size="sm" variant="light" color={STATUS_COLOR[status]}>
                          {status}
                        </Badge>
                      </div>
                      <div role="cell" className={classes.readingCell} style={{ width: WIDTHS.exception }}>
                        {r.completed ? exceptionLabel(r.exception) : ''}
                      </div>
                      <div role="cell" className={classes.readingCell} style={{ width: WIDTHS.cantRead }}>
                        {r.cantReadCode ?? ''}
                      </div>
                      <div role="cell" className={classes.readingCell} style={{ width: WIDTHS.comment }}>
                        {r.commentCode ?? ''}
                      </div>
                      <div role="cell" className={classes.readingCell} style={{ width: WIDTHS.service }}>
                        {r.serviceRequired ? 'Yes' : 'No'}
                      </div>
                      <div role="cell" className={classes.readingCell} style={{ width: WIDTHS.edited }}>
                        {r.edited ? 'Yes' : 'No'}
                      </div>
                      <div role="cell" className={classes.readingCell} style={{ width: WIDTHS.recordedBy }}>
                        {r.recorderName ?? ''}
                      </div>
                      <div role="cell" className={classes.readingCell} style={{ width: WIDTHS.recordedAt }}>
                        {when(r.recordedAt)}
                      </div>
                      <div role="cell" className={classes.readingCell} style={{ width: WIDTHS.notes }} title={r.notes ?? undefined}>
                        {r.notes ?? ''}
                      </div>
                    </div>
                  );
                })}
              </div>
            </div>
          </div>
        )}
        {table.getPageCount() > 1 && (
          <Group justify="center" py="sm">
            <Pagination total={table.getPageCount()} value={pagination.pageIndex + 1} onChange={(p) => table.setPageIndex(p - 1)} size="sm" />
          </Group>
        )}
      </Paper>

      {dialog === 'reexport' && <ConfirmActionModal opened message={ALREADY_EXPORTED_ONE} onNo={() => setDialog(null)} onYes={() => setDialog('export')} />}
      {dialog === 'export' && (
        <ExportOptionsModal
          title={`Export task ${task.taskNumber}`}
          busy={exporter.busy}
          onClose={() => setDialog(null)}
          onExport={(mode) =>
            void exporter.exportTasks([task], mode, all).then((ok) => {
              if (!ok) return;
              setDialog(null);
              void readings.refresh().catch(() => {});
            })
          }
        />
      )}
      {dialog === 'create' && (
        <CreateTaskModal
          readings={selected}
          onClose={() => setDialog(null)}
          onCreated={(t) => {
            setRowSelection({});
            replaceTasks([t]);
          }}
        />
      )}
    </Stack>
  );
}

/** Create Task: a special route from the selected readings; the reason is the notes, else "Unknown". */
function CreateTaskModal({ readings, onClose, onCreated }: { readings: MeterReading[]; onClose(): void; onCreated(t: RouteTask): void }) {
  const { api, refreshTasks } = useRoutes();
  const [group, setGroup] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return (
    <Modal closeButtonProps={{ 'aria-label': 'Close' }} opened onClose={onClose} title="Create Task" centered>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          setBusy(true);
          setError(null);
          api
            .createSpecial({ group: group.trim(), readings: readings.map((r) => ({ id: r.id, reason: r.notes?.trim() || 'Unknown' })) })
            .then((t) => {
              onCreated(t);
              notifications.show({ closeButtonProps: { 'aria-label': 'Dismiss' }, color: 'teal', message: ROUTE_MESSAGES.SPECIAL_ROUTE_SUCCESS, autoClose: 4000 });
              void refreshTasks().catch(() => {});
              onClose();
            })
            .catch((err: unknown) => setError(importMessage(err, true)))
            .finally(() => setBusy(false));
        }}
      >
        <Stack>
          <Text size="sm">
            A special route of the {readings.length} selected meter{readings.length === 1 ? '' : 's'}. Each meter's reason is its notes, or Unknown.
          </Text>
          <TextInput label="Group" value={group} onChange={(e) => setGroup(e.currentTarget.value)} maxLength={200} data-autofocus />
          {error && <Alert color="red">{error}</Alert>}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} disabled={busy}>
              Cancel
            </Button>
            <Button type="submit" loading={busy}>
              Create Task
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
