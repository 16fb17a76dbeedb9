import { describe, expect, it } from 'vitest';
import type { Sensor } from '../contract/sensor.schema';
import { neutraliseCell, sensorsCsv, sensorsCsvName } from './sensor-csv';

const sensor = (over: Partial<Sensor>): Sensor => ({
  id: 'id',
  serial: '2B3C4D5E',
  name: 'Stock Tank North',
  sensorType: 'T35',
  organisationId: 'o',
  latitude: -37.687654,
  longitude: 176.16789,
  radio: { type: 'cellular' },
  alarms: {},
  conversionConfigs: [{ type: 'VOLUME_CYLINDER', diameter: 2 }],
  displayInfo: { offsetMeasurement: 3000, minLevel: 0, maxLevel: 2000, referenceLines: [] },
  config: { schedulerEnabled: true, measurementInterval: 5, transmissionInterval: 15 },
  latestData: { lastMeasurement: { time: 1, rawDistance: 2000 } },
  latestBootInfo: null,
  ...over,
});

describe('organisation sensor CSV (monitoring-client 7)', () => {
  it('holds serial, name, level percent, volume in litres, level in metres, lat and lng to 3 decimals', () => {
    const [header, row] = sensorsCsv([sensor({})]).trim().split('\r\n');
    expect(header).toBe('Serial,Name,Level (%),Volume (L),Level (m),Latitude,Longitude');
    expect(row).toBe('2B3C4D5E,Stock Tank North,50.0,3142,1.000,-37.688,176.168');
  });
  it('leaves cells empty that a sensor cannot fill', () => {
    const [, row] = sensorsCsv([sensor({ latestData: null, latitude: null, longitude: null })]).trim().split('\r\n');
    expect(row).toBe('2B3C4D5E,Stock Tank North,,,,,');
  });
  it('neutralises cells starting with = + - @ tab or CR, and quotes commas', () => {
    expect(['=1+1', '+x', '-x', '@x', '\tx', '\rx', 'ok'].map(neutraliseCell)).toEqual(["'=1+1", "'+x", "'-x", "'@x", "'\tx", "'\rx", 'ok']);
    const [, row] = sensorsCsv([sensor({ name: '=HYPERLINK("x"), tank' })]).trim().split('\r\n');
    expect(row.split(',')[1]).toBe('"\'=HYPERLINK(""x"")');
  });
  it("is named with the organisation name and the date in the organisation's zone", () => {
    const t = Date.UTC(2026, 0, 5, 20, 0); // 5 January 20:00 UTC is already 6 January in Auckland
    expect(sensorsCsvName('Riverbend Water', t, 'Pacific/Auckland')).toBe('Riverbend Water sensors 2026-01-06.csv');
    expect(sensorsCsvName('Riverbend Water', t, 'America/New_York')).toBe('Riverbend Water sensors 2026-01-05.csv');
  });
});
