import { describe, expect, it } from 'vitest';
import { hardwareVersionText, moduleName, moduleOf, radioName, SENSOR_RANGE_MM, sensorTypeName } from './sensor-types';

describe('sensor types and modules (monitoring-client 3, sensor-setup 3)', () => {
  it('reads both spellings of every type', () => {
    expect(['LS1P', 'LS110M', 'LS1P20M', 'LS1R', 'LS1R12M', 'T35PRO', 'T35-Pro', 'ls1-r'].map(sensorTypeName)).toEqual([
      'LS1-P',
      'LS1-10M',
      'LS1-P-20M',
      'LS1-R',
      'LS1-R-12M',
      'T35-Pro',
      'T35-Pro',
      'LS1-R',
    ]);
  });
  it('maps modules: sonic LS1 and LS1-10M; pressure LS1-P and LS1-P-20M; radar LS1-R, T35, T35-Pro, LS1-R-12M', () => {
    expect(['LS1', 'LS1-10M'].map(moduleOf)).toEqual(['sonic', 'sonic']);
    expect(['LS1-P', 'LS1P20M'].map(moduleOf)).toEqual(['pressure', 'pressure']);
    expect(['LS1-R', 'T35', 'T35PRO', 'LS1-R-12M'].map(moduleOf)).toEqual(['radar', 'radar', 'radar', 'radar']);
  });
  it('shows N/A for an unrecognised sensor type', () => {
    expect(sensorTypeName('XK-9')).toBe('N/A');
    expect(moduleName('XK-9')).toBe('N/A');
    expect(sensorTypeName(undefined)).toBe('N/A');
  });
  it('keeps the per-type ranges in mm (sensor-setup 5)', () => {
    expect(SENSOR_RANGE_MM.LS1).toEqual({ min: 300, max: 5000 });
    expect(SENSOR_RANGE_MM['LS1-R-12M']).toEqual({ min: 500, max: 12000 });
    expect(SENSOR_RANGE_MM.T35).toEqual({ min: 200, max: 3600 });
  });
  it('maps hardware versions 9, 10, 11, 13 to 9.0, 9.1, 9.2, 9.4 and invalid ones to N/A', () => {
    expect([9, 10, 11, 13].map(hardwareVersionText)).toEqual(['9.0', '9.1', '9.2', '9.4']);
    expect([undefined, null, Number.NaN, -1].map(hardwareVersionText)).toEqual(['N/A', 'N/A', 'N/A', 'N/A']);
  });
  it('names radios with the Sigfox zone', () => {
    expect(radioName({ type: 'sigfox', zone: 4 })).toBe('Sigfox (zone 4)');
    expect(radioName({ type: 'myriota' })).toBe('Satellite (Myriota)');
  });
});
