import { describe, expect, it } from 'vitest';
import { cellularDbm, signalQuality, signalText } from './signal-quality';

describe('signal quality (monitoring-client 9)', () => {
  it('Sigfox: above -100 excellent, above -122 good, above -135 average, else limit', () => {
    expect([-99, -100, -121, -122, -134, -135].map((v) => signalQuality('sigfox', v))).toEqual(['EXCELLENT', 'GOOD', 'GOOD', 'AVERAGE', 'AVERAGE', 'LIMIT']);
  });
  it('cellular: above 20 excellent, above 10 good, above 5 average, else limit; 0 hidden', () => {
    expect([21, 20, 11, 10, 6, 5, 1].map((v) => signalQuality('cellular', v))).toEqual(['EXCELLENT', 'GOOD', 'GOOD', 'AVERAGE', 'AVERAGE', 'LIMIT', 'LIMIT']);
    expect(signalQuality('cellular', 0)).toBeUndefined();
  });
  it('WiFi: above -50 excellent, above -60 good, above -70 average, else limit', () => {
    expect([-49, -50, -59, -60, -69, -70].map((v) => signalQuality('wifi', v))).toEqual(['EXCELLENT', 'GOOD', 'GOOD', 'AVERAGE', 'AVERAGE', 'LIMIT']);
  });
  it('satellite radios and missing values have no grade', () => {
    expect(signalQuality('myriota', -90)).toBeUndefined();
    expect(signalQuality('wifi', undefined)).toBeUndefined();
  });
  it('cellular dBm = 2*(value-2)-109, with <= for 1, >= for 31 and value 0 hidden', () => {
    expect(cellularDbm(15)).toBe('-83 dBm');
    expect(cellularDbm(1)).toBe('<= -111 dBm');
    expect(cellularDbm(31)).toBe('>= -51 dBm');
    expect(cellularDbm(0)).toBeUndefined();
    expect(signalText('cellular', 0)).toBe('N/A');
    expect(signalText('sigfox', -110)).toBe('-110 dBm');
  });
});
