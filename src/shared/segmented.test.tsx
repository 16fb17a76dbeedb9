// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { Segmented } from './segmented';

describe('Segmented: a few choices as one radio group', () => {
  afterEach(cleanup);

  const data = [
    { value: 'normal', label: 'Normal Mode' },
    { value: 'live', label: 'Live Mode', disabled: true },
    { value: 'table', label: 'Table' },
  ] as const;

  it('is a named radio group whose checked radio is the value, its label marked active', () => {
    render(<Segmented aria-label="View mode" value="normal" onChange={() => {}} data={data} />);
    const group = screen.getByRole('radiogroup', { name: 'View mode' });
    const radios = screen.getAllByRole('radio') as HTMLInputElement[];
    expect(radios.map((r) => r.checked)).toEqual([true, false, false]);
    // one name: the browser moves the choice with the arrow keys as in any radio group
    expect(new Set(radios.map((r) => r.name)).size).toBe(1);
    expect(group.contains(radios[0]!)).toBe(true);
    expect(screen.getByText('Normal Mode').hasAttribute('data-active')).toBe(true);
    expect(screen.getByText('Table').hasAttribute('data-active')).toBe(false);
    expect((screen.getByRole('radio', { name: 'Live Mode' }) as HTMLInputElement).disabled).toBe(true);
  });

  it('tells the choice when a label is clicked, and nothing for a disabled one', () => {
    const onChange = vi.fn();
    render(<Segmented aria-label="View mode" value="normal" onChange={onChange} data={data} />);
    fireEvent.click(screen.getByText('Table'));
    expect(onChange).toHaveBeenCalledWith('table');
    onChange.mockClear();
    fireEvent.click(screen.getByText('Live Mode'));
    expect(onChange).not.toHaveBeenCalled();
  });

  it('two groups on a page keep their own choices', () => {
    render(
      <>
        <Segmented aria-label="Show the data as" value="chart" onChange={() => {}} data={[{ value: 'chart', label: 'Chart' }, { value: 'table', label: 'Table' }]} />
        <Segmented aria-label="Times in" value="viewer" onChange={() => {}} data={[{ value: 'organisation', label: 'Organisation time' }, { value: 'viewer', label: 'My time' }]} />
      </>,
    );
    expect((screen.getByRole('radio', { name: 'Chart' }) as HTMLInputElement).checked).toBe(true);
    expect((screen.getByRole('radio', { name: 'My time' }) as HTMLInputElement).checked).toBe(true);
    expect((screen.getByRole('radio', { name: 'Chart' }) as HTMLInputElement).name).not.toBe((screen.getByRole('radio', { name: 'My time' }) as HTMLInputElement).name);
  });
});
