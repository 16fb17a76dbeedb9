// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { LoadFailedNotice, LoadFailedPanel } from './load-failed';

describe('load failures', () => {
  afterEach(cleanup);

  it('the notice shows the message and retries from its inline button', () => {
    const onRetry = vi.fn();
    render(<MantineProvider><LoadFailedNotice onRetry={onRetry}>Notifications could not be loaded.</LoadFailedNotice></MantineProvider>);
    expect(screen.getByRole('alert').textContent).toContain('Notifications could not be loaded.');
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(onRetry).toHaveBeenCalledTimes(1);
  });

  it('the panel shows its title and the reason, and retries from its button', () => {
    const onRetry = vi.fn();
    render(<MantineProvider><LoadFailedPanel title="The webhook could not be loaded" message="Network error" onRetry={onRetry} /></MantineProvider>);
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('The webhook could not be loaded');
    expect(alert.textContent).toContain('Network error');
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(onRetry).toHaveBeenCalledTimes(1);
  });
});
