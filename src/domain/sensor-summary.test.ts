import { describe, expect, it } from 'vitest';
import { SUMMARY_FIELDS } from '../contract/sensor-summary.schema';
import { fieldPositions, readSummaryRow, withLatest } from './sensor-summary';
import { displayStatus } from './sensor-status';
import { latestLevelText } from './sensor-format';
import { sensorsCsv } from './sensor-csv';

const at = fieldPositions(SUMMARY_FIELDS);
const good: unknown[] = ['id-1', 'A1B2C3D4', 'Main Reservoir', -41.2, 174.8, true, 1700000000000, false, false, 80, 1699999990000, 1200, 3000, 0, 2000, { type: 'VOLUME_CYLINDER', diameter: 2 }];

describe('the compact list row (monitoring-client 2.4 at a fleet size; issue 36 item 12)', () => {
  it('reads a row into the parts of a sensor the list, status and CSV use', () => {
    const s = readSummaryRow(good, at)!;
    expect(s.invalid).toBeUndefined();
    expect(displayStatus(s)).toBe('OK');
    expect(latestLevelText(s, 'Metres')).toBe('1.800 m');
    expect(sensorsCsv([s]).split('\r\n')[1]).toBe('A1B2C3D4,Main Reservoir,90.0,5655,1.800,-41.200,174.800');
  });

  it('turns a bad value into N/A and names its field, keeping the rest of the row', () => {
    const bad = [...good];
    bad[at.battery] = 'low';
    bad[at.latitude] = '-41';
    bad[at.conversion] = { type: 'VOLUME_CYLINDER' };
    const s = readSummaryRow(bad, at)!;
    expect(s.invalid).toEqual(['latitude', 'battery', 'conversion']);
    expect(s.latitude).toBeNull();
    expect(s.latestData?.battery).toBeUndefined();
    expect(s.conversionConfigs).toEqual([]);
    expect(s.name).toBe('Main Reservoir');
    expect(latestLevelText(s, 'Metres')).toBe('1.800 m');
  });

  it('marks a row without a usable serial or name, and reads a server that sent fields in another order', () => {
    const bad = [...good];
    bad[at.serial] = 42;
    expect(readSummaryRow(bad, at)).toMatchObject({ serial: '', invalid: ['serial'] });
    expect(readSummaryRow('not a row', at)).toBeUndefined();
    const reversed = [...SUMMARY_FIELDS].reverse();
    const s = readSummaryRow([...good].reverse(), fieldPositions(reversed))!;
    expect(s).toMatchObject({ serial: 'A1B2C3D4', latestData: { battery: 80 } });
  });

  it('merges a live uplink into a new object, ignoring values of the wrong type', () => {
    const s = readSummaryRow(good, at)!;
    const next = withLatest(s, { alertAsserted: true, battery: 'x' as unknown as number, lastMeasurement: { time: 1700000000001, rawDistance: 1000 } });
    expect(next).not.toBe(s);
    expect(displayStatus(next)).toBe('ALERT');
    expect(next.latestData).toMatchObject({ battery: 80, lastMeasurement: { rawDistance: 1000 } });
  });
});
