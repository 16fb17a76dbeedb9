import { useState, type ReactNode } from 'react';
import { Alert, Badge, Button, FileInput, Group, List, Loader, Modal, Stack, Tabs, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconFileSpreadsheet, IconFileText } from '@tabler/icons-react';
import { ROUTE_MESSAGES } from '../../contract/route.schema';
import { ApiError } from '../../shared/api';
import type { ParsedRouteFile, ParsedSpecialFile } from './route-files';
import { useRoutes } from './routes-context';

/** Section 8's import messages by error code. */
export function importMessage(e: unknown, special: boolean): string {
  const code = e instanceof ApiError ? e.code : '';
  if (code === 'SOME_METERS_NOT_FOUND') return ROUTE_MESSAGES.SOME_METERS_NOT_FOUND;
  if (code === 'SOME_METER_READINGS_NOT_FOUND') return ROUTE_MESSAGES.SOME_METER_READINGS_NOT_FOUND;
  if (code === 'DUPLICATE_METERS' && !special) return ROUTE_MESSAGES.DUPLICATE_METERS;
  return ROUTE_MESSAGES.IMPORT_FAILED;
}

type Parsed<T> = { status: 'idle' } | { status: 'parsing' } | { status: 'done'; files: T[] } | { status: 'error'; message: string };

interface ImportTabProps<T> {
  onClose(): void;
  /** Special routes: section 8's messages differ (no DUPLICATE_METERS). */
  special: boolean;
  fileInput: { label: string; description: string; accept: string; icon: ReactNode };
  /** Parses the chosen files in the data worker. */
  parse(files: File[]): Promise<T[]>;
  /** A file that can be imported (Confirm is disabled unless every file is: section 5). */
  valid(file: T): boolean;
  /** Sends the parsed files with the trimmed group. */
  send(files: T[], group: string): Promise<void>;
  success: string;
  /** The parsed files as the tab lists them. */
  renderFiles(files: T[]): ReactNode;
}

/** One import tab: choose files, parse them, show them, and Confirm sends them (the two tabs differ only in these props). */
function ImportTab<T>({ onClose, special, fileInput, parse, valid, send, success, renderFiles }: ImportTabProps<T>) {
  const { refreshTasks } = useRoutes();
  const [files, setFiles] = useState<File[]>([]);
  const [group, setGroup] = useState('');
  const [parsed, setParsed] = useState<Parsed<T>>({ status: 'idle' });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const choose = (chosen: File[]) => {
    setFiles(chosen);
    setError(null);
    if (chosen.length === 0) return setParsed({ status: 'idle' });
    setParsed({ status: 'parsing' });
    parse(chosen).then(
      (r) => setParsed({ status: 'done', files: r }),
      (e: Error) => setParsed({ status: 'error', message: e.message }),
    );
  };
  const ok = parsed.status === 'done' && parsed.files.every(valid);
  const submit = async () => {
    if (parsed.status !== 'done' || !ok) return;
    setBusy(true);
    setError(null);
    try {
      await send(parsed.files, group.trim());
      notifications.show({ closeButtonProps: { 'aria-label': 'Dismiss' }, color: 'teal', message: success, autoClose: 4000 });
      onClose();
    } catch (e) {
      setError(importMessage(e, special));
    } finally {
      setBusy(false);
      void refreshTasks().catch(() => {});
    }
  };
  return (
    <Stack>
      <FileInput
        label={fileInput.label}
        description={fileInput.description}
        placeholder="Choose files"
        multiple
        accept={fileInput.accept}
        value={files}
        onChange={choose}
        clearable
        clearButtonProps={{ 'aria-label': 'Clear the chosen files' }}
        leftSection={fileInput.icon}
      />
      <TextInput label="Group" description="Optional" value={group} onChange={(e) => setGroup(e.currentTarget.value)} maxLength={200} />
      {parsed.status === 'parsing' && <Loader size="sm" aria-label="Reading the files" />}
      {parsed.status === 'error' && <Alert color="red">{parsed.message}</Alert>}
      {parsed.status === 'done' && renderFiles(parsed.files)}
      {error && <Alert color="red">{error}</Alert>}
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose} disabled={busy}>
          Cancel
        </Button>
        <Button onClick={() => void submit()} loading={busy} disabled={!ok}>
          Confirm
        </Button>
      </Group>
    </Stack>
  );
}

function NormalTab({ onClose }: { onClose(): void }) {
  const { api, files: parser, timeZone, councilFileEncoding } = useRoutes();
  return (
    <ImportTab<ParsedRouteFile>
      onClose={onClose}
      special={false}
      fileInput={{ label: 'Council route files', description: 'Council .txt (16 fields) or .asc (18 fields) files; several at once', accept: '.txt,.asc,.TXT,.ASC', icon: <IconFileText size={16} /> }}
      parse={(chosen) => parser.parseCouncilFiles(chosen, timeZone, councilFileEncoding)}
      valid={(f) => !f.error && f.payloads.length > 0}
      send={async (files, group) => {
        for (const f of files) for (const p of f.payloads) await api.importRoute({ ...p, group: group || p.group || null });
      }}
      success={ROUTE_MESSAGES.IMPORT_SUCCESS}
      renderFiles={(files) => (
        <List spacing={6} size="sm" aria-label="Chosen files">
          {files.map((f) => (
            <List.Item key={f.name}>
              <Group gap={6}>
                <Text size="sm" fw={600}>
                  {f.name}
                </Text>
                {f.error ? (
                  <Text size="sm" c="red">
                    {f.error}
                    {f.detail ? ` (${f.detail})` : ''}
                  </Text>
                ) : (
                  f.payloads.map((p) => (
                    <Badge key={p.routeName} variant="light">
                      {p.routeName}
                      {p.iterationNumber ? ` · ${p.iterationNumber}` : ''} · {p.readings.length} readings
                    </Badge>
                  ))
                )}
              </Group>
            </List.Item>
          ))}
        </List>
      )}
    />
  );
}

function SpecialTab({ onClose }: { onClose(): void }) {
  const { api, files: parser } = useRoutes();
  return (
    <ImportTab<ParsedSpecialFile>
      onClose={onClose}
      special
      fileInput={{ label: 'Special route spreadsheets', description: 'xlsx files with Trans Id, serial number, meter location and Reason', accept: '.xlsx', icon: <IconFileSpreadsheet size={16} /> }}
      parse={(chosen) => parser.parseSpecialFiles(chosen)}
      // Confirm is disabled when no files are chosen or any file has an error (section 5)
      valid={(f) => f.errors.length === 0 && f.meters.length > 0}
      // all the files' meters make one special route
      send={(files, group) => api.createSpecial({ group, meters: files.flatMap((f) => f.meters) }).then(() => undefined)}
      success={ROUTE_MESSAGES.SPECIAL_ROUTE_SUCCESS}
      renderFiles={(files) => (
        <Stack gap={6} aria-label="Chosen files">
          {files.map((f) =>
            f.errors.length ? (
              <Alert key={f.name} color="red" title={f.name}>
                <List size="sm" spacing={2}>
                  {f.errors.slice(0, 20).map((m) => (
                    <List.Item key={m}>{m}</List.Item>
                  ))}
                  {f.errors.length > 20 && <List.Item>and {f.errors.length - 20} more</List.Item>}
                </List>
              </Alert>
            ) : (
              <Group key={f.name} gap={6}>
                <Text size="sm" fw={600}>
                  {f.name}
                </Text>
                <Badge variant="light">{f.meters.length} meters</Badge>
              </Group>
            ),
          )}
        </Stack>
      )}
    />
  );
}

/** Import: normal routes (council .txt/.asc) and special routes (.xlsx), parsed in the data worker. */
export function ImportModal({ onClose }: { onClose(): void }) {
  return (
    <Modal closeButtonProps={{ 'aria-label': 'Close' }} opened onClose={onClose} title="Import" size="lg" centered>
      <Tabs defaultValue="normal" keepMounted={false}>
        <Tabs.List mb="md">
          <Tabs.Tab value="normal">Normal Routes</Tabs.Tab>
          <Tabs.Tab value="special">Special Routes</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="normal">
          <NormalTab onClose={onClose} />
        </Tabs.Panel>
        <Tabs.Panel value="special">
          <SpecialTab onClose={onClose} />
        </Tabs.Panel>
      </Tabs>
    </Modal>
  );
}
