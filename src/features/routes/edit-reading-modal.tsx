import { useEffect, useMemo } from 'react';
import { Alert, Button, Checkbox, Group, Modal, Select, SimpleGrid, Stack, Textarea, TextInput } from '@mantine/core';
import { useMachine } from '@xstate/react';
import { fromPromise } from 'xstate';
import { formView, readingEditMachine, READING_LABEL, type SaveInput } from '../../../machines/reading-edit.machine';
import { CANT_READ_CODES, COMMENT_CODES, type CantReadCode, type CommentCode, type MeterReading, type MeterReadingAnswer, type RouteTask } from '../../contract/route.schema';
import { useRoutes } from './routes-context';

const NA = 'N/A';
const withNa = (codes: readonly string[]) => [NA, ...codes];

/**
 * 'Edit Property and Reading Details' (organisation-and-routes 2.4, 4, 5): the reading-edit
 * machine holds the draft, the interplay and the rules; this draws it.
 */
export function EditReadingModal({ task, reading, onClose, onSaved }: { task: RouteTask; reading: MeterReading; onClose(): void; onSaved(a: MeterReadingAnswer): void }) {
  const { api } = useRoutes();
  const machine = useMemo(
    () =>
      readingEditMachine.provide({
        actors: {
          save: fromPromise(async ({ input }: { input: SaveInput }) => {
            const answer = await api.editReading(task.id, input.readingId, input.patch);
            onSaved(answer);
            return answer.reading;
          }),
        },
      }),
    [api, task.id, onSaved],
  );
  const [snap, send] = useMachine(machine);
  // open on mount with the reading shown; a success closes the modal (section 4)
  useEffect(() => {
    send({ type: 'OPEN', reading, exported: task.exported });
     
  }, []);
  const saved = snap.context.saved;
  useEffect(() => {
    if (saved) onClose();
  }, [saved, onClose]);
  const view = formView(snap);
  const d = snap.context.draft;
  const close = () => {
    send({ type: 'CLOSE' });
    onClose();
  };
  return (
    <Modal closeButtonProps={{ 'aria-label': 'Close' }} opened onClose={view.busy ? () => {} : close} title="Edit Property and Reading Details" size="lg" centered>
      {d && (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            send({ type: 'SUBMIT' });
          }}
          noValidate
        >
          <Stack>
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <TextInput
                label={READING_LABEL}
                inputMode="numeric"
                value={d.value}
                onChange={(e) => send({ type: 'SET_VALUE', value: e.currentTarget.value })}
                disabled={view.readingDisabled}
                error={view.readingError}
                // the theme's error red is too light for text on white (WCAG AA): a darker one
                styles={{ input: view.readingError ? { color: 'var(--mantine-color-red-9)', borderColor: 'var(--mantine-color-red-9)' } : undefined, error: { color: 'var(--mantine-color-red-9)' } }}
                withAsterisk={!d.cantReadCode}
              />
              <Select
                label="Can't Read Code"
                data={withNa(CANT_READ_CODES)}
                value={d.cantReadCode ?? NA}
                onChange={(v) => send({ type: 'SET_CANT_READ', code: !v || v === NA ? null : (v as CantReadCode) })}
                allowDeselect={false}
                disabled={view.busy}
                comboboxProps={{ withinPortal: true }}
              />
              <Select
                label="Comment Code"
                data={withNa(COMMENT_CODES)}
                value={d.commentCode ?? NA}
                onChange={(v) => send({ type: 'SET_COMMENT', code: !v || v === NA ? null : (v as CommentCode) })}
                allowDeselect={false}
                disabled={view.commentDisabled}
                comboboxProps={{ withinPortal: true }}
              />
              <TextInput label="Additional Location Info" value={d.additionalLocationInfo} onChange={(e) => send({ type: 'SET_LOCATION_INFO', text: e.currentTarget.value })} maxLength={500} disabled={view.busy} />
            </SimpleGrid>
            <Textarea label="Notes" value={d.notes} onChange={(e) => send({ type: 'SET_NOTES', notes: e.currentTarget.value })} autosize minRows={2} maxRows={5} maxLength={2000} disabled={view.busy} />
            <Checkbox label="Service Required" checked={d.serviceRequired} onChange={(e) => send({ type: 'SET_SERVICE_REQUIRED', on: e.currentTarget.checked })} disabled={view.busy} />
            {view.error && (
              <Alert color="red" role="alert">
                {view.error}
              </Alert>
            )}
            <Group justify="flex-end">
              <Button variant="default" onClick={close} disabled={view.busy}>
                Cancel
              </Button>
              <Button type="submit" loading={view.busy}>
                Submit
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
