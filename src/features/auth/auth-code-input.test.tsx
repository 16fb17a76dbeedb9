// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { AuthCodeInput } from './auth-code-input';

/** The login view's code steps (issue 35): the code typed is what Verify sends; nothing is typed while it is on its way. */
describe('AuthCodeInput', () => {
  afterEach(cleanup);
  const show = (busy: boolean, onSubmit = vi.fn()) => {
    render(
      <MantineProvider>
        <AuthCodeInput busy={busy} maxLength={8} onSubmit={onSubmit}>
          <p>Key: ABCD</p>
        </AuthCodeInput>
      </MantineProvider>,
    );
    return onSubmit;
  };

  it('sends the code as typed, with what comes before it shown', () => {
    const onSubmit = show(false);
    screen.getByText('Key: ABCD');
    const field = screen.getByLabelText('Authentication code') as HTMLInputElement;
    expect(field.maxLength).toBe(8);
    fireEvent.change(field, { target: { value: '123 456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(onSubmit).toHaveBeenCalledWith('123 456');
  });

  it('the field is disabled while the code is being checked', () => {
    show(true);
    expect((screen.getByLabelText('Authentication code') as HTMLInputElement).disabled).toBe(true);
  });
});
