import { describe, expect, it } from 'vitest';
import { applyDownlink, dueUplinks, markSent, radioFrames, type VirtualSensor } from './virtual-sensor';
import { FULL_RADAR_DEFAULTS } from '../../src/domain/task-params';
import { DEMO_SENSORS, modelFor } from '../seed/demo-sensors';

const MIN = 60_000;
const T0 = Date.UTC(2026, 3, 1);

function device(sensorType: string): VirtualSensor {
  return {
    id: 'd',
    serial: 'ABCDEF',
    sensorType,
    radio: 'cellular',
    key: 'k',
    model: modelFor(DEMO_SENSORS[0], T0 - 1440 * MIN),
    measurementMs: 15 * MIN,
    transmissionMs: 60 * MIN,
    lastSlot: T0 - 15 * MIN,
    lastTx: T0,
    nextTx: T0,
    battery: 90,
    signalBase: undefined,
    boot: { firmwareVersion: 72, hardwareVersion: 13 },
    booted: true,
    applied: [],
    txCount: 0,
    failures: 0,
  };
}

describe('virtual sensor radar settings (the Radar Config screen shows what the device runs)', () => {
  it('a radar device reports its radar settings with its boot info, factory defaults until a FullRadarConfig changes them', () => {
    const v = device('LS1-R');
    const [first] = dueUplinks(v, T0);
    expect(first.uplink.bootInfo).toEqual(v.boot);
    expect(first.uplink.radarSettings).toEqual({ ...FULL_RADAR_DEFAULTS, length: 3.3 });
    markSent(v, first, T0);
    expect(dueUplinks(v, T0 + 15 * MIN)[0].uplink.radarSettings).toBeUndefined(); // only once after a start or boot

    const params = { ...FULL_RADAR_DEFAULTS, gain: 0.6, length: 3.3 };
    expect(applyDownlink(v, { id: 't', type: 'FullRadarConfig', params }, undefined)).toBe(true);
    v.booted = true; // e.g. a firmware upgrade restarts it
    expect(dueUplinks(v, T0 + 30 * MIN)[0].uplink.radarSettings).toEqual(params);
  });

  it('a device started by the simulator (not booted) reports the radar settings it keeps once, with its first uplink', () => {
    const v = { ...device('LS1-R-12M'), booted: false, radar: { ...FULL_RADAR_DEFAULTS, gain: 0.45, length: 3.3 } };
    const [first] = dueUplinks(v, T0);
    expect(first.uplink.bootInfo).toBeUndefined();
    expect(first.uplink.radarSettings?.gain).toBe(0.45);
    markSent(v, first, T0);
    expect(dueUplinks(v, T0 + 15 * MIN)[0].uplink.radarSettings).toBeUndefined();
  });

  it('a sonic device has no radar: it refuses the task and reports no radar settings', () => {
    const v = device('LS1');
    expect(dueUplinks(v, T0)[0].uplink.radarSettings).toBeUndefined();
    expect(applyDownlink(v, { id: 't', type: 'FullRadarConfig', params: { ...FULL_RADAR_DEFAULTS } }, undefined)).toBe(false);
  });
});

describe('radioFrames: an uplink cut into a narrow-band radio\'s fixed frames', () => {
  const m = (k: number, raw: number) => ({ time: T0 + k * 15 * MIN, rawDistance: raw });
  it('fills frames of 3 slots oldest first, ending each at its newest slot; the rest goes in a last, shorter frame', () => {
    const frames = radioFrames({ measurements: [m(0, 100), m(1, 101), m(2, 102), m(3, 103)], errors: [] }, 15 * MIN, 3);
    expect(frames).toEqual([
      { time: T0 + 2 * 15 * MIN, spacingMinutes: 15, distances: [100, 101, 102] },
      { time: T0 + 3 * 15 * MIN, spacingMinutes: 15, distances: [null, null, 103] },
    ]);
  });
  it('ends a frame at an error (a frame carries one, in its newest slot) and at a gap', () => {
    const frames = radioFrames({ measurements: [m(0, 100), m(2, 102), m(5, 105)], errors: [{ time: T0 + 15 * MIN, code: 'E2' }] }, 15 * MIN, 4);
    expect(frames).toEqual([
      { time: T0 + 15 * MIN, spacingMinutes: 15, distances: [null, null, 100, null], error: 'E2' },
      { time: T0 + 2 * 15 * MIN, spacingMinutes: 15, distances: [null, null, null, 102] },
      { time: T0 + 5 * 15 * MIN, spacingMinutes: 15, distances: [null, null, null, 105] },
    ]);
  });
  it('keeps every slot of a day of buffered measurements, none twice', () => {
    const measurements = Array.from({ length: 96 }, (_, k) => m(k, 1000 + k));
    const frames = radioFrames({ measurements, errors: [] }, 15 * MIN, 3);
    expect(frames).toHaveLength(32);
    const back = frames.flatMap((f) => f.distances.map((d, j) => (d === null ? null : { time: f.time - (2 - j) * 15 * MIN, rawDistance: d }))).filter((x) => x !== null);
    expect(back).toEqual(measurements);
  });
});
