// @vitest-environment happy-dom
import { MantineProvider, Select } from '@mantine/core';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { theme } from './theme';

afterEach(cleanup);

describe('theme', () => {
  it("renders a select's options when it opens, not hidden in the page before (the first render of a page with filters)", async () => {
    render(
      <MantineProvider theme={theme}>
        <Select label="Type" data={['Water level alarm', 'Battery low', 'Offline']} />
      </MantineProvider>,
    );
    expect(screen.queryByRole('listbox', { hidden: true })).toBeNull();
    expect(screen.queryAllByRole('option', { hidden: true })).toHaveLength(0);
    fireEvent.click(screen.getByLabelText('Type'));
    expect(await screen.findAllByRole('option')).toHaveLength(3);
  });
});
