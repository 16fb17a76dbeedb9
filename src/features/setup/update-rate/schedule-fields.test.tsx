// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { useState } from 'react';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { SCHEDULE_MESSAGES } from '../../../domain/update-rate';
import { ScheduleFields, scheduleValid, type ScheduleValue } from './schedule-fields';

// Scheduler inputs on a Sigfox sensor (sensor-setup 5; issue 36 item 5): out-of-range values stay as
// typed, show the rule's message and block Save; nothing is clamped or rounded behind the user's back.
let last: ScheduleValue;
function Harness({ radio = 'sigfox' }: { radio?: string }) {
  const [v, setV] = useState<ScheduleValue>({ measurementInterval: 15, transmissionInterval: 60, deltaCompressionEnabled: false, maxGradient: 150, txCountOnAlarm: 2 });
  last = v;
  return <ScheduleFields radio={radio} currentMeasurement={15} value={v} onChange={setV} withAlarmMode={false} />;
}
const mount = () => render(<MantineProvider env="test"><Harness /></MantineProvider>);
const input = (label: RegExp) => screen.getByLabelText(label) as HTMLInputElement;
const type = (el: HTMLInputElement, text: string) => {
  fireEvent.focus(el);
  fireEvent.change(el, { target: { value: text } });
  fireEvent.blur(el);
};

afterEach(cleanup);

describe('scheduler inputs are not clamped (sensor-setup 5)', () => {
  it.each([['0'], ['1440'], ['2.5']])('a measurement interval of %s stays, with the range message, and blocks Save', (text) => {
    mount();
    type(input(/Measurement interval/), text);
    expect(input(/Measurement interval/).value).toBe(text);
    expect(screen.getByText(SCHEDULE_MESSAGES.measurementRange)).toBeTruthy();
    expect(last.measurementInterval).toBe(Number(text));
    expect(last.transmissionInterval).toBe(60); // not moved to a multiple of a refused interval
    expect(scheduleValid('sigfox', 15, last, false)).toBe(false);
  });
  it('a max gradient of 4701 stays, with its message, and blocks Save', () => {
    mount();
    type(input(/Maximum gradient/), '4701');
    expect(input(/Maximum gradient/).value).toBe('4701');
    expect(screen.getByText(SCHEDULE_MESSAGES.gradient)).toBeTruthy();
    expect(scheduleValid('sigfox', 15, last, false)).toBe(false);
  });
});
