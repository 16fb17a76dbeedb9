// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { UpdateButton } from './update-button';

const show = (saving: boolean, disabled?: boolean) =>
  render(
    <MantineProvider env="test">
      <UpdateButton saving={saving} disabled={disabled} />
    </MantineProvider>,
  );

/** Sensor-setup 2: a section's Update button reads 'Updating' while its save runs, and cannot be pressed again. */
describe('UpdateButton', () => {
  afterEach(cleanup);

  it("reads 'Update', ready to submit, when nothing is saving", () => {
    show(false);
    const button = screen.getByRole('button', { name: 'Update' }) as HTMLButtonElement;
    expect(button.type).toBe('submit');
    expect(button.disabled).toBe(false);
  });

  it("reads 'Updating' and is disabled while saving", () => {
    show(true);
    expect((screen.getByRole('button', { name: 'Updating' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('is disabled when its section says so (a field in error)', () => {
    show(false, true);
    expect((screen.getByRole('button', { name: 'Update' }) as HTMLButtonElement).disabled).toBe(true);
  });
});
