// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { PasswordConfirmForm } from './password-confirm-form';
import { reauthenticate } from './reauthenticate';
import { NETWORK_MESSAGE } from '../domain/messages';

vi.mock('./reauthenticate', () => ({ reauthenticate: vi.fn() }));
const proved = vi.mocked(reauthenticate);

/**
 * A change a stolen session must not make asks for the current password first (issue 35, ASVS
 * V7.5.1): the change runs only once the password is proved; what went wrong shows under the field.
 */
describe('PasswordConfirmForm', () => {
  beforeEach(() => proved.mockReset());
  afterEach(cleanup);

  const show = (props: Partial<Parameters<typeof PasswordConfirmForm>[0]> & { onConfirmed: () => Promise<boolean | string> }) =>
    render(
      <MantineProvider>
        <PasswordConfirmForm submitLabel="Turn off" description="Confirm it is you." {...props} />
      </MantineProvider>,
    );
  const password = () => screen.getByLabelText('Current password') as HTMLInputElement;
  const type = (v: string) => fireEvent.change(password(), { target: { value: v } });
  const submit = () => fireEvent.click(screen.getByRole('button', { name: 'Turn off' }));

  it('a wrong password changes nothing and says so under the field', async () => {
    proved.mockResolvedValue('The password is not right.');
    const onConfirmed = vi.fn(async () => true);
    show({ onConfirmed });
    type('nope');
    submit();
    await screen.findByText('The password is not right.');
    expect(proved).toHaveBeenCalledWith('nope');
    expect(onConfirmed).not.toHaveBeenCalled();
    expect(password().value).toBe('nope');
  });

  it('a proved password runs the change; done, the field empties', async () => {
    proved.mockResolvedValue(null);
    const onConfirmed = vi.fn(async () => true);
    show({ onConfirmed });
    type('Demo-pass-2026!');
    submit();
    await waitFor(() => expect(onConfirmed).toHaveBeenCalledTimes(1));
    await waitFor(() => expect(password().value).toBe(''));
  });

  it('a change that fails keeps the password and shows why: thrown (the message for the error) or answered', async () => {
    proved.mockResolvedValue(null);
    show({ onConfirmed: async () => Promise.reject({ code: 'NETWORK_ERROR', message: 'Failed to fetch' }) });
    type('Demo-pass-2026!');
    submit();
    await screen.findByText(NETWORK_MESSAGE);
    expect(password().value).toBe('Demo-pass-2026!');
    cleanup();
    show({ onConfirmed: async () => 'Not now.' });
    type('Demo-pass-2026!');
    submit();
    await screen.findByText('Not now.');
  });

  it('the change’s own fields are checked before the password is sent', async () => {
    const onConfirmed = vi.fn(async () => true);
    show({ onConfirmed, precheck: () => false });
    type('Demo-pass-2026!');
    submit();
    await new Promise((r) => setTimeout(r, 10));
    expect(proved).not.toHaveBeenCalled();
    expect(onConfirmed).not.toHaveBeenCalled();
  });

  it('Cancel is refused while the change is on its way', async () => {
    let answer = (_: string | null) => {};
    proved.mockReturnValue(new Promise((r) => (answer = r)));
    const onCancel = vi.fn();
    show({ onConfirmed: async () => true, onCancel });
    const cancel = screen.getByRole('button', { name: 'Cancel' }) as HTMLButtonElement;
    expect(cancel.disabled).toBe(false);
    type('Demo-pass-2026!');
    submit();
    await waitFor(() => expect(cancel.disabled).toBe(true));
    answer(null);
    await waitFor(() => expect(cancel.disabled).toBe(false));
  });
});
