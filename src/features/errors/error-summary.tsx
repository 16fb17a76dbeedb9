import { Badge, Group, Paper, SimpleGrid, Stack, Text, Tooltip } from '@mantine/core';
import type { ErrorSummary } from '../../domain/measurement-errors';
import { errorHelp } from '../../domain/measurement-errors';
import { durationText, formatTime, type TimeDisplay } from '../../domain/time-format';

const CODE_COLOUR: Record<string, string> = { E1: 'red', E2: 'orange', E3: 'yellow', E4: 'grape', E5: 'blue', E9: 'pink' };
export const codeColour = (code: string) => CODE_COLOUR[code] ?? 'gray';

function Stat({ label, value }: { label: string; value: string }) {
  return (
    <Stack gap={2}>
      <Text size="xs" tt="uppercase" fw={700} c="dimmed" lts={0.5}>
        {label}
      </Text>
      <Text fw={600}>{value}</Text>
    </Stack>
  );
}

/** The analysis summary: counts per code; the average frequency only with more than 2 errors. */
export function ErrorSummaryPanel({ summary, timeDisplay, timeZone }: { summary: ErrorSummary; timeDisplay: TimeDisplay; timeZone: string }) {
  return (
    <Paper withBorder radius="lg" p="lg" aria-label="Analysis summary" role="region">
      <Text fw={700} mb="sm">
        Analysis
      </Text>
      <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="md" mb="md">
        <Stat label="Errors" value={String(summary.total)} />
        <Stat label="Average frequency" value={summary.averageIntervalMs === undefined ? 'Needs more than 2 errors' : `One every ${durationText(summary.averageIntervalMs)}`} />
        <Stat label="Most recent" value={summary.last === undefined ? 'None' : formatTime(summary.last, timeDisplay, timeZone)} />
      </SimpleGrid>
      <Group gap="xs">
        {summary.counts.map((c) => (
          <Tooltip key={c.code} label={errorHelp(c.code) ?? 'An error code this page does not know.'} withArrow multiline w={260}>
            <Badge size="lg" variant="light" color={codeColour(c.code)} radius="sm">
              {c.label} ({c.code}): {c.count}
            </Badge>
          </Tooltip>
        ))}
      </Group>
    </Paper>
  );
}
