// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import type { Organisation } from '../../contract/organisation.schema';
import type { Sensor } from '../../contract/sensor.schema';
import { SETUP_RULES } from '../../domain/setup-messages';
import AlarmsSection from './alarms-section';

// The satellite radio's alarms tab (sensor-setup 4, 5; issue 36 item 4): enabling an alarm with an
// empty threshold raises "Please input the threshold" at once and disables Update; disabling clears it.
const org = { id: 'o', measurementUnit: 'Metres' } as Organisation;
const bore: Sensor = {
  id: 's', serial: '5E6F7081', name: 'Bore 7 Pressure', sensorType: 'LS1-P', organisationId: 'o', latitude: null, longitude: null, radio: { type: 'myriota' },
  alarms: { '0': { type: 'THRESHOLD_DECREASING', threshold: 3000, enabled: true } }, conversionConfigs: [],
  displayInfo: { offsetMeasurement: 9500, minLevel: 0, maxLevel: 9000, referenceLines: [] },
  config: { schedulerEnabled: true, measurementInterval: 60, transmissionInterval: 360 }, latestData: null, latestBootInfo: null,
};

afterEach(cleanup);

describe('satellite alarms: the required threshold error shows on enabling (sensor-setup 4)', () => {
  it('enabling with an empty threshold shows the message and disables Update before any press; disabling clears it', () => {
    render(
      <MantineProvider env="test">
        <AlarmsSection sensor={bore} org={org} isSiteAdmin={false} mobile={false} mapStyles={{} as never} production={false} sectionPath={(s) => s} onSaved={() => {}} />
      </MantineProvider>,
    );
    const update = screen.getByRole('button', { name: 'Update' }) as HTMLButtonElement;
    expect(update.disabled).toBe(false);
    const row = screen.getByTestId('alarm-THRESHOLD_INCREASING');
    fireEvent.click(within(row).getByRole('switch'));
    expect(within(row).getByText(SETUP_RULES.THRESHOLD_REQUIRED)).toBeTruthy();
    expect(update.disabled).toBe(true);
    fireEvent.click(within(row).getByRole('switch'));
    expect(within(row).queryByText(SETUP_RULES.THRESHOLD_REQUIRED)).toBeNull();
    expect(update.disabled).toBe(false);
  });
});
