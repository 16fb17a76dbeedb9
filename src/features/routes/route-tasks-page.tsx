import { useMemo, useState } from 'react';
import { ActionIcon, Alert, Anchor, Badge, Box, Button, Center, Checkbox, Group, Loader, MultiSelect, Pagination, Paper, Progress, Stack, Table, Text, TextInput, Title, Tooltip } from '@mantine/core';
import { IconClock, IconDownload, IconFileImport, IconFileSpreadsheet, IconPencil, IconRefresh, IconTrash, IconUserPlus } from '@tabler/icons-react';
import { flexRender, type ColumnDef, type RowSelectionState, type SortingState } from '@tanstack/react-table';
import { Link } from 'react-router-dom';
import { ROUTE_TYPE_LABELS, ROUTE_TYPES, type RouteProgress, type RouteTask } from '../../contract/route.schema';
import { formatTime } from '../../domain/time-format';
import { useIsMobile } from '../../shared/layout';
import { FilterPanel } from './filter-panel';
import { ImportModal } from './import-modal';
import { SelectionBar, SortButton, ariaSort, useRouteTable } from './route-table';
import {
  ALREADY_EXPORTED_ONE,
  ALREADY_EXPORTED_SOME,
  DEFAULT_TASK_FILTERS,
  PROGRESS_STATES,
  TASK_PAGE_SIZE,
  TASK_TABLE_WIDTH,
  UNASSIGNED,
  hoursMinutes,
  isCompleted,
  isDeletable,
  isOngoing,
  progressPercent,
  routeProgress,
  taskMatches,
  timeTakenMs,
  type TaskFilters,
} from './route-format';
import { useRoutes } from './routes-context';
import classes from './routes.module.css';
import { AssignModal, ClassificationModal, ConfirmActionModal, ExportOptionsModal, GroupModal, SuburbModal } from './task-dialogs';
import { usePersisted } from './use-routes-data';
import { useExportCooldown, useExporter } from './use-exporter';
import { ScrollCue } from '../../shared/scroll-cue';

const PROGRESS_COLOR: Record<RouteProgress, string> = { Exported: 'gray', Complete: 'teal', Active: 'blue', Waiting: 'yellow' };

export function ProgressCell({ task }: { task: RouteTask }) {
  const p = routeProgress(task);
  const pct = progressPercent(task.completedReadings, task.totalReadings);
  return (
    <Group gap={8} wrap="nowrap">
      <Badge color={PROGRESS_COLOR[p]} variant={p === "Exported" ? "outline" : "light"} miw={96}>
        {p}
      </Badge>
      {p === 'Active' && (
        <Group gap={6} wrap="nowrap">
          <Progress value={pct} w={60} size="sm" aria-hidden />
          <Text size="xs" fw={600}>
            {pct}%
          </Text>
        </Group>
      )}
    </Group>
  );
}

export function TimeTakenCell({ task, now }: { task: RouteTask; now: number }) {
  const ms = timeTakenMs(task, now);
  if (ms === null) return <Text size="sm" c="dimmed">-</Text>;
  return (
    <Group gap={4} wrap="nowrap">
      {isOngoing(task) && <IconClock size={14} aria-label="Ongoing" />}
      <span>{hoursMinutes(ms)}</span>
    </Group>
  );
}

type Dialog =
  | { kind: 'import' }
  | { kind: 'assign'; tasks: RouteTask[] }
  | { kind: 'group'; task: RouteTask }
  | { kind: 'suburb'; task: RouteTask }
  | { kind: 'classification'; task: RouteTask }
  | { kind: 'delete'; tasks: RouteTask[] }
  | { kind: 'export'; tasks: RouteTask[] }
  | { kind: 'reexport'; tasks: RouteTask[] }
  | { kind: 'csv'; tasks: RouteTask[] }
  | null;

const validSorting = (v: unknown): v is SortingState => Array.isArray(v) && v.every((s) => s && typeof s.id === 'string' && typeof s.desc === 'boolean');
const validFilters = (v: unknown): v is TaskFilters => !!v && typeof v === 'object' && Array.isArray((v as TaskFilters).progress) && typeof (v as TaskFilters).taskNumber === 'string';

/** 'Meter Reading Route Tasks' (organisation-and-routes 2.4). */
export function RouteTasksPage() {
  const { tasks, refreshTasks, manager, base, orgId, timeDisplay, timeZone, api } = useRoutes();
  const mobile = useIsMobile();
  const [sorting, setSorting] = usePersisted<SortingState>(`tidewatch.routeTasks.sort.${orgId}`, [{ id: 'taskNumber', desc: true }], validSorting);
  const [filters, setFilters] = usePersisted<TaskFilters>(`tidewatch.routeTasks.filters.${orgId}`, DEFAULT_TASK_FILTERS, validFilters);
  const [rowSelection, setRowSelection] = useState<RowSelectionState>({});
  const [pagination, setPagination] = useState({ pageIndex: 0, pageSize: TASK_PAGE_SIZE });
  const [dialog, setDialog] = useState<Dialog>(null);
  const [deleting, setDeleting] = useState(false);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const exporter = useExporter();
  const [exportCooling, startExportCooldown] = useExportCooldown();

  const all = useMemo(() => (tasks.status === 'ready' ? tasks.data : []), [tasks]);
  const shown = useMemo(() => all.filter((t) => taskMatches(t, filters)), [all, filters]);
  const assignees = useMemo(() => {
    const seen = new Map<string, string>();
    for (const t of all) if (t.assignedTo) seen.set(t.assignedTo.cognitoIdentityId, t.assignedTo.name || t.assignedTo.email);
    return [{ value: UNASSIGNED, label: 'Unassigned' }, ...[...seen].map(([value, label]) => ({ value, label })).sort((a, b) => a.label.localeCompare(b.label))];
  }, [all]);
  const setFilter = <K extends keyof TaskFilters>(k: K, v: TaskFilters[K]) => {
    setFilters((f) => ({ ...f, [k]: v }));
    setPagination((p) => ({ ...p, pageIndex: 0 }));
  };
  const when = (t: number | null) => (t === null ? '' : formatTime(t, timeDisplay, timeZone));

  const columns = useMemo<ColumnDef<RouteTask>[]>(() => {
    const editCell = (text: string, label: string, onEdit: () => void) => (
      <div className={classes.editCell}>
        <span>{text}</span>
        {manager && (
          <ActionIcon className={classes.editButton} size="sm" variant="subtle" aria-label={label} onClick={onEdit}>
            <IconPencil size={14} />
          </ActionIcon>
        )}
      </div>
    );
    const cols: ColumnDef<RouteTask>[] = [
      {
        id: 'taskNumber',
        accessorKey: 'taskNumber',
        header: 'Task No.',
        cell: ({ row }) => (
          <Anchor component={Link} to={`${base}/${row.original.taskNumber}`} fw={600}>
            {row.original.taskNumber}
          </Anchor>
        ),
      },
      { id: 'routeName', accessorKey: 'routeName', header: 'Route' },
      { id: 'group', accessorFn: (t) => t.group ?? '', header: 'Group', cell: ({ row }) => editCell(row.original.group ?? '', `Edit group of task ${row.original.taskNumber}`, () => setDialog({ kind: 'group', task: row.original })) },
      { id: 'suburb', accessorFn: (t) => t.suburb ?? '', header: 'Suburb' },
      { id: 'type', accessorFn: (t) => (t.type ? ROUTE_TYPE_LABELS[t.type] : ''), header: 'Classification' },
      {
        id: 'assignedTo',
        accessorFn: (t) => t.assignedTo?.name ?? '',
        header: 'Assigned To',
        cell: ({ row }) =>
          editCell(row.original.assignedTo ? row.original.assignedTo.name || row.original.assignedTo.email : 'Unassigned', `Edit assignee of task ${row.original.taskNumber}`, () => setDialog({ kind: 'assign', tasks: [row.original] })),
      },
      { id: 'progress', accessorFn: (t) => PROGRESS_STATES.indexOf(routeProgress(t)) * 1000 - progressPercent(t.completedReadings, t.totalReadings), header: 'Progress', cell: ({ row }) => <ProgressCell task={row.original} /> },
      { id: 'completedReadings', accessorKey: 'completedReadings', header: 'Completed Readings' },
      { id: 'totalReadings', accessorKey: 'totalReadings', header: 'Total Readings' },
      { id: 'totalExceptions', accessorKey: 'totalExceptions', header: 'Total Exceptions' },
      { id: 'timeTaken', accessorFn: (t) => timeTakenMs(t, Date.now()) ?? -1, header: 'Time taken', cell: ({ row }) => <TimeTakenCell task={row.original} now={Date.now()} /> },
      { id: 'startedAt', accessorFn: (t) => t.startedAt ?? 0, header: 'Start Time', cell: ({ row }) => when(row.original.startedAt) },
      { id: 'completedAt', accessorFn: (t) => t.completedAt ?? 0, header: 'Completion Time', cell: ({ row }) => when(row.original.completedAt) },
    ];
    if (manager)
      cols.push({
        id: 'actions',
        header: 'Actions',
        enableSorting: false,
        cell: ({ row }) => (
          <Group gap={6} wrap="nowrap">
            <Button size="compact-xs" variant="light" onClick={() => setDialog({ kind: 'suburb', task: row.original })} aria-label={`Change Suburb of task ${row.original.taskNumber}`}>
              Change Suburb
            </Button>
            <Button size="compact-xs" variant="light" onClick={() => setDialog({ kind: 'classification', task: row.original })} aria-label={`Change Classification of task ${row.original.taskNumber}`}>
              Change Classification
            </Button>
          </Group>
        ),
      });
    return cols;
  }, [manager, base, timeDisplay, timeZone]);

  const table = useRouteTable({ data: shown, columns, getRowId: (t) => t.id, sorting: [sorting, setSorting], selection: [rowSelection, setRowSelection], paging: [pagination, setPagination], enableRowSelection: manager });

  const selected = all.filter((t) => rowSelection[t.id]);
  const pageRows = table.getRowModel().rows;
  const allOnPage = pageRows.length > 0 && pageRows.every((r) => r.getIsSelected());
  const someOnPage = pageRows.some((r) => r.getIsSelected());
  const canExport = selected.length > 0 && selected.every(isCompleted);
  const canDelete = selected.length > 0 && selected.every(isDeletable);
  const close = () => setDialog(null);
  const clearSelection = () => setRowSelection({});

  const startExport = (tasksToExport: RouteTask[]) => setDialog({ kind: tasksToExport.some((t) => t.exported) ? 'reexport' : 'export', tasks: tasksToExport });

  return (
    <Stack gap="md" p={mobile ? 'sm' : 'lg'} maw={1600} mx="auto">
      <Group justify="space-between" align="flex-end" gap="sm">
        <Box>
          <Title order={1} fz={mobile ? 22 : 26}>
            Meter Reading Route Tasks
          </Title>
          <Text size="sm" c="dimmed">
            Council routes: import, assign to a meter reader, review the readings and export the results.
          </Text>
        </Box>
        <Group gap="xs">
          <Tooltip label="Refresh">
            <ActionIcon variant="default" size="lg" aria-label="Refresh route tasks" onClick={() => void refreshTasks().catch(() => {})} loading={tasks.status === 'ready' && tasks.updating}>
              <IconRefresh size={18} />
            </ActionIcon>
          </Tooltip>
          {manager && (
            <>
              <Button leftSection={<IconFileImport size={16} />} onClick={() => setDialog({ kind: 'import' })}>
                Import
              </Button>
              <Button variant="default" leftSection={<IconUserPlus size={16} />} disabled={selected.length === 0} onClick={() => setDialog({ kind: 'assign', tasks: selected })}>
                Assign
              </Button>
              <Button variant="default" leftSection={<IconDownload size={16} />} disabled={!canExport || exporter.busy || exportCooling}
                onClick={() => {
                  startExportCooldown();
                  startExport(selected);
                }}
              >
                Export
              </Button>
              <Button variant="default" leftSection={<IconFileSpreadsheet size={16} />} disabled={selected.length === 0 || exporter.busy} onClick={() => setDialog({ kind: 'csv', tasks: selected })}>
                To CSV
              </Button>
              <Button variant="default" color="red" leftSection={<IconTrash size={16} />} disabled={!canDelete} onClick={() => setDialog({ kind: 'delete', tasks: selected })}>
                Delete
              </Button>
            </>
          )}
        </Group>
      </Group>

      <FilterPanel mobile={!!mobile} active={[filters.taskNumber, filters.routeName, filters.group, filters.suburb].filter((t) => t.trim()).length + [filters.classification, filters.assignee, filters.progress].filter((l) => l.length).length}>
          <TextInput size="xs" label="Task No." value={filters.taskNumber} onChange={(e) => setFilter('taskNumber', e.currentTarget.value)} />
          <TextInput size="xs" label="Route" value={filters.routeName} onChange={(e) => setFilter('routeName', e.currentTarget.value)} />
          <TextInput size="xs" label="Group" value={filters.group} onChange={(e) => setFilter('group', e.currentTarget.value)} />
          <TextInput size="xs" label="Suburb" value={filters.suburb} onChange={(e) => setFilter('suburb', e.currentTarget.value)} />
          <MultiSelect size="xs" label="Classification" placeholder={filters.classification.length ? undefined : 'Any'} data={ROUTE_TYPES.map((t) => ({ value: t, label: ROUTE_TYPE_LABELS[t] }))} value={filters.classification} onChange={(v) => setFilter('classification', v)} clearable />
          <MultiSelect size="xs" label="Assigned To" placeholder={filters.assignee.length ? undefined : 'Anyone'} data={assignees} value={filters.assignee} onChange={(v) => setFilter('assignee', v)} searchable clearable />
          <MultiSelect size="xs" label="Progress" placeholder={filters.progress.length ? undefined : 'Any'} data={PROGRESS_STATES} value={filters.progress} onChange={(v) => setFilter('progress', v as RouteProgress[])} clearable />
      </FilterPanel>

      <Paper withBorder radius="md">
        <SelectionBar count={selected.length}>
          <Group gap="sm">
            {selected.length > 0 && (
              <Button size="compact-xs" variant="subtle" onClick={clearSelection}>
                Clear selection
              </Button>
            )}
            <Text size="sm" c="dimmed">
              {shown.length} of {all.length} tasks
            </Text>
          </Group>
        </SelectionBar>
        {tasks.status === 'loading' && (
          <Center py="xl">
            <Loader aria-label="Loading route tasks" />
          </Center>
        )}
        {tasks.status === 'error' && (
          <Alert color="red" m="sm" title="Route tasks could not be loaded">
            {tasks.message}
          </Alert>
        )}
        {tasks.status === 'ready' && (
          <ScrollCue label="Route tasks, scrolls sideways">
            <Table className={classes.table} miw={manager ? TASK_TABLE_WIDTH : TASK_TABLE_WIDTH - 300} highlightOnHover verticalSpacing={6} aria-label="Route tasks">
              <Table.Thead>
                {table.getHeaderGroups().map((hg) => (
                  <Table.Tr key={hg.id}>
                    {manager && (
                      <Table.Th className={`${classes.sticky} ${classes.stickyFirst}`}>
                        <Checkbox aria-label="Select all tasks on this page" checked={allOnPage} indeterminate={someOnPage && !allOnPage} onChange={() => table.toggleAllPageRowsSelected(!allOnPage)} />
                      </Table.Th>
                    )}
                    {hg.headers.map((h) => {
                      const sticky = h.column.id === 'taskNumber' ? `${classes.sticky} ${manager ? classes.stickySecond : classes.stickyFirst}` : undefined;
                      return (
                        <Table.Th key={h.id} className={sticky} aria-sort={ariaSort(h.column)}>
                          {h.column.getCanSort() ? (
                            <SortButton column={h.column} className={`${classes.sortButton} mantine-focus-auto`}>
                              {flexRender(h.column.columnDef.header, h.getContext())}
                            </SortButton>
                          ) : (
                            flexRender(h.column.columnDef.header, h.getContext())
                          )}
                        </Table.Th>
                      );
                    })}
                  </Table.Tr>
                ))}
              </Table.Thead>
              <Table.Tbody>
                {pageRows.length === 0 && (
                  <Table.Tr>
                    <Table.Td colSpan={columns.length + 1}>
                      <Text c="dimmed" py="lg" ta="center">
                        {all.length === 0 ? 'No route tasks yet.' + (manager ? ' Import a council route file to start.' : '') : 'No route task matches the filters.'}
                      </Text>
                    </Table.Td>
                  </Table.Tr>
                )}
                {pageRows.map((row) => (
                  <Table.Tr key={row.id} data-selected={row.getIsSelected() || undefined}>
                    {manager && (
                      <Table.Td className={`${classes.sticky} ${classes.stickyFirst}`}>
                        <Checkbox aria-label={`Select task ${row.original.taskNumber}`} checked={row.getIsSelected()} onChange={row.getToggleSelectedHandler()} />
                      </Table.Td>
                    )}
                    {row.getVisibleCells().map((cell) => (
                      <Table.Td key={cell.id} className={cell.column.id === 'taskNumber' ? `${classes.sticky} ${manager ? classes.stickySecond : classes.stickyFirst}` : undefined}>
                        {flexRender(cell.column.columnDef.cell, cell.getContext())}
                      </Table.Td>
                    ))}
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollCue>
        )}
        {table.getPageCount() > 1 && (
          <Group justify="center" py="sm">
            <Pagination total={table.getPageCount()} value={pagination.pageIndex + 1} onChange={(p) => table.setPageIndex(p - 1)} size="sm" getControlProps={(c) => ({ 'aria-label': `${c} page` })} />
          </Group>
        )}
      </Paper>

      {dialog?.kind === 'import' && <ImportModal onClose={close} />}
      {dialog?.kind === 'assign' && <AssignModal tasks={dialog.tasks} onClose={close} />}
      {dialog?.kind === 'group' && <GroupModal task={dialog.task} onClose={close} />}
      {dialog?.kind === 'suburb' && <SuburbModal task={dialog.task} onClose={close} />}
      {dialog?.kind === 'classification' && <ClassificationModal task={dialog.task} onClose={close} />}
      {dialog?.kind === 'delete' && (
        <ConfirmActionModal
          opened
          danger
          busy={deleting}
          message={
            (dialog.tasks.length === 1 ? `Delete route task ${dialog.tasks[0].taskNumber} (${dialog.tasks[0].routeName})?` : `Delete ${dialog.tasks.length} route tasks?`) +
            ' Only tasks with no readings recorded can be deleted.' +
            (deleteError ? ` ${deleteError}` : '')
          }
          onNo={() => {
            setDeleteError(null);
            close();
          }}
          onYes={() => {
            setDeleting(true);
            setDeleteError(null);
            Promise.all(dialog.tasks.map((t) => api.remove(t.id)))
              .then(() => {
                clearSelection();
                close();
              })
              .catch((e: Error) => setDeleteError(e.message))
              .finally(() => {
                setDeleting(false);
                void refreshTasks().catch(() => {});
              });
          }}
        />
      )}
      {dialog?.kind === 'reexport' && (
        <ConfirmActionModal opened message={dialog.tasks.length === 1 ? ALREADY_EXPORTED_ONE : ALREADY_EXPORTED_SOME} onNo={close} onYes={() => setDialog({ kind: 'export', tasks: dialog.tasks })} />
      )}
      {dialog?.kind === 'export' && (
        <ExportOptionsModal
          title={dialog.tasks.length === 1 ? `Export task ${dialog.tasks[0].taskNumber}` : `Export ${dialog.tasks.length} tasks`}
          busy={exporter.busy}
          onClose={close}
          onExport={(mode) => void exporter.exportTasks(dialog.tasks, mode).then((ok) => ok && close())}
        />
      )}
      {dialog?.kind === 'csv' && (
        <ExportOptionsModal title={`Readings of ${dialog.tasks.length === 1 ? `task ${dialog.tasks[0].taskNumber}` : `${dialog.tasks.length} tasks`} to CSV`} busy={exporter.busy} onClose={close} onExport={(mode) => void exporter.tasksToCsv(dialog.tasks, mode).then((ok) => ok && close())} />
      )}
    </Stack>
  );
}
