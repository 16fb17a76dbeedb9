import { useEffect, useState } from 'react';
import { Alert, Button, Group, Loader, Modal, Radio, Select, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { ROLES } from '../../contract/organisation.schema';
import type { Member } from '../../contract/member.schema';
import { ROUTE_TYPE_LABELS, ROUTE_TYPES, type RouteTask, type RouteType } from '../../contract/route.schema';
import type { ExportMode } from './route-files';
import { useRoutes } from './routes-context';

const failed = (e: unknown) => (e instanceof Error && e.message ? e.message : 'Something went wrong.');

/** The general confirm-action modal: title "Confirm Action", buttons No / Yes by default. */
export function ConfirmActionModal({
  opened,
  message,
  onNo,
  onYes,
  busy = false,
  noLabel = 'No',
  yesLabel = 'Yes',
  danger = false,
}: {
  opened: boolean;
  message: string;
  onNo(): void;
  onYes(): void;
  busy?: boolean;
  noLabel?: string;
  yesLabel?: string;
  danger?: boolean;
}) {
  return (
    <Modal closeButtonProps={{ 'aria-label': 'Close' }} opened={opened} onClose={onNo} title="Confirm Action" centered>
      <Stack>
        <Text>{message}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onNo} disabled={busy}>
            {noLabel}
          </Button>
          <Button onClick={onYes} loading={busy} color={danger ? 'red' : undefined}>
            {yesLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** Runs an update, keeps the dialog open with the error on failure, closes it on success. */
function useSubmit(onDone: () => void) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = async (f: () => Promise<unknown>) => {
    setBusy(true);
    setError(null);
    try {
      await f();
      onDone();
    } catch (e) {
      setError(failed(e));
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, run, reset: () => setError(null) };
}

function Actions({ onCancel, busy, disabled, label = 'Confirm' }: { onCancel(): void; busy: boolean; disabled?: boolean; label?: string }) {
  return (
    <Group justify="flex-end" mt="sm">
      <Button variant="default" onClick={onCancel} disabled={busy}>
        Cancel
      </Button>
      <Button type="submit" loading={busy} disabled={disabled}>
        {label}
      </Button>
    </Group>
  );
}

const ROLE_NAMES: Record<number, string> = { [ROLES.MEMBER]: 'Member', [ROLES.ADMIN]: 'Admin', [ROLES.OWNER]: 'Owner', [ROLES.METER_READER]: 'Meter Reader' };

/** Assign: lists only members that have an identity id (section 5). */
export function AssignModal({ tasks, onClose }: { tasks: RouteTask[]; onClose(): void }) {
  const { api, replaceTasks } = useRoutes();
  const [members, setMembers] = useState<Member[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [chosen, setChosen] = useState<string | null>(tasks.length === 1 ? (tasks[0].assignedTo?.cognitoIdentityId ?? null) : null);
  const submit = useSubmit(onClose);
  useEffect(() => {
    api.members().then(setMembers, (e) => setLoadError(failed(e)));
  }, [api]);
  const options = (members ?? [])
    .filter((m) => m.cognitoIdentityId && m.status === 'Active')
    .map((m) => ({ value: m.cognitoIdentityId!, label: `${m.name || m.email} (${ROLE_NAMES[m.role] ?? 'Member'})` }));
  return (
    <Modal closeButtonProps={{ 'aria-label': 'Close' }} opened onClose={onClose} title={tasks.length === 1 ? `Assign task ${tasks[0].taskNumber}` : `Assign ${tasks.length} tasks`} centered>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (!chosen) return;
          void submit.run(async () => {
            const updated = await Promise.all(tasks.map((t) => api.patch(t.id, { assignedTo: chosen })));
            replaceTasks(updated);
            notifications.show({ closeButtonProps: { 'aria-label': 'Dismiss' }, color: 'teal', message: `Assigned ${updated.length === 1 ? `task ${updated[0].taskNumber}` : `${updated.length} tasks`} to ${updated[0].assignedTo?.name ?? 'the member'}.`, autoClose: 4000 });
          });
        }}
      >
        <Stack>
          {loadError && <Alert color="red">{loadError}</Alert>}
          {!members && !loadError && <Loader size="sm" aria-label="Loading members" />}
          {members && <Select label="Assign to" placeholder="Choose a member" data={options} value={chosen} onChange={setChosen} searchable nothingFoundMessage="No member matches" comboboxProps={{ withinPortal: true }} />}
          {submit.error && <Alert color="red">{submit.error}</Alert>}
          <Actions onCancel={onClose} busy={submit.busy} disabled={!chosen} label="Assign" />
        </Stack>
      </form>
    </Modal>
  );
}

export function GroupModal({ task, onClose }: { task: RouteTask; onClose(): void }) {
  const { api, replaceTasks } = useRoutes();
  const [group, setGroup] = useState(task.group ?? '');
  const submit = useSubmit(onClose);
  return (
    <Modal closeButtonProps={{ 'aria-label': 'Close' }} opened onClose={onClose} title={`Change Group of task ${task.taskNumber}`} centered>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void submit.run(async () => replaceTasks([await api.patch(task.id, { group: group.trim() || null })]));
        }}
      >
        <Stack>
          <TextInput label="Group" value={group} onChange={(e) => setGroup(e.currentTarget.value)} maxLength={200} data-autofocus />
          {submit.error && <Alert color="red">{submit.error}</Alert>}
          <Actions onCancel={onClose} busy={submit.busy} />
        </Stack>
      </form>
    </Modal>
  );
}

/** Suburb: nothing is sent when it is empty and was empty; clearing an existing suburb sends "". */
export function SuburbModal({ task, onClose }: { task: RouteTask; onClose(): void }) {
  const { api, refreshTasks } = useRoutes();
  const [suburb, setSuburb] = useState(task.suburb ?? '');
  const submit = useSubmit(onClose);
  return (
    <Modal closeButtonProps={{ 'aria-label': 'Close' }} opened onClose={onClose} title={`Change Suburb of route ${task.routeName}`} centered>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          const next = suburb.trim();
          if (!next && !task.suburb) return onClose();
          void submit.run(async () => {
            await api.metadata(task.routeName, { suburb: next });
            await refreshTasks();
          });
        }}
      >
        <Stack>
          <Text size="sm" c="dimmed">
            The suburb belongs to the route: every task of {task.routeName} shows it.
          </Text>
          <TextInput label="Suburb" value={suburb} onChange={(e) => setSuburb(e.currentTarget.value)} maxLength={200} data-autofocus />
          {submit.error && <Alert color="red">{submit.error}</Alert>}
          <Actions onCancel={onClose} busy={submit.busy} />
        </Stack>
      </form>
    </Modal>
  );
}

/** Classification: Confirm stays disabled until one is chosen. */
export function ClassificationModal({ task, onClose }: { task: RouteTask; onClose(): void }) {
  const { api, refreshTasks } = useRoutes();
  const [type, setType] = useState<RouteType | null>(null);
  const submit = useSubmit(onClose);
  return (
    <Modal closeButtonProps={{ 'aria-label': 'Close' }} opened onClose={onClose} title={`Change Classification of route ${task.routeName}`} centered>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (!type) return;
          void submit.run(async () => {
            await api.metadata(task.routeName, { type });
            await refreshTasks();
          });
        }}
      >
        <Stack>
          <Text size="sm">Currently: {task.type ? ROUTE_TYPE_LABELS[task.type] : 'not classified'}</Text>
          <Radio.Group label="Classification" value={type ?? ''} onChange={(v) => setType(v as RouteType)}>
            <Stack gap="xs" mt={6}>
              {ROUTE_TYPES.map((t) => (
                <Radio key={t} value={t} label={ROUTE_TYPE_LABELS[t]} />
              ))}
            </Stack>
          </Radio.Group>
          {submit.error && <Alert color="red">{submit.error}</Alert>}
          <Actions onCancel={onClose} busy={submit.busy} disabled={!type} />
        </Stack>
      </form>
    </Modal>
  );
}

/** Export options: all readings or exceptions only. */
export function ExportOptionsModal({ title, onClose, onExport, busy }: { title: string; onClose(): void; onExport(mode: ExportMode): void; busy: boolean }) {
  const [mode, setMode] = useState<ExportMode>('all');
  return (
    <Modal closeButtonProps={{ 'aria-label': 'Close' }} opened onClose={onClose} title={title} centered>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          onExport(mode);
        }}
      >
        <Stack>
          <Radio.Group label="Export options" value={mode} onChange={(v) => setMode(v as ExportMode)}>
            <Stack gap="xs" mt={6}>
              <Radio value="all" label="All readings" />
              <Radio value="exceptions" label="Exceptions only" />
            </Stack>
          </Radio.Group>
          <Actions onCancel={onClose} busy={busy} label="Export" />
        </Stack>
      </form>
    </Modal>
  );
}
