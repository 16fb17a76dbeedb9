// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import type { NetworkIntegrations } from '../../../contract/network-integrations.schema';
import { NetworkCallbacks, type NetworkCallbacksApi } from './network-callbacks';

// Issue 39: where an admin finds the Sigfox and Myriota callbacks, and regenerates a secret.
const settings = (sigfoxSecret: string): NetworkIntegrations => ({
  sigfox: { callbackUrl: 'https://tw.example/ingest/sigfox', secretHeader: 'X-Tidewatch-Secret', secret: sigfoxSecret, updatedAt: 1 },
  myriota: { callbackUrl: 'https://tw.example/ingest/myriota', secretHeader: 'X-Tidewatch-Secret', secret: 'm1', urlWithSecret: 'https://tw.example/ingest/myriota/m1', updatedAt: 1 },
});
const mount = (calls: NetworkCallbacksApi) =>
  render(
    <MantineProvider env="test">
      <NetworkCallbacks orgId="org-1" calls={calls} />
    </MantineProvider>,
  );
const value = (label: string) => (screen.getByLabelText(label) as HTMLInputElement).value;

afterEach(cleanup);

describe('radio network callbacks in Integration settings', () => {
  it('shows the Sigfox URL, header and secret and the Myriota URL with its secret', async () => {
    mount({ load: async () => settings('s1'), regenerate: vi.fn() });
    await screen.findByLabelText('Sigfox callback URL');
    expect(value('Sigfox callback URL')).toBe('https://tw.example/ingest/sigfox');
    expect(value('Header name')).toBe('X-Tidewatch-Secret');
    expect(value('Sigfox secret')).toBe('s1');
    expect(value('Myriota destination URL')).toBe('https://tw.example/ingest/myriota/m1');
  });

  it('regenerates a secret only after the confirmation, and shows the new one', async () => {
    const regenerate = vi.fn(async () => settings('s2'));
    mount({ load: async () => settings('s1'), regenerate });
    fireEvent.click(await screen.findByRole('button', { name: 'Regenerate Sigfox secret' }));
    expect(regenerate).not.toHaveBeenCalled();
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(/The old secret stops working at once/)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Regenerate' }));
    await waitFor(() => expect(value('Sigfox secret')).toBe('s2'));
    expect(regenerate).toHaveBeenCalledWith('org-1', 'sigfox');
  });

  it('a failed load says so and offers Retry', async () => {
    const load = vi.fn().mockRejectedValueOnce(new Error('Failed to fetch')).mockResolvedValueOnce(settings('s1'));
    mount({ load, regenerate: vi.fn() });
    fireEvent.click(await screen.findByRole('button', { name: 'Retry' }));
    await screen.findByLabelText('Sigfox secret');
    expect(load).toHaveBeenCalledTimes(2);
  });
});
