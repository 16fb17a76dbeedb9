import { useEffect, useState } from 'react';
import { Alert, Button, Loader, Select, Stack } from '@mantine/core';
import type { CreateTaskRequest, DownlinkTask } from '../../../contract/downlink-task.schema';
import type { Firmware, Sensor } from '../../../contract/sensor.schema';
import { applicableFirmware, firmwareLabel } from '../../../domain/firmware';
import { TASK_MESSAGES } from '../../../domain/remote-tasks';

interface Props {
  sensor: Sensor;
  queued: DownlinkTask[];
  busy: boolean;
  load(): Promise<Firmware[]>;
  onSubmit(req: CreateTaskRequest): void;
}

/** Upgrade Firmware (site admins): GET /admin/firmware filtered to what applies to this sensor. */
export function FirmwareForm({ sensor, queued, busy, load, onSubmit }: Props) {
  const [list, setList] = useState<Firmware[] | 'loading' | 'failed'>('loading');
  const [fwId, setFwId] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    load().then(
      (all) => live && setList(all),
      () => live && setList('failed'),
    );
    return () => {
      live = false;
    };
  }, [load]);
  if (list === 'loading') return <Loader size="sm" />;
  if (list === 'failed') return <Alert color="red">{TASK_MESSAGES.firmwareLoadFailed}</Alert>;
  const queuedIds = new Set(queued.filter((t) => t.type === 'FirmwareDownload').map((t) => String(t.params.fwId)));
  const options = applicableFirmware(list, sensor, queuedIds);
  if (!options.length) return <Alert color="blue">{TASK_MESSAGES.noFirmware}</Alert>;
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        if (fwId) onSubmit({ type: 'FirmwareDownload', params: { fwId } });
      }}
    >
      <Stack>
        <Select label="Firmware" placeholder="Choose the firmware" data={options.map((f) => ({ value: f.id, label: firmwareLabel(f) }))} value={fwId} onChange={setFwId} />
        <Button type="submit" loading={busy} disabled={!fwId}>
          Create
        </Button>
      </Stack>
    </form>
  );
}
