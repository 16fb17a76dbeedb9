import { useMemo, useState } from 'react';
import { Alert, Badge, Center, Group, Loader, Pagination, Paper, Select, Stack, Table, Text } from '@mantine/core';
import { DatePickerInput, type DatesRangeValue } from '@mantine/dates';
import '@mantine/dates/styles.css';
import { IconCalendar, IconCircleCheck } from '@tabler/icons-react';
import { DateTime } from 'luxon';
import type { Sensor } from '../../contract/sensor.schema';
import { dayOf, pickedDaysRange } from '../../domain/date-presets';
import { ERROR_FILTERS, ERROR_SORT_OPTIONS, errorLabel, normaliseErrorCode, sortAndFilterErrors, summariseErrors, type ErrorFilter, type ErrorSort } from '../../domain/measurement-errors';
import { formatTime, type TimeDisplay } from '../../domain/time-format';
import { codeColour, ErrorSummaryPanel } from './error-summary';
import { useMeasurementErrors } from './use-measurement-errors';
import { LoadFailedNotice } from '../../shared/load-failed';

export const ERRORS_EMPTY = 'No measurement errors for this date range.';
export const errorsLoadFailed = (message: string) => `Failed to load measurement errors... Error: ${message}`;
const PAGE_SIZE = 50;

interface MeasurementErrorsPageProps {
  sensor: Sensor;
  timeDisplay: TimeDisplay;
  timeZone: string;
  /** A valid range from the URL query; otherwise the last 7 days. */
  initialRange?: { start: number; end: number };
}

/** Measurement Errors (monitoring-client 2.7), site admins: date range, sort, filter, table and analysis. */
export function MeasurementErrorsPage({ sensor, timeDisplay, timeZone, initialRange }: MeasurementErrorsPageProps) {
  // calendar days are the organisation's, not the browser's: its midnight, its today
  const toDay = (t: number) => dayOf(t, timeZone);
  const today = toDay(Date.now());
  const [range, setRange] = useState<DatesRangeValue<string>>(() =>
    initialRange ? [toDay(initialRange.start), toDay(initialRange.end)] : [DateTime.fromISO(today).minus({ days: 6 }).toISODate()!, today],
  );
  const [applied, setApplied] = useState(range as [string, string]);
  const [sort, setSort] = useState<ErrorSort>('desc');
  const [filter, setFilter] = useState<ErrorFilter>('None');
  const [page, setPage] = useState(1);
  const [attempt, setAttempt] = useState(0);
  const picked = pickedDaysRange(applied[0], applied[1], Date.now(), timeZone);
  const start = picked?.start ?? 1;
  const end = picked?.end ?? 0; // a range starting after today: loading refuses start > end
  const load = useMeasurementErrors(sensor.id, start, end, attempt);

  const shown = useMemo(() => (load.status === 'ready' ? sortAndFilterErrors(load.errors, filter, sort) : []), [load, filter, sort]);
  const summary = useMemo(() => summariseErrors(shown, sensor.sensorType), [shown, sensor.sensorType]);
  const pages = Math.max(1, Math.ceil(shown.length / PAGE_SIZE));
  const rows = shown.slice((Math.min(page, pages) - 1) * PAGE_SIZE, Math.min(page, pages) * PAGE_SIZE);

  return (
    <Stack gap="md">
      <Paper withBorder radius="lg" p="md">
        <Group gap="md" align="flex-end" wrap="wrap">
          <DatePickerInput
            type="range"
            label="Date range"
            leftSection={<IconCalendar size={16} />}
            value={range}
            onChange={(v) => {
              setRange(v);
              if (v[0] && v[1]) {
                setApplied([v[0], v[1]]);
                setPage(1);
              }
            }}
            maxDate={today}
            valueFormat="D MMM YYYY"
            w={{ base: '100%', xs: 260 }}
          />
          <Select
            label="Sort"
            data={ERROR_SORT_OPTIONS}
            value={sort}
            onChange={(v) => v && setSort(v as ErrorSort)}
            allowDeselect={false}
            w={{ base: '100%', xs: 200 }}
          />
          <Select
            label="Filter"
            data={[...ERROR_FILTERS]}
            value={filter}
            onChange={(v) => {
              if (v) setFilter(v as ErrorFilter);
              setPage(1);
            }}
            allowDeselect={false}
            w={{ base: '100%', xs: 180 }}
          />
        </Group>
      </Paper>

      {load.status === 'loading' && (
        <Center py="xl">
          <Loader />
        </Center>
      )}
      {load.status === 'error' && (
        <LoadFailedNotice onRetry={() => setAttempt((a) => a + 1)}>{errorsLoadFailed(load.message)}</LoadFailedNotice>
      )}
      {load.status === 'ready' && shown.length === 0 && (
        <Paper withBorder radius="lg" p="xl">
          <Stack align="center" gap="xs">
            <IconCircleCheck size={32} color="var(--mantine-color-teal-6)" />
            <Text c="dimmed">{ERRORS_EMPTY}</Text>
          </Stack>
        </Paper>
      )}
      {load.status === 'ready' && shown.length > 0 && (
        <>
          <ErrorSummaryPanel summary={summary} timeDisplay={timeDisplay} timeZone={timeZone} />
          {load.truncated && (
            <Alert color="yellow" variant="light">
              Showing the newest {load.errors.length.toLocaleString()} errors of this range. Choose a shorter range to see them all.
            </Alert>
          )}
          <Paper withBorder radius="lg" p={0} style={{ overflow: 'hidden' }}>
            <Table striped highlightOnHover verticalSpacing="xs" horizontalSpacing="lg" aria-label="Measurement errors">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Error</Table.Th>
                  <Table.Th>Time</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((e) => {
                  const code = normaliseErrorCode(e.code);
                  return (
                    <Table.Tr key={e.id}>
                      <Table.Td>
                        <Group gap="xs" wrap="nowrap">
                          <Badge variant="light" color={codeColour(code)} radius="sm" w={44}>
                            {code}
                          </Badge>
                          <Text size="sm">{errorLabel(code, sensor.sensorType)}</Text>
                        </Group>
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm">{formatTime(e.time, timeDisplay, timeZone, true)}</Text>
                      </Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </Paper>
          {pages > 1 && (
            <Group justify="center">
              <Pagination
                total={pages}
                value={Math.min(page, pages)}
                onChange={setPage}
                size="sm"
                getItemProps={(p) => ({ 'aria-label': `Page ${p}` })}
                getControlProps={(control) => ({ 'aria-label': `${control[0]!.toUpperCase()}${control.slice(1)} page` })}
              />
            </Group>
          )}
        </>
      )}
    </Stack>
  );
}
