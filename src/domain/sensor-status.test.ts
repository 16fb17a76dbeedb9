import { describe, expect, it } from 'vitest';
import { displayStatus, STATUS_COLOUR } from './sensor-status';

const config = { schedulerEnabled: true, measurementInterval: 5, transmissionInterval: 15 };

describe('display status (monitoring-client 4)', () => {
  it('is DISABLED when the scheduler is off, whatever the data says', () => {
    expect(displayStatus({ config: { ...config, schedulerEnabled: false }, latestData: { alertAsserted: true } })).toBe('DISABLED');
  });
  it('is OK when there is no latest data', () => {
    expect(displayStatus({ config, latestData: null })).toBe('OK');
  });
  it('is ALERT when an alert is asserted, before offline or battery', () => {
    expect(displayStatus({ config, latestData: { alertAsserted: true, offlineAsserted: true, battery: 2 } })).toBe('ALERT');
  });
  it('is WARNING when offline is asserted', () => {
    expect(displayStatus({ config, latestData: { offlineAsserted: true, battery: 80 } })).toBe('WARNING');
  });
  it('is WARNING when the battery is below 10 percent, and OK at exactly 10', () => {
    expect(displayStatus({ config, latestData: { battery: 9 } })).toBe('WARNING');
    expect(displayStatus({ config, latestData: { battery: 10 } })).toBe('OK');
  });
  it('colours each status icon distinctly for OK, WARNING and ALERT', () => {
    expect(new Set([STATUS_COLOUR.OK, STATUS_COLOUR.WARNING, STATUS_COLOUR.ALERT]).size).toBe(3);
  });
});
