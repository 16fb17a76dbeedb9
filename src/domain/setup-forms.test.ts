import { describe, expect, it } from 'vitest';
import type { Sensor } from '../contract/sensor.schema';
import { displayFormOf, displayFormToBody, withConversion, withOffset } from './display-form';
import { cylinderDiameterM, defaultSetupSection, tankFormFromPreset, tankFormOf, tankFormToBody } from './tank-form';
import { alarmFormOf, alarmFormToBody } from './alarm-form';
import { parseLatLng, positionText } from './location';
import { nameProblem } from './sensor-settings';
import { SETUP_RULES, TANK_MESSAGES } from './setup-messages';

const sensor = (over: Partial<Sensor> = {}): Sensor => ({
  id: 's1', serial: 'AA000001', name: 'Weir', sensorType: 'LS1-10M', organisationId: 'o', latitude: null, longitude: null, radio: { type: 'cellular' },
  alarms: {}, conversionConfigs: [], displayInfo: { offsetMeasurement: 3000, minLevel: 0, maxLevel: 1500, referenceLines: [] },
  config: { schedulerEnabled: true, measurementInterval: 5, transmissionInterval: 30 }, latestData: null, latestBootInfo: null, ...over,
});

describe('sensor name (sensor-setup 5)', () => {
  it.each([
    ['', 'empty'], ['   ', 'empty'], ['x'.repeat(101), 'tooLong'], [' Tank', 'leadingSpace'], ['Tank/2', 'badCharacters'], ['Tank "A"', 'badCharacters'],
  ])('%j is %s', (name, problem) => expect(nameProblem(name)).toBe(problem));
  it("allows letters, digits, space and ' - _ # & [ ] ( ) < > .", () => expect(nameProblem("Tāne's Tank-2_#3 & [a] (b) <c>.")).toBeUndefined());
});

describe('display settings form (sensor-setup 4, 5)', () => {
  it('reads metres and writes millimetres, with a new reference line and a weir', () => {
    const f = withConversion({ ...displayFormOf(sensor(), 'Metres'), referenceLines: [{ label: 'Label', value: '0.8', color: '#21A1DB' }] }, true);
    expect(f.conversionType).toBe('WEIR_FLOW_SCR');
    const { body, errors } = displayFormToBody({ ...f, conversion: { ...f.conversion, width: '1.2', flowCoefficient: '1.84' } }, 'Metres', sensor());
    expect(errors).toEqual({});
    expect(body.displayInfo).toEqual({ offsetMeasurement: 3000, minLevel: 0, maxLevel: 1500, referenceLines: [{ label: 'Label', value: 800, color: '#21A1DB' }] });
    expect(body.conversionConfigs).toEqual([{ type: 'WEIR_FLOW_SCR', width: 1.2, flowCoefficient: 1.84, n: 1.5 }]);
  });
  it('turning the offset off clears it and the limits; the body then carries none', () => {
    const f = withOffset(displayFormOf(sensor(), 'Metres'), false);
    expect(f).toMatchObject({ offset: '', minLevel: '', maxLevel: '' });
    expect(displayFormToBody(f, 'Metres', sensor()).body.displayInfo).toMatchObject({ offsetMeasurement: null, minLevel: null, maxLevel: null });
  });
  it('shows each broken rule under its field', () => {
    const f = displayFormOf(sensor(), 'Metres');
    const { errors } = displayFormToBody(
      { ...f, offset: '', maxLevel: '', referenceLines: [{ label: 'x'.repeat(61), value: '1.2345', color: '#21A1DB' }], conversionEnabled: true, conversionType: 'VOLUME_CYLINDER', conversion: { ...f.conversion, diameter: '101' } },
      'Metres',
      sensor(),
    );
    expect(errors).toMatchObject({
      offset: SETUP_RULES.OFFSET_EMPTY,
      maxLevel: SETUP_RULES.MAX_LEVEL_MISSING,
      'referenceLines.0.value': SETUP_RULES.VALUE_DECIMALS,
      'referenceLines.0.label': SETUP_RULES.LABEL_TOO_LONG,
      'conversion.diameter': SETUP_RULES.DIAMETER_TOO_BIG,
    });
  });
});

describe('tank form (sensor-setup 5)', () => {
  const tank = sensor({ sensorType: 'T35', conversionConfigs: [{ type: 'VOLUME_CYLINDER', diameter: 3.6 }], displayInfo: { offsetMeasurement: 2800, minLevel: 0, maxLevel: 2600, referenceLines: [] } });
  it('opens on tank for a T35 with a cylinder volume, else display', () => {
    expect(defaultSetupSection(tank)).toBe('tank');
    expect(defaultSetupSection({ ...tank, conversionConfigs: [] })).toBe('display');
    expect(defaultSetupSection({ ...tank, sensorType: 'LS1' })).toBe('display');
  });
  it('converts a volume to a cylinder diameter rounded to 2 decimals', () => {
    expect(cylinderDiameterM(30_000, 2.6)).toBe(3.83);
    const { body, errors } = tankFormToBody({ ...tankFormOf(tank, 'Metres'), mode: 'volume', volume: '30000' }, 'Metres', tank);
    expect(errors).toEqual({});
    expect(body.conversionConfigs).toEqual([{ type: 'VOLUME_CYLINDER', diameter: 3.83 }]);
  });
  it('uses its own wording', () => {
    const f = tankFormOf(tank, 'Metres');
    expect(tankFormToBody({ ...f, name: '', height: '4', depth: '4' }, 'Metres', tank).errors).toEqual({
      name: TANK_MESSAGES.nameRequired,
      height: 'Your HiLo sensor can only read up to a depth of 3.6m',
      depth: TANK_MESSAGES.depthBelowHeight,
    });
    expect(tankFormToBody({ ...f, mode: 'volume', volume: '0.5' }, 'Metres', tank).errors).toEqual({ volume: TANK_MESSAGES.volumePositive });
    expect(tankFormToBody({ ...f, diameter: '21' }, 'Metres', tank).errors).toEqual({ diameter: TANK_MESSAGES.tooBig });
  });
  it('a cylinder preset fills height, depth and diameter', () => {
    const f = tankFormFromPreset(tankFormOf(tank, 'Metres'), { id: 'p', manufacturer: 'Devan', model: 'Rural', shape: 'VOLUME_CYLINDER', diameter: 3.6, height: 3, width: null, length: null, safeFillLevel: null }, 'Metres');
    expect(f).toMatchObject({ height: '3', depth: '2.85', mode: 'diameter', diameter: '3.6' });
  });
});

describe('satellite alarms form (sensor-setup 4, 5)', () => {
  const sat = sensor({ sensorType: 'LS1-P', radio: { type: 'myriota' }, displayInfo: { offsetMeasurement: 9500, referenceLines: [] }, alarms: { '0': { type: 'THRESHOLD_DECREASING', threshold: 3000, enabled: true } } });
  it('requires a threshold when enabled and orders low below high', () => {
    const f = alarmFormOf(sat, 'Metres').map((r) => (r.type === 'THRESHOLD_INCREASING' ? { ...r, enabled: true } : r));
    expect(alarmFormToBody(f, 'Metres', sat).errors).toEqual({ THRESHOLD_INCREASING: SETUP_RULES.THRESHOLD_REQUIRED });
    const g = f.map((r) => (r.type === 'THRESHOLD_INCREASING' ? { ...r, threshold: '2' } : r));
    expect(alarmFormToBody(g, 'Metres', sat).errors).toEqual({ THRESHOLD_DECREASING: SETUP_RULES.LOW_ABOVE_HIGH_DEPTH, THRESHOLD_INCREASING: SETUP_RULES.HIGH_BELOW_LOW_DEPTH });
    const h = f.map((r) => (r.type === 'THRESHOLD_INCREASING' ? { ...r, threshold: '8.5' } : r));
    expect(alarmFormToBody(h, 'Metres', sat)).toEqual({ errors: {}, body: { alarms: { ...sat.alarms, '1': { type: 'THRESHOLD_INCREASING', threshold: 8500, enabled: true } } } });
  });
});

describe('typed coordinates (sensor-setup 2, 5)', () => {
  it.each([['-41.2889, 174.7772', true], ['-85.05115,180', true], ['85.1, 0', false], ['-85.06, 0', false], ['0, 180.01', false], ['abc', false], ['1,2,3', false]])('%j legal: %s', (text, ok) =>
    expect(parseLatLng(text) !== undefined).toBe(ok));
  it('reads out 6 decimals', () => expect(positionText({ latitude: -41.2889, longitude: 174.7772 })).toBe('-41.288900, 174.777200'));
});

describe('tank form keeps the sensor conversion type (sensor-setup 2, 5; issue 36 item 2)', () => {
  const horizontal = sensor({ sensorType: 'T35-Pro', conversionConfigs: [{ type: 'VOLUME_CYLINDER_HORIZONTAL', diameter: 2.4, length: 4.6 }], displayInfo: { offsetMeasurement: 2600, minLevel: 0, maxLevel: 2400, referenceLines: [] } });
  it('a rename of a horizontal cylinder saves with its diameter and length as they were', () => {
    const f = tankFormOf(horizontal, 'Metres');
    expect(f).toMatchObject({ shape: 'VOLUME_CYLINDER_HORIZONTAL', diameter: '2.4', length: '4.6' });
    const { body, errors } = tankFormToBody({ ...f, name: 'Diesel Depot Tank 1A' }, 'Metres', horizontal);
    expect(errors).toEqual({});
    expect(body.conversionConfigs).toEqual([{ type: 'VOLUME_CYLINDER_HORIZONTAL', diameter: 2.4, length: 4.6 }]);
  });
  it('a new diameter keeps the horizontal cylinder and its length; a blank length is refused with the length rule', () => {
    const f = tankFormOf(horizontal, 'Metres');
    expect(tankFormToBody({ ...f, diameter: '2.5' }, 'Metres', horizontal).body.conversionConfigs).toEqual([{ type: 'VOLUME_CYLINDER_HORIZONTAL', diameter: 2.5, length: 4.6 }]);
    expect(tankFormToBody({ ...f, length: '' }, 'Metres', horizontal).errors).toEqual({ length: SETUP_RULES.LENGTH_REQUIRED });
  });
  it('a rectangular tank keeps width and length', () => {
    const rect = { ...horizontal, conversionConfigs: [{ type: 'VOLUME_RECTANGULAR' as const, width: 2, length: 3 }] };
    const { body, errors } = tankFormToBody({ ...tankFormOf(rect, 'Metres'), width: '2.2' }, 'Metres', rect);
    expect(errors).toEqual({});
    expect(body.conversionConfigs).toEqual([{ type: 'VOLUME_RECTANGULAR', width: 2.2, length: 3 }]);
  });
  it('a conversion the form does not edit (a weir) is sent back unchanged', () => {
    const weir = { ...horizontal, conversionConfigs: [{ type: 'WEIR_FLOW_SCR' as const, width: 1.5, flowCoefficient: 1.84, n: 1.5 }] };
    const f = tankFormOf(weir, 'Metres');
    expect(f.shape).toBe('other');
    const { body, errors } = tankFormToBody({ ...f, name: 'Renamed' }, 'Metres', weir);
    expect(errors).toEqual({});
    expect(body.conversionConfigs).toEqual(weir.conversionConfigs);
  });
});
