// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import type { CreateTaskRequest } from '../../../contract/downlink-task.schema';
import type { Organisation } from '../../../contract/organisation.schema';
import type { Sensor } from '../../../contract/sensor.schema';

// The gateway's task calls, recorded: the section saves through them as the full form does.
const calls = vi.hoisted(() => ({ created: [] as unknown[], pending: [] as unknown[] }));
vi.mock('../remote-tasks/tasks-api', () => ({
  tasksApi: () => ({
    list: async () => ({ queued: [], completed: [] }),
    create: async (t: CreateTaskRequest) => (calls.created.push(t), { id: 't', ...t, status: 'Created', createdAt: 0 }),
    cancel: async () => ({}),
    putPending: async (p: unknown) => (calls.pending.push(p), { pendingConfig: p }),
    deletePending: async () => ({ pendingConfig: null }),
  }),
}));
const { default: UpdateRateSection } = await import('./update-rate-section');

const org = { id: 'o', slug: 'o', name: 'O', role: 2, measurementUnit: 'Metres', locale: { timezone: 'Pacific/Auckland', country: 'NZ' } } as Organisation;
/** 2B3C4D5E of the demo: a T35 on cellular measuring every 15 minutes and sending every hour. */
const stockTank = (over: Partial<Sensor['config']> = {}): Sensor => ({
  id: 's', serial: '2B3C4D5E', name: 'Stock Tank North', sensorType: 'T35', organisationId: 'o', latitude: null, longitude: null, radio: { type: 'cellular' }, alarms: {},
  conversionConfigs: [], displayInfo: { offsetMeasurement: 2800, minLevel: 0, maxLevel: 2600, referenceLines: [] },
  config: { schedulerEnabled: true, measurementInterval: 15, transmissionInterval: 60, deltaCompressionEnabled: false, txCountOnAlarm: 2, ...over },
  latestData: null, latestBootInfo: { firmwareVersion: 72, hardwareVersion: 11, sensorVersion: 3, buildType: 'Production' },
});
const mount = (sensor: Sensor) =>
  render(
    <MantineProvider env="test">
      <UpdateRateSection sensor={sensor} org={org} isSiteAdmin={false} mobile={false} mapStyles={{} as never} production={false} sectionPath={(s) => s} onSaved={() => {}} />
    </MantineProvider>,
  );

afterEach(cleanup);

describe('update rate simple mode (sensor-setup 4, 5, 9; issue 36 item 1)', () => {
  it("shows the sensor's real schedule, and says no simple choice fits when 15-minute measurements over 2 to 6 hours exceed 6 per transmission", async () => {
    mount(stockTank());
    expect(screen.getByTestId('simple-current').textContent).toBe('Now measuring every 15 minutes and sending every 1 hour.');
    expect(screen.getByTestId('simple-none').textContent).toContain('limit of 6 measurements per transmission');
    expect(screen.queryByRole('radio')).toBeNull();
    expect(screen.queryByText('6 hours')).toBeNull();
    expect((screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled).toBe(true);
  });
  it('with delta compression offers only 2 hours (8 of 12), and saves it through the same SensorConfig task as the full form', async () => {
    calls.created.length = 0;
    mount(stockTank({ deltaCompressionEnabled: true }));
    expect(screen.getAllByRole('radio').map((r) => (r as HTMLInputElement).value)).toEqual(['120']);
    const save = screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement;
    expect(save.disabled).toBe(true); // nothing chosen yet: the schedule stays as it is
    fireEvent.click(screen.getByRole('radio', { name: '2 hours' }));
    await waitFor(() => expect(save.disabled).toBe(false));
    fireEvent.click(save);
    await waitFor(() => expect(calls.created).toEqual([{ type: 'SensorConfig', params: { measurementInterval: 15, measurementsPerTransmission: 8, maxGradient: 150, deltaCompressionEnabled: true } }]));
    expect(calls.pending.at(-1)).toMatchObject({ measurementInterval: 15, transmissionInterval: 120 });
  });
});
