import { describe, expect, it } from 'vitest';
import { axisLabel, chartModes, guidesOf, padRange, unitOf, yRange } from './chart-scales';

const sensor = (conversionConfigs: never[] | { type: string; [k: string]: unknown }[], displayInfo = {}) =>
  ({ conversionConfigs, displayInfo: { referenceLines: [], offsetMeasurement: 3000, ...displayInfo } }) as never;

describe('chart data modes (monitoring-client 4: the default follows the first conversion config)', () => {
  it('weir or flume gives Flow Rate, a volume type gives Water Volume, else Water Level', () => {
    expect(chartModes(sensor([{ type: 'WEIR_FLOW_SCR', width: 1, flowCoefficient: 1.84, n: 1.5 }]))).toEqual(['flow', 'level']);
    expect(chartModes(sensor([{ type: 'WEIR_FLOW_VN', width: 1, flowCoefficient: 1.38, n: 2.5 }]))).toEqual(['flow', 'level']);
    expect(chartModes(sensor([{ type: 'PARSHALL_FLUME', x: 176.5, y: 1.547 }]))).toEqual(['flow', 'level']);
    expect(chartModes(sensor([{ type: 'VOLUME_CYLINDER', diameter: 3 }]))).toEqual(['volume', 'level']);
    expect(chartModes(sensor([{ type: 'VOLUME_RECTANGULAR', width: 1, length: 2 }]))).toEqual(['volume', 'level']);
    expect(chartModes(sensor([]))).toEqual(['level']);
  });

  it('units: metres or inches for level, l/s for flow, l for volume (monitoring-client 9)', () => {
    expect(unitOf('level', 'Metres')).toBe('m');
    expect(unitOf('level', 'Inches')).toBe('in');
    expect(unitOf('flow', 'Metres')).toBe('l/s');
    expect(unitOf('volume', 'Inches')).toBe('l');
    expect(axisLabel('flow', 'Metres', sensor([{ type: 'WEIR_FLOW_SCR', width: 1, flowCoefficient: 1.84, n: 1.5 }]))).toBe('Flow Rate (l/s)');
  });
});

describe('Y padding (monitoring-client 9)', () => {
  it('pads by 1 percent of the range', () => {
    expect(padRange(1, 3)).toEqual([0.98, 3.02]);
  });
  it('widens by 0.3 each side when min equals max', () => {
    expect(padRange(2.5, 2.5)).toEqual([2.2, 2.8]);
  });
  it('Y-axis zoom fits the data; without it zero, limits and reference lines are in view', () => {
    const guides = [{ value: 5.8, label: 'Overflow', color: 'orange', dashed: false }];
    expect(yRange(2, 3, true, guides)).toEqual(padRange(2, 3));
    expect(yRange(2, 3, false, guides)).toEqual(padRange(0, 5.8));
    const limit = { value: 5000, label: 'Max level', color: 'grey', dashed: true };
    expect(yRange(100, 200, false, [limit], true)).toEqual(padRange(0, 5000));
    expect(yRange(100, 200, false, [limit], false)).toEqual(padRange(0, 200));
  });
});

describe('reference lines and display limits in the chart unit', () => {
  it('converts levels in mm to metres, inches and through the conversion', () => {
    const s = sensor([{ type: 'VOLUME_CYLINDER', diameter: 2 }], { minLevel: 0, maxLevel: 2000, referenceLines: [{ value: 500, label: 'Reorder', color: '#f00' }] });
    expect(guidesOf('level', 'Metres', s).map((g) => [g.label, g.value])).toEqual([
      ['Reorder', 0.5],
      ['Max level', 2],
      ['Min level', 0],
    ]);
    expect(guidesOf('level', 'Inches', s)[0].value).toBeCloseTo(0.5 / 0.0254, 9);
    // a 2 m cylinder holds pi litres per mm of depth
    expect(guidesOf('volume', 'Metres', s)[0].value).toBeCloseTo(Math.PI * 500, 6);
  });
});
