import { describe, expect, it } from 'vitest';
import type { Sensor } from '../../src/contract/sensor.schema';
import { alarmFormOf, alarmFormToBody } from '../../src/domain/alarm-form';
import { displayFormOf, displayFormToBody } from '../../src/domain/display-form';
import { integrationRulesSchema } from '../../src/domain/sensor-settings';
import { isTankFamily, tankFormOf, tankFormToBody } from '../../src/domain/tank-form';
import { alarmsInForce, alarmValueError } from '../../src/domain/task-params';
import { scheduleErrors } from '../../src/domain/update-rate';
import { DEMO_SENSORS, modelFor } from './demo-sensors';
import { demoSetup } from './seed-sensors';

/**
 * The demo world respects the product's own rules (issue 36 item 9): every demo sensor's settings,
 * as the seed stores them, pass the validators the setup forms use, so no setup screen of the demo
 * opens in an error state.
 */
const sensors = DEMO_SENSORS.map((def) => {
  const setup = demoSetup(def);
  const alarms = typeof def.alarms === 'function' ? def.alarms(modelFor(def, Date.UTC(2026, 0, 1))) : (def.alarms ?? {});
  const sensor: Sensor = {
    id: def.serial, serial: def.serial, name: def.name, sensorType: def.type, organisationId: 'o', latitude: def.lat, longitude: def.lng, radio: def.radio,
    alarms, conversionConfigs: setup.conversionConfigs, displayInfo: setup.displayInfo, config: setup.config, latestData: null, latestBootInfo: null,
  };
  return [def.serial, sensor, setup] as const;
});

describe.each(sensors)('demo sensor %s', (_serial, sensor, setup) => {
  it('its schedule passes the update-rate rules (intervals, measurements per transmission, alarm mode)', () => {
    const c = sensor.config;
    expect(
      scheduleErrors({
        radio: sensor.radio.type, currentMeasurement: c.measurementInterval, measurementInterval: c.measurementInterval, transmissionInterval: c.transmissionInterval,
        deltaCompressionEnabled: c.deltaCompressionEnabled, maxGradient: 150, txCountOnAlarm: c.txCountOnAlarm,
      }),
    ).toEqual({});
  });
  it('its display settings form saves as it opens, in metres and in inches', () => {
    for (const unit of ['Metres', 'Inches'] as const) expect(displayFormToBody(displayFormOf(sensor, unit), unit, sensor).errors).toEqual({});
  });
  // a tank sensor without a conversion (a factory-fresh unclaimed one) opens the tank form asking for its measurements
  it.runIf(isTankFamily(sensor.sensorType) && sensor.conversionConfigs.length > 0)('its tank form saves as it opens, keeping the conversion', () => {
    const { body, errors } = tankFormToBody(tankFormOf(sensor, 'Metres'), 'Metres', sensor);
    expect(errors).toEqual({});
    expect(body.conversionConfigs).toEqual(sensor.conversionConfigs);
  });
  it('its alarms pass the alarm rules (the satellite form, or the remote alarm task rules)', () => {
    if (sensor.radio.type === 'myriota') expect(alarmFormToBody(alarmFormOf(sensor, 'Metres'), 'Metres', sensor).errors).toEqual({});
    for (const [index, a] of Object.entries(sensor.alarms)) {
      const others = alarmsInForce(sensor.alarms, [], Number(index));
      expect(alarmValueError(a, { sensorType: sensor.sensorType, offset: sensor.displayInfo.offsetMeasurement }, others), `alarm ${index}`).toBeNull();
    }
  });
  it('its integration settings pass the integration rules', () => {
    expect(integrationRulesSchema.safeParse(setup.integration).success).toBe(true);
  });
});
