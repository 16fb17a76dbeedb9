import { memo, useState } from 'react';
import { Button, Group, Modal, Radio, Stack, Text } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { DateTime } from 'luxon';
import { EXPORT_FORMATS, type ExportFormat } from '../../../machines/chart.machine';
import type { TimeRange } from '../../domain/date-presets';
import { rangeText } from './date-range-picker';

const SAMPLE = Date.UTC(2026, 2, 15, 1, 5, 9);

/** An example of each format, so that the choice is concrete. */
function example(format: ExportFormat, timeZone: string): string {
  const t = DateTime.fromMillis(SAMPLE, { zone: timeZone });
  switch (format) {
    case 'Default':
      return t.toFormat('yyyy-MM-dd HH:mm:ss');
    case 'DD/MM/YYYY HH:mm:ss':
      return t.toFormat('dd/MM/yyyy HH:mm:ss');
    case 'ISO8601 local':
      return t.toISO({ suppressMilliseconds: true })!;
    case 'ISO8601 UTC':
      return t.toUTC().toISO({ suppressMilliseconds: true })!;
  }
}

export interface ExportModalProps {
  opened: boolean;
  timeZone: string;
  /** The window the CSV covers (the picked range, or Live's last hour). */
  range: TimeRange;
  onClose(): void;
  onExport(format: ExportFormat): void;
}

/**
 * Export Options (monitoring-client 2.6): pick the date and time format of the CSV. Memoised, and
 * its text (luxon) is worked out only while it is open: the chart renders at every load's start
 * and end, and a closed dialog has nothing to show for it.
 */
export const ExportModal = memo(function ExportModal({ opened, timeZone, range, onClose, onExport }: ExportModalProps) {
  // here, not in the options: the format chosen stays chosen from one opening to the next
  const [format, setFormat] = useState<ExportFormat>('Default');
  return (
    <Modal opened={opened} onClose={onClose} title="Export Options" centered>
      <ExportOptions timeZone={timeZone} range={range} format={format} setFormat={setFormat} onClose={onClose} onExport={onExport} />
    </Modal>
  );
});

function ExportOptions({ timeZone, range, format, setFormat, onClose, onExport }: Omit<ExportModalProps, 'opened'> & { format: ExportFormat; setFormat(f: ExportFormat): void }) {
  return (
    <Stack>
      <Text size="sm" c="dimmed">
        A CSV of every measurement from {rangeText(range, timeZone)}, at full resolution, with times in {timeZone}.
      </Text>
      <Radio.Group label="Date and time format" value={format} onChange={(v) => setFormat(v as ExportFormat)}>
        <Stack gap="xs" mt="xs">
          {EXPORT_FORMATS.map((f) => (
            <Radio key={f} value={f} label={f} description={example(f, timeZone)} />
          ))}
        </Stack>
      </Radio.Group>
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          Cancel
        </Button>
        <Button leftSection={<IconDownload size={16} />} onClick={() => onExport(format)}>
          Download CSV
        </Button>
      </Group>
    </Stack>
  );
}
