// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import type { MeterReading, MeterReadingRecord } from '../../contract/route.schema';
import { RecordForm } from './record-form';

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 11, 3);
/** A meter read at 1,000 ninety days ago: the usual use is 1 a day, so more than 270 over the period asks for a confirmation. */
const reading: MeterReading = {
  id: 'r1', routeTaskId: 't1', sequence: 10, ozoneReference: null, value: null, recordedAt: null, recordedBy: null, recorderName: null, completed: false, notes: null,
  cantReadCode: null, commentCode: null, exception: null, serviceRequired: false, edited: false, photoUrl: null, lastRecordedReading: null, importedPrevReading: { value: 1_000, date: NOW - 90 * DAY }, reason: null, position: null,
  meterInfo: { serial: 'M1', location: 'Front', propertyAddress: '1 Tide Street', ownerName: 'Owner', valuationRef: '1/1', additionalLocationInfo: '', latitude: null, longitude: null },
} as MeterReading;

function form() {
  const captured: MeterReadingRecord[] = [];
  render(
    <MantineProvider>
      <RecordForm reading={reading} position={{ latitude: -41.28, longitude: 174.73, accuracy: 8 }} now={() => NOW} onCapture={(b) => void captured.push(b)} />
    </MantineProvider>,
  );
  const value = screen.getByLabelText('Reading') as HTMLInputElement;
  const type = (v: string) => fireEvent.change(value, { target: { value: v } });
  const choose = (label: string, option: string) => fireEvent.change(screen.getByLabelText(label), { target: { value: option } });
  const save = () => fireEvent.click(screen.getByRole('button', { name: 'Save reading' }));
  return { captured, value, type, choose, save };
}

describe('the reader app records one meter (issue 33 "Recording" and "Plausibility")', () => {
  afterEach(() => {
    cleanup();
    vi.restoreAllMocks();
  });

  it('a value is an integer 0 to 9,999,999: anything else is refused with the spec\'s message and nothing is captured', () => {
    const f = form();
    f.save();
    expect(screen.getByText('Reading is required')).toBeTruthy();
    for (const [typed, message] of [
      ['10000000', 'Reading must be between 0 and 9999999'],
      ['-1', 'Reading must be between 0 and 9999999'],
      ['12.5', 'Reading is not a valid integer'],
      ['abc', 'Reading is not a valid integer'],
    ] as const) {
      f.type(typed);
      f.save();
      expect(screen.getByText(message), typed).toBeTruthy();
    }
    expect(f.captured).toEqual([]);
    // a plausible value is captured with the time and the position
    f.type('1200');
    expect(screen.getByTestId('consumption').textContent).toBe('Consumption 200 over 90 days');
    f.save();
    expect(f.captured).toHaveLength(1);
    expect(f.captured[0]).toMatchObject({ value: 1_200, cantReadCode: null, recordedAt: NOW, position: { latitude: -41.28, longitude: 174.73, accuracy: 8 } });
  });

  it("a can't-read code clears the value and disables the comment code; the capture carries no value and no comment code; notes keep their line breaks", () => {
    const f = form();
    f.type('1234');
    f.choose('Comment code', 'Box Cut Away');
    f.choose("Can't read code", 'Dog');
    expect(f.value.value).toBe('');
    expect(f.value.disabled).toBe(true);
    expect((screen.getByLabelText('Comment code') as HTMLSelectElement).disabled).toBe(true);
    fireEvent.change(screen.getByLabelText('Notes'), { target: { value: 'Dog in the yard,\ngate locked' } });
    f.save();
    expect(f.captured).toEqual([expect.objectContaining({ value: null, cantReadCode: 'Dog', commentCode: null, notes: 'Dog in the yard,\ngate locked' })]);
  });

  it('a negative consumption or one above three times the usual use asks to confirm and requires a photo before it is captured', () => {
    const f = form();
    for (const [typed, title] of [
      ['999', 'The reading is below the previous reading'],
      ['1271', 'The consumption is unusually high'],
    ] as const) {
      f.type(typed);
      expect(screen.getByText(title), typed).toBeTruthy();
      f.save();
      expect(f.captured, 'not confirmed').toEqual([]);
      fireEvent.click(screen.getByLabelText('I have checked: the reading is right'));
      f.save();
      expect(f.captured, 'confirmed, no photo').toEqual([]);
      expect(screen.getByText('A photo of the meter is required for this reading.')).toBeTruthy();
      expect(screen.getByLabelText('Photo (required)')).toBeTruthy();
    }
    // at the limit (3 a day over 90 days) it is plausible: no confirmation asked
    f.type('1270');
    expect(screen.queryByText('The consumption is unusually high')).toBeNull();
    f.save();
    expect(f.captured).toEqual([expect.objectContaining({ value: 1_270 })]);
  });
});
