import { useEffect, useMemo } from 'react';
import { useMachine } from '@xstate/react';
import { fromPromise } from 'xstate';
import { ActionIcon, Anchor, Button, Center, Group, Loader, Stack, Table, Text, TextInput, Tooltip, VisuallyHidden } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconPlus, IconSend, IconTrash } from '@tabler/icons-react';
import { Link } from 'react-router-dom';
import { integrationListSchema, integrationSchema, type Integration } from '../../../contract/live.schema';
import { webhookTestResultSchema } from '../../../contract/webhook-test.schema';
import { MAX_WEBHOOK_HEADERS, type WebhookSave } from '../../../domain/webhook-form';
import { api } from '../../../shared/api';
import { isWebhookBusy, webhookFormMachine, webhookView } from '../../../../machines/webhook-form.machine';
import type { SettingsSectionProps } from '../section-types';
import { SelectableField } from '../integration/selectable-field';
import { LoadFailedPanel } from '../../../shared/load-failed';

/** The gateway calls behind the webhook form machine (organisation-and-routes 7.2; issue 13's test event). */
function webhookActors(orgId: string) {
  const base = `/organisations/${orgId}/integrations`;
  return {
    load: fromPromise<Integration | null, void>(async () => (await api.get(base, { query: { type: 'webhook' }, schema: integrationListSchema })).integrations[0] ?? null),
    save: fromPromise<Integration | null, WebhookSave>(async ({ input }) => {
      if (input.kind === 'create') return api.post(base, input.input, { schema: integrationSchema });
      if (input.kind === 'update') return api.patch(`${base}/${input.id}`, input.input, { schema: integrationSchema });
      await api.delete(`${base}/${input.id}`);
      return null;
    }),
    sendTest: fromPromise(async ({ input }: { input: { id: string } }) => api.post(`${base}/${input.id}/test`, undefined, { schema: webhookTestResultSchema })),
  };
}

/**
 * Webhooks (organisation-and-routes 2.1, 4, 5, 8; managers): the URL, up to 5 header rows, Update
 * (create, update or remove), the signing secret a receiver verifies with, and a test event.
 */
export default function WebhooksSection({ org, isManager }: SettingsSectionProps) {
  const machine = useMemo(() => webhookFormMachine.provide({ actors: webhookActors(org.id) }), [org.id]);
  const [state, send] = useMachine(machine);
  const { values, integration, notice, loadError } = state.context;
  const view = webhookView(state);
  const busy = isWebhookBusy(state);

  useEffect(() => {
    if (notice) notifications.show({ color: notice.kind === 'success' ? 'teal' : 'red', message: notice.text, autoClose: 4000 });
  }, [notice]);

  if (state.matches('loading'))
    return (
      <Center h={160}>
        <Loader aria-label="Loading the webhook" />
      </Center>
    );
  if (state.matches('loadFailed'))
    return (
      <LoadFailedPanel title="The webhook could not be loaded" message={loadError} onRetry={() => send({ type: 'RETRY' })} />
    );

  const readOnly = !isManager || busy;
  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        send({ type: 'SUBMIT' });
      }}
    >
      <Stack gap="lg">
        <Text size="sm" c="dimmed">
          Tidewatch POSTs a JSON event to this URL when an alert is triggered or cleared, signed with the Standard Webhooks scheme. Leave the URL empty and press Update to remove the webhook.
        </Text>
        <TextInput
          label="Webhook URL"
          placeholder="https://example.com/hooks/tidewatch"
          value={values.url}
          onChange={(e) => send({ type: 'SET_URL', url: e.currentTarget.value })}
          error={view.errors.url}
          readOnly={readOnly}
          maxLength={2048}
          inputMode="url"
          autoComplete="off"
        />
        <Stack gap={6}>
          <Group justify="space-between" wrap="nowrap">
            <Text size="sm" fw={500} id="webhook-headers-label">
              Headers ({values.headers.length} of {MAX_WEBHOOK_HEADERS})
            </Text>
            <Button
              variant="light"
              size="xs"
              leftSection={<IconPlus size={14} />}
              disabled={!view.canAdd || readOnly}
              onClick={() => send({ type: 'ADD_HEADER' })}
            >
              Add header
            </Button>
          </Group>
          {values.headers.length === 0 ? (
            <Text size="sm" c="dimmed">
              No headers. Add one to send a token or key your receiver expects.
            </Text>
          ) : (
            <Table aria-labelledby="webhook-headers-label" verticalSpacing={6} withRowBorders={false}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Key</Table.Th>
                  <Table.Th>Value</Table.Th>
                  <Table.Th w={44}>
                    <VisuallyHidden>Remove</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {values.headers.map((h, i) => (
                  <Table.Tr key={i}>
                    <Table.Td style={{ verticalAlign: 'top' }}>
                      <TextInput
                        aria-label={`Header ${i + 1} key`}
                        placeholder="X-Api-Key"
                        value={h.key}
                        onChange={(e) => send({ type: 'SET_HEADER', index: i, field: 'key', value: e.currentTarget.value })}
                        error={view.errors.headers[i]?.key}
                        readOnly={readOnly}
                        maxLength={256}
                      />
                    </Table.Td>
                    <Table.Td style={{ verticalAlign: 'top' }}>
                      <TextInput
                        aria-label={`Header ${i + 1} value`}
                        value={h.value}
                        onChange={(e) => send({ type: 'SET_HEADER', index: i, field: 'value', value: e.currentTarget.value })}
                        error={view.errors.headers[i]?.value}
                        readOnly={readOnly}
                        maxLength={4096}
                      />
                    </Table.Td>
                    <Table.Td style={{ verticalAlign: 'top' }}>
                      <Tooltip label="Remove header">
                        <ActionIcon variant="subtle" color="red" size="lg" aria-label={`Remove header ${i + 1}`} disabled={readOnly} onClick={() => send({ type: 'REMOVE_HEADER', index: i })}>
                          <IconTrash size={16} />
                        </ActionIcon>
                      </Tooltip>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
        </Stack>
        <Group>
          <Button type="submit" disabled={!view.canUpdate || !isManager} loading={state.matches('saving')}>
            Update
          </Button>
        </Group>

        {integration && (
          <Stack gap="sm" pt="md" style={{ borderTop: '1px solid var(--tw-border)' }}>
            <Text fw={600}>Verify and test</Text>
            <SelectableField label="Signing secret" value={integration.secret} description="Each event carries webhook-id, webhook-timestamp and webhook-signature headers: v1, then the base64 HMAC-SHA256 of “id.timestamp.body” keyed by the base64 part of this secret." />
            <Group gap="sm" align="center">
              <Button variant="default" leftSection={<IconSend size={16} />} onClick={() => send({ type: 'SEND_TEST' })} disabled={!view.canTest || !isManager} loading={state.matches('testing')}>
                Send a test event
              </Button>
              {!view.canTest && state.matches('editing') && (
                <Text size="sm" c="dimmed">
                  Update first: the test goes to the saved webhook.
                </Text>
              )}
            </Group>
            <Text size="sm" c="dimmed">
              The event body is described in the{' '}
              <Anchor component={Link} to="/api-docs#webhooks">
                API documentation
              </Anchor>
              .
            </Text>
          </Stack>
        )}
      </Stack>
    </form>
  );
}
