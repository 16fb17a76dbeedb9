import type { ReactNode } from 'react';
import { Group, Text } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconArrowsSort } from '@tabler/icons-react';
import {
  getCoreRowModel,
  getPaginationRowModel,
  getSortedRowModel,
  useReactTable,
  type Column,
  type ColumnDef,
  type OnChangeFn,
  type PaginationState,
  type RowSelectionState,
  type SortingState,
} from '@tanstack/react-table';

type StatePair<S> = [S, OnChangeFn<S>];

interface RouteTableOptions<T> {
  data: T[];
  columns: ColumnDef<T>[];
  getRowId(row: T): string;
  /** Each state as [value, setter]: the pages keep them (sorting persisted, selection cleared after actions). */
  sorting: StatePair<SortingState>;
  selection: StatePair<RowSelectionState>;
  paging: StatePair<PaginationState>;
  /** Who may select rows (default everyone). */
  enableRowSelection?: boolean;
}

/**
 * The table of the route task list and of a task's readings: sorted, selectable, paged by the
 * caller's state; the page stays put when the data changes (a refresh or a live update).
 */
export function useRouteTable<T>({ sorting: [sorting, onSortingChange], selection: [rowSelection, onRowSelectionChange], paging: [pagination, onPaginationChange], ...opts }: RouteTableOptions<T>) {
  return useReactTable({
    ...opts,
    state: { sorting, rowSelection, pagination },
    onSortingChange,
    onRowSelectionChange,
    onPaginationChange,
    autoResetPageIndex: false,
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
    getPaginationRowModel: getPaginationRowModel(),
  });
}

/** aria-sort of a column header. */
export function ariaSort<T>(column: Column<T>): 'ascending' | 'descending' | undefined {
  const sorted = column.getIsSorted();
  return sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : undefined;
}

/** A sortable column's header: its label and the sort direction, toggled by a click. */
export function SortButton<T>({ column, className, children }: { column: Column<T>; className: string; children: ReactNode }) {
  const sorted = column.getIsSorted();
  return (
    <button type="button" className={className} style={{ background: 'none', border: 0, padding: 0, cursor: 'pointer', font: 'inherit' }} onClick={column.getToggleSortingHandler()}>
      {children}
      {sorted === 'asc' ? <IconArrowUp size={14} /> : sorted === 'desc' ? <IconArrowDown size={14} /> : <IconArrowsSort size={14} opacity={0.4} />}
    </button>
  );
}

/** The bar over a table: '{n} Selected' (section 2.4, announced politely) and what the page adds on the right. */
export function SelectionBar({ count, children }: { count: number; children: ReactNode }) {
  return (
    <Group justify="space-between" px="sm" py={8}>
      <Text size="sm" fw={600} aria-live="polite">
        {count} Selected
      </Text>
      {children}
    </Group>
  );
}
