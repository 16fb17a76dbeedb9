import { useCallback, useEffect, useState } from 'react';
import { Alert, Button, Group, Modal, Stack, Text, Title } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { networkIntegrationsSchema, type NetworkIntegrations } from '../../../contract/network-integrations.schema';
import { api } from '../../../shared/api';
import { SelectableField } from './selectable-field';

type Network = 'sigfox' | 'myriota';
const NAMES: Record<Network, string> = { sigfox: 'Sigfox', myriota: 'Myriota' };
const HOW: Record<Network, string> = {
  sigfox: 'In the Sigfox backend, on the device type: a custom callback (DATA, UPLINK or BIDIR for remote tasks), method POST, this URL, and a header with this name and secret. docs/device-protocol.md gives the body.',
  myriota: "In Myriota's Device Manager, an HTTP destination with this URL, which carries the secret in its path.",
};

export interface NetworkCallbacksApi {
  load(orgId: string): Promise<NetworkIntegrations>;
  regenerate(orgId: string, network: Network): Promise<NetworkIntegrations>;
}

const gateway: NetworkCallbacksApi = {
  load: (orgId) => api.get(`/organisations/${orgId}/network-integrations`, { schema: networkIntegrationsSchema }),
  regenerate: (orgId, network) => api.post(`/organisations/${orgId}/network-integrations/${network}/regenerate`, {}, { schema: networkIntegrationsSchema }),
};

/**
 * The radio networks' cloud callbacks (issue 39): the URLs and secrets to paste into the Sigfox and
 * Myriota consoles, and a new secret on request, which the server refuses the old one for at once.
 */
export function NetworkCallbacks({ orgId, calls = gateway }: { orgId: string; calls?: NetworkCallbacksApi }) {
  const [data, setData] = useState<NetworkIntegrations | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<Network | null>(null);
  const [busy, setBusy] = useState(false);
  const load = useCallback(() => {
    setError(null);
    calls.load(orgId).then(setData, () => setError('The callback settings could not be loaded. Please check your internet connection and try again.'));
  }, [calls, orgId]);
  useEffect(load, [load]);

  const regenerate = async (network: Network) => {
    setBusy(true);
    try {
      setData(await calls.regenerate(orgId, network));
      setConfirming(null);
    } catch {
      setError(`A new ${NAMES[network]} secret could not be made. Please try again.`);
      setConfirming(null);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack gap="md" data-testid="network-callbacks">
      <Title order={2} size="h4">
        Radio network callbacks
      </Title>
      <Text size="sm" c="dimmed">
        Sigfox and Myriota sensors reach Tidewatch through their network's cloud, which calls these URLs with the secret. Keep the secrets secret: anyone holding one can send readings for this organisation's sensors.
      </Text>
      {error && (
        <Alert color="red" variant="light" title="Something went wrong">
          <Group justify="space-between">
            <Text size="sm">{error}</Text>
            {!data && (
              <Button size="xs" variant="light" onClick={load}>
                Retry
              </Button>
            )}
          </Group>
        </Alert>
      )}
      {!data && !error && <Text size="sm">Loading…</Text>}
      {data &&
        (['sigfox', 'myriota'] as const).map((n) => (
          <Stack key={n} gap="xs" component="section" aria-label={`${NAMES[n]} callback`}>
            <Group justify="space-between" align="flex-end">
              <Title order={3} size="h5">
                {NAMES[n]}
              </Title>
              <Button size="xs" variant="default" leftSection={<IconRefresh size={14} />} onClick={() => setConfirming(n)}>
                Regenerate {NAMES[n]} secret
              </Button>
            </Group>
            <Text size="xs" c="dimmed">
              {HOW[n]}
            </Text>
            {n === 'myriota' && data.myriota.urlWithSecret ? (
              <SelectableField label="Myriota destination URL" value={data.myriota.urlWithSecret} />
            ) : (
              <>
                <SelectableField label={`${NAMES[n]} callback URL`} value={data[n].callbackUrl} />
                <Group grow align="flex-start">
                  <SelectableField label="Header name" value={data[n].secretHeader} />
                  <SelectableField label={`${NAMES[n]} secret`} value={data[n].secret} />
                </Group>
              </>
            )}
          </Stack>
        ))}
      <Modal opened={confirming !== null} onClose={() => setConfirming(null)} title={`Regenerate the ${confirming ? NAMES[confirming] : ''} secret?`} centered>
        <Stack>
          <Text size="sm">The old secret stops working at once: callbacks that still send it are refused until the network's console has the new one.</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(null)}>
              Cancel
            </Button>
            <Button color="red" loading={busy} onClick={() => confirming && void regenerate(confirming)}>
              Regenerate
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
