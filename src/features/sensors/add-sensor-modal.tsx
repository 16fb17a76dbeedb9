import { useEffect, useMemo } from 'react';
import { Alert, Button, Group, Modal, Stack, Text, TextInput, ThemeIcon } from '@mantine/core';
import { IconCircleCheck, IconAlertCircle } from '@tabler/icons-react';
import { useMachine } from '@xstate/react';
import { fromPromise } from 'xstate';
import { busyLabel, claimFormMachine, type ClaimInput } from '../../../machines/claim-form.machine';
import { addSensorResponseSchema, type Sensor } from '../../contract/sensor.schema';
import { api } from '../../shared/api';

interface AddSensorModalProps {
  orgId: string;
  opened: boolean;
  onClose(): void;
  /** After Done: the list reloads and shows the new sensor. */
  onAdded(sensor: Sensor): void;
}

/** Add a New Sensor (monitoring-client 2.4): serial and claim code through the claim-form machine. */
export function AddSensorModal({ orgId, opened, onClose, onAdded }: AddSensorModalProps) {
  const machine = useMemo(
    () =>
      claimFormMachine.provide({
        actors: {
          submit: fromPromise<unknown, ClaimInput>(async ({ input }) => (await api.post(`/organisations/${orgId}/add-sensor`, input, { schema: addSensorResponseSchema })).sensor),
        },
      }),
    [orgId],
  );
  const [state, send] = useMachine(machine, { input: { mode: 'add' } });
  const { serial, claimCode, errors, formError, result } = state.context;
  const busy = state.matches('validating');
  const added = state.matches('success') ? (result as Sensor) : null;

  // the modal resets when reopened (monitoring-client 4)
  useEffect(() => {
    if (opened) send({ type: 'RESET' });
  }, [opened, send]);

  const done = () => {
    if (added) onAdded(added);
    onClose();
  };

  return (
    <Modal opened={opened} onClose={added ? done : onClose} title={<Text fw={700} size="lg">Add a New Sensor</Text>} centered closeOnClickOutside={!busy} closeOnEscape={!busy}>
      {added ? (
        <Stack align="center" gap="md" py="sm">
          <ThemeIcon size={56} radius="xl" variant="light" color="teal">
            <IconCircleCheck size={34} />
          </ThemeIcon>
          <Text ta="center">Sensor {added.serial} has been added to your organisation.</Text>
          <Button onClick={done} fullWidth>
            Done
          </Button>
        </Stack>
      ) : (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            send({ type: 'SUBMIT' });
          }}
        >
          <Stack gap="sm">
            <Text size="sm" c="dimmed">
              Enter the serial number and claim code printed on the sensor's licence card.
            </Text>
            <TextInput
              label="Serial number"
              placeholder="e.g. 1A2B3C4D"
              value={serial}
              disabled={busy}
              error={errors.serial}
              onChange={(e) => send({ type: 'CHANGE', field: 'serial', value: e.currentTarget.value })}
              data-autofocus
            />
            <TextInput
              label="Claim code"
              placeholder="xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx"
              value={claimCode}
              disabled={busy}
              error={errors.claimCode}
              onChange={(e) => send({ type: 'CHANGE', field: 'claimCode', value: e.currentTarget.value })}
            />
            {formError && (
              <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />}>
                {formError}
              </Alert>
            )}
            <Group justify="flex-end" mt="xs">
              <Button variant="default" onClick={onClose} disabled={busy}>
                Cancel
              </Button>
              <Button type="submit" disabled={busy}>
                {busy ? busyLabel('add') : 'Add Sensor'}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
