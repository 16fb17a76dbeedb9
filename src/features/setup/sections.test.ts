import { describe, expect, it } from 'vitest';
import type { Sensor } from '../../contract/sensor.schema';
import type { SectionContext } from './section-types';
import { SETUP_SECTIONS } from './sections';

// Which sections a sensor shows (DESIGN.md "Sensor setup"; sensor-setup 2).
const sensor = (sensorType: string): Sensor => ({
  id: 's', serial: 'S', name: 'n', sensorType, organisationId: 'o', latitude: null, longitude: null, radio: { type: 'cellular' }, alarms: {},
  conversionConfigs: [], displayInfo: { referenceLines: [] }, config: { schedulerEnabled: true, measurementInterval: 5, transmissionInterval: 30 }, latestData: null, latestBootInfo: null,
});
const shown = (ctx: SectionContext) => SETUP_SECTIONS.filter((s) => s.visible(ctx)).map((s) => s.id);

describe('setup sections shown', () => {
  it('display, update rate, alarms, location and remote for every sensor; tank for the T35 family only; radar for site admins on radar sensors', () => {
    expect(shown({ sensor: sensor('LS1'), isManager: true, isSiteAdmin: false, hasFuelInstall: false, production: false })).toEqual(['display', 'update-rate', 'alarms', 'location', 'remote', 'integration']);
    expect(shown({ sensor: sensor('T35-Pro'), isManager: true, isSiteAdmin: false, hasFuelInstall: false, production: false })[0]).toBe('tank');
    expect(shown({ sensor: sensor('T35-Pro'), isManager: true, isSiteAdmin: true, hasFuelInstall: false, production: false })).toContain('radar');
    expect(shown({ sensor: sensor('LS1'), isManager: true, isSiteAdmin: true, hasFuelInstall: false, production: false })).not.toContain('radar');
  });
  it('integration for managers and site admins; installation only with a fuel record, undecided while it loads', () => {
    expect(shown({ sensor: sensor('LS1'), isManager: false, isSiteAdmin: true, hasFuelInstall: true, production: false })).toEqual(['display', 'update-rate', 'alarms', 'location', 'remote', 'integration', 'installation']);
    expect(shown({ sensor: sensor('LS1'), isManager: false, isSiteAdmin: false, hasFuelInstall: false, production: false })).not.toContain('integration');
    const installation = SETUP_SECTIONS.find((s) => s.id === 'installation')!;
    expect(installation.visible({ sensor: sensor('LS1'), isManager: true, isSiteAdmin: false, hasFuelInstall: undefined, production: false })).toBeUndefined();
  });
  it('radar is hidden in the production stage, even for site admins on radar sensors (sensor-setup 2)', () => {
    const site = { sensor: sensor('T35-Pro'), isManager: true, isSiteAdmin: true, hasFuelInstall: false };
    expect(shown({ ...site, production: false })).toContain('radar');
    expect(shown({ ...site, production: true })).toEqual(['tank', 'display', 'update-rate', 'alarms', 'location', 'remote', 'integration']);
  });
  it('the forecast alarm (beyond the spec) for a sensor with a tank volume conversion only', () => {
    const tank = { ...sensor('T35'), conversionConfigs: [{ type: 'VOLUME_CYLINDER', diameter: 2 }] } as Sensor;
    const weir = { ...sensor('LS1'), conversionConfigs: [{ type: 'WEIR_FLOW_VN', width: 1, flowCoefficient: 1.38, n: 2.5 }] } as Sensor;
    expect(shown({ sensor: tank, isManager: true, isSiteAdmin: false, hasFuelInstall: false, production: false })).toEqual(['tank', 'display', 'update-rate', 'alarms', 'forecast', 'location', 'remote', 'integration']);
    expect(shown({ sensor: weir, isManager: true, isSiteAdmin: false, hasFuelInstall: false, production: false })).not.toContain('forecast');
  });
  it('has one entry per id', () => expect(new Set(SETUP_SECTIONS.map((s) => s.id)).size).toBe(SETUP_SECTIONS.length));
});
