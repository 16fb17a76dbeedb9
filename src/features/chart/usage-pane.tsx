import { useCallback, useEffect, useMemo, useState } from 'react';
import { Button, Group, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import type { Organisation } from '../../contract/organisation.schema';
import type { Sensor } from '../../contract/sensor.schema';
import { aboutDays, bandDays, formatCubicMetres, formatLitres, shortDate } from '../../domain/usage-format';
import type { UsageResult } from '../../../workers/data-api';
import { chartWorker } from './chart-worker';
import { downloadCsv } from './chart-edges';

interface UsagePaneProps {
  sensor: Sensor;
  org: Organisation;
  /** The chart's chosen range (epoch ms). */
  range: { start: number; end: number };
  /** Computed once the chart's own load has settled, so the two do not fetch the same chunks. */
  ready: boolean;
  /** Each analysis as it lands (the chart draws its forecast); null when it failed. */
  onUsage?(usage: UsageResult | null): void;
}

function Figure({ label, value, hint, testId }: { label: string; value: string; hint?: string | null; testId?: string }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={700} lts={0.5}>
        {label}
      </Text>
      <Text fw={700} fz="lg" data-testid={testId}>
        {value}
      </Text>
      {hint && (
        <Text size="xs" c="dimmed">
          {hint}
        </Text>
      )}
    </Stack>
  );
}

/**
 * Usage beyond the spec (issue 38): a tank's daily use, fills and days until empty, or a weir's
 * or flume's totals, computed by the core in the data worker; every member sees it.
 */
export function UsagePane({ sensor, org, range, ready, onUsage }: UsagePaneProps) {
  const [usage, setUsage] = useState<UsageResult | null>(null);
  /** The start of the range the analysis shown is for (data-start: tests and benchmark 6 wait for a range's analysis). */
  const [shownStart, setShownStart] = useState<number | null>(null);
  const [failed, setFailed] = useState(false);
  const tz = org.locale.timezone;
  const conversion = sensor.conversionConfigs[0];
  const req = useMemo(
    () => ({
      orgId: org.id,
      sensorId: sensor.id,
      startTime: range.start,
      endTime: range.end,
      timeZone: tz,
      offsetMm: sensor.displayInfo.offsetMeasurement ?? null,
      conversionConfigs: sensor.conversionConfigs,
      alarms: sensor.alarms,
      maxLevel: sensor.displayInfo.maxLevel ?? null,
    }),
    [org.id, sensor, range.start, range.end, tz],
  );
  const [exporting, setExporting] = useState(false);
  const exportCsv = useCallback(() => {
    setExporting(true);
    chartWorker()
      .exportUsageCsv({ ...req, sensorName: sensor.name, serial: sensor.serial, format: 'Default' })
      .then(downloadCsv)
      .catch(() => setFailed(true))
      .finally(() => setExporting(false));
  }, [req, sensor.name, sensor.serial]);
  useEffect(() => {
    if (!ready || !conversion) return;
    let live = true;
    chartWorker()
      .usage(req)
      .then((u) => {
        if (!live) return;
        setUsage(u);
        setShownStart(req.startTime);
        setFailed(false);
        onUsage?.(u);
      })
      .catch(() => {
        if (!live) return;
        setFailed(true);
        onUsage?.(null);
      });
    return () => {
      live = false;
    };
  }, [ready, conversion, req, onUsage]);
  const exportButton = (
    <Button size="xs" variant="subtle" leftSection={<IconDownload size={14} />} loading={exporting} onClick={exportCsv} data-testid="usage-export">
      Export usage
    </Button>
  );

  if (!conversion || !usage || usage.kind === 'none') {
    return failed ? (
      <Paper withBorder radius="md" p="md" data-testid="usage-pane" data-state="failed">
        <Text size="sm" c="dimmed">
          Usage could not be worked out for this range.
        </Text>
      </Paper>
    ) : null;
  }

  if (usage.kind === 'flow') {
    return (
      <Paper withBorder radius="md" p="md" data-testid="usage-pane" data-kind="flow" data-start={shownStart ?? undefined}>
        <Group justify="space-between" mb="sm">
          <Text size="xs" tt="uppercase" fw={700} c="dimmed" lts={0.5}>
            Flow totals
          </Text>
          {exportButton}
        </Group>
        <SimpleGrid cols={{ base: 1, xs: 3 }}>
          <Figure label="Today" value={formatCubicMetres(usage.summary.today)} testId="usage-today" />
          <Figure label="This month" value={formatCubicMetres(usage.summary.thisMonth)} testId="usage-month" />
          <Figure label="Chosen range" value={formatCubicMetres(usage.summary.range)} testId="usage-range" />
        </SimpleGrid>
      </Paper>
    );
  }

  const { summary } = usage;
  const empty = usage.forecasts.find((f) => f.target === 'empty');
  const low = usage.forecasts.find((f) => f.target === 'low');
  const full = usage.forecasts.find((f) => (f.target === 'high' || f.target === 'full') && f.days !== null);
  const filling = (empty?.rate ?? 0) < 0;
  const main = filling ? full : empty;
  const mainText = main && main.days !== null && main.at !== null ? `${aboutDays(main.days)} (${shortDate(main.at, tz)})` : 'Not enough history';
  const band = main ? bandDays(main.early, main.late) : null;
  return (
    <Paper withBorder radius="md" p="md" data-testid="usage-pane" data-kind="volume" data-start={shownStart ?? undefined}>
      <Group justify="space-between" mb="sm">
        <Text size="xs" tt="uppercase" fw={700} c="dimmed" lts={0.5}>
          Usage
        </Text>
        <Group gap="xs">
          <Text size="xs" c="dimmed">
            from {main?.daysUsed ?? 0} days of use
          </Text>
          {exportButton}
        </Group>
      </Group>
      <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }}>
        <Figure label={filling ? 'Until full' : 'Until empty'} value={mainText} hint={band ? `likely ${band}` : null} testId="usage-days" />
        <Figure label="Average daily use" value={formatLitres(summary.averageDaily)} hint={`max ${formatLitres(summary.maxDaily)}`} testId="usage-average" />
        <Figure
          label="Last fill"
          value={summary.lastFill ? formatLitres(summary.lastFill.volume) : 'None seen'}
          hint={summary.lastFill ? shortDate(summary.lastFill.start, tz) : null}
          testId="usage-last-fill"
        />
        <Figure label="Deliveries in range" value={String(summary.deliveries)} hint={summary.deliveries ? formatLitres(summary.delivered) : null} testId="usage-deliveries" />
      </SimpleGrid>
      {low && low.days !== null && low.at !== null && !filling && (
        <Text size="sm" mt="sm" data-testid="usage-low">
          Low alarm level in {aboutDays(low.days)} ({shortDate(low.at, tz)})
        </Text>
      )}
    </Paper>
  );
}
