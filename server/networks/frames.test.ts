import { describe, expect, it } from 'vitest';
import { decodeSigfoxDownlink, decodeSigfoxUplink, encodeSigfoxDownlink, encodeSigfoxUplink, FrameError, sigfoxMeasurements } from './sigfox-frame';
import { decodeMyriotaFrame, encodeMyriotaFrame, myriotaMeasurements } from './myriota-frame';

describe('the Sigfox frame codec (docs/device-protocol.md)', () => {
  it('decodes the documented worked example byte by byte', () => {
    // report: applied; error E3; battery 87; 10 minutes apart; 1234.50, 1236.00 mm, newest slot an error
    const f = decodeSigfoxUplink('33570A01E23A01E2D0FFFFFF');
    expect(f).toEqual({ report: { ok: true }, error: 'E3', battery: 87, spacingMinutes: 10, distances: [1234.5, 1236, null] });
    expect(encodeSigfoxUplink(f)).toBe('33570A01E23A01E2D0FFFFFF');
    expect(sigfoxMeasurements(f, 1_790_000_000_000)).toEqual({
      measurements: [
        { time: 1_790_000_000_000 - 20 * 60_000, rawDistance: 1234.5 },
        { time: 1_790_000_000_000 - 10 * 60_000, rawDistance: 1236 },
      ],
      errors: [{ time: 1_790_000_000_000, code: 'E3' }],
    });
  });
  it('refuses frames of the wrong length, version, battery or spacing with a reason', () => {
    expect(() => decodeSigfoxUplink('00')).toThrow(FrameError);
    expect(() => decodeSigfoxUplink('40570A' + 'FFFFFF'.repeat(3))).toThrow(/version 1/);
    expect(() => decodeSigfoxUplink('00650A' + 'FFFFFF'.repeat(3))).toThrow(/Battery 101%/);
    expect(() => decodeSigfoxUplink('005700' + 'FFFFFF'.repeat(3))).toThrow(/minutes between/);
  });
  it('round-trips every downlink type it carries, and refuses the ones that do not fit', () => {
    const tasks = [
      { type: 'SensorConfig', params: { measurementInterval: 1439, measurementsPerTransmission: 12, maxGradient: 4700, deltaCompressionEnabled: false } },
      { type: 'AlarmConfig', params: { index: 7, value: { type: 'DELTA_DECREASING', enabled: true, threshold: 250.5 } } },
      { type: 'RadarConfig', params: { debugInterval: 255, scoreSize: 1.25, scoreReflection: 3.5, gain: 0.5, profile: 5, scoringMethod: 2, checkTooClose: true } },
      { type: 'RadarConfig', params: { debugInterval: 0, scoreSize: 0, scoreReflection: 4, gain: 1, profile: 1, hwAvg: 63, checkTooClose: false } },
      { type: 'ExtendedConfig', params: { txCountOnAlarm: 6, userRangeEnabled: true, userRangeMin: 100, userRangeMax: 20000 } },
      { type: 'TransmissionConfig', params: { additionalRadarDataEnabled: true, startingLevelMm: null } },
      { type: 'TransmissionConfig', params: { additionalRadarDataEnabled: false, startingLevelMm: 9999 } },
    ];
    for (const t of tasks) {
      const hex = encodeSigfoxDownlink(t);
      expect(hex).toMatch(/^[0-9A-F]{16}$/);
      expect(decodeSigfoxDownlink(hex)).toEqual(t);
    }
    expect(encodeSigfoxDownlink(tasks[0])).toBe('01059F0CB7980000');
    // the worked example of docs/device-protocol.md
    expect(decodeSigfoxDownlink('01000F0409C90100')).toEqual({ type: 'SensorConfig', params: { measurementInterval: 15, measurementsPerTransmission: 4, maxGradient: 250.5, deltaCompressionEnabled: true } });
    expect(() => encodeSigfoxDownlink({ type: 'FullRadarConfig', params: {} })).toThrow(/does not fit/);
    expect(() => decodeSigfoxDownlink('0900000000000000')).toThrow(/Unknown downlink type 9/);
  });
});

describe('the Myriota frame codec (docs/device-protocol.md)', () => {
  it('decodes the documented worked example and round-trips 6- and 8-character serials', () => {
    const hex = '00A1B2C3D442003C' + 'FFFFFF' + '0249F0' + '024DD8' + '0251C0';
    const f = decodeMyriotaFrame(hex);
    expect(f).toEqual({ serial: 'A1B2C3D4', battery: 66, spacingMinutes: 60, distances: [null, 1500, 1510, 1520] });
    expect(encodeMyriotaFrame(f)).toBe(hex);
    const short = { serial: '00ABCD', error: 'E12', spacingMinutes: 1440, distances: [1, 2, 3, 4] as [number, number, number, number] };
    expect(decodeMyriotaFrame(encodeMyriotaFrame(short))).toEqual(short);
    expect(myriotaMeasurements(f, 1_000_000_000).measurements.map((m) => m.time)).toEqual([1_000_000_000 - 120 * 60_000, 1_000_000_000 - 60 * 60_000, 1_000_000_000]);
  });
  it('refuses a frame of the wrong length or with a bad field', () => {
    expect(() => decodeMyriotaFrame('00')).toThrow(/40 hexadecimal characters/);
    expect(() => decodeMyriotaFrame('20FFFFFFFF6400' + '3C' + 'FFFFFF'.repeat(4))).toThrow(/6-character serial/);
    expect(() => decodeMyriotaFrame('00A1B2C3D464' + '0000' + 'FFFFFF'.repeat(4))).toThrow(/minutes between/);
  });
});
