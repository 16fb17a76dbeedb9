import { createHash } from 'node:crypto';
import type { Alarm, ConversionConfig, ForecastAlarm } from '../../src/contract/sensor.schema';
import { levelAt, type SignalModel, type SignalSpec } from '../../src/domain/signals';
import type { OrgKey } from './demo-people';

/** Allowed raw distance per sensor type in mm (sensor-setup 5). */
export const TYPE_RANGE: Record<string, [number, number]> = {
  LS1: [300, 5000],
  'LS1-P': [10, 10000],
  'LS1-10M': [500, 10000],
  T35: [200, 3600],
  'T35-Pro': [200, 7000],
  'LS1-R': [200, 7000],
  'LS1-P-20M': [10, 20000],
  'LS1-R-12M': [500, 12000],
};
const RADAR = new Set(['LS1-R', 'T35', 'T35-Pro', 'LS1-R-12M']);
const PRESSURE = new Set(['LS1-P', 'LS1-P-20M']);

export interface DemoSensor {
  serial: string;
  name: string;
  type: keyof typeof TYPE_RANGE;
  radio: { type: 'cellular' | 'wifi' | 'myriota' | 'sigfox'; zone?: 1 | 4; carrier?: 'Spark' | 'Vodafone' };
  org: OrgKey | null;
  claimCode?: string;
  /** Minutes. */
  measurementInterval: number;
  transmissionInterval: number;
  schedulerEnabled?: boolean;
  offsetMm: number;
  minLevel?: number;
  maxLevel?: number;
  referenceLines?: { value: number; label: string; color: string }[];
  conversion?: ConversionConfig;
  /**
   * Thresholds are millimetres of level like minLevel and maxLevel (the alarm engine's units);
   * deltas are mm of level change per hour; a level outside minLevel..maxLevel is a water-level alarm.
   */
  alarms?: Record<string, Alarm> | ((m: SignalModel) => Record<string, Alarm>);
  /** Beyond the spec: the forecast alarm (src/domain/forecast-alarm.ts), judged by the server once it runs. */
  forecastAlarm?: ForecastAlarm;
  lat: number;
  lng: number;
  boot: { hardwareVersion: 9 | 10 | 11 | 13; firmwareVersion: number; sensorVersion: number; buildType?: 'Alpha' | 'Beta' | 'Production' };
  battery: number;
  /** Radio signal as the device reports it: CSQ 0-31 on cellular, dBm on wifi and sigfox. */
  signal?: number;
  pointId?: string;
  commissioningStatus: 1 | 2 | 3 | 4 | 5;
  spec: SignalSpec;
  seed: number;
  /** The history stops this many minutes before seeding (offline or switched-off sensors). */
  silentForMin?: number;
  /** Outages in the history: no measurements for `hours` starting `daysAgo` days before seeding. */
  gaps?: { daysAgo: number; hours: number }[];
}

const BLUE = '#21A1DB';
const ORANGE = '#F59F00';
const GREEN = '#40C057';
const rain = (perDay: number, meanMm: number, peakHours: [number, number], recessionDays: number, quietDays?: number) => ({ perDay, meanMm, peakHours, recessionDays, slowShare: 0.3, quietDays });

/** The sensors of the demo world (preamble item 8): every type and radio, three unclaimed. */
export const DEMO_SENSORS: DemoSensor[] = [
  {
    serial: '1A2B3C4D', name: 'Main Reservoir', type: 'LS1-R', radio: { type: 'cellular', carrier: 'Spark' }, org: 'riverbend',
    measurementInterval: 1, transmissionInterval: 10, offsetMm: 6500, minLevel: 0, maxLevel: 6000,
    referenceLines: [{ value: 5800, label: 'Overflow', color: ORANGE }, { value: 3800, label: 'Low supply', color: BLUE }],
    alarms: { '0': { type: 'THRESHOLD_DECREASING', threshold: 3800, enabled: true }, '1': { type: 'THRESHOLD_INCREASING', threshold: 5800, enabled: true } },
    lat: -37.7861, lng: 176.4312, boot: { hardwareVersion: 13, firmwareVersion: 72, sensorVersion: 4 }, battery: 92, signal: 22, pointId: 'RBW-RES-01', commissioningStatus: 3,
    spec: { kind: 'tank', fullMm: 5600, emptyMm: 3000, fullVarMm: 250, cycleHours: 24, jitter: 0.02, refillHours: 8, used: [0.15, 0.35], dailyAmp: 0.7, peakHour: 8, phase: 0, startLocalHour: 22 },
    seed: 101,
  },
  {
    serial: '2B3C4D5E', name: 'Stock Tank North', type: 'T35', radio: { type: 'cellular', carrier: 'Vodafone' }, org: 'riverbend',
    measurementInterval: 15, transmissionInterval: 60, offsetMm: 2800, minLevel: 0, maxLevel: 2600, conversion: { type: 'VOLUME_CYLINDER', diameter: 3.6 },
    alarms: { '0': { type: 'THRESHOLD_DECREASING', threshold: 600, enabled: true } },
    // it holds under a week of water at its daily use, refilled every four days or so: the forecast alarm is open
    forecastAlarm: { emptyWithinDays: 7, fullWithinDays: null },
    lat: -43.5021, lng: 172.3315, boot: { hardwareVersion: 11, firmwareVersion: 72, sensorVersion: 3 }, battery: 78, signal: 14, pointId: 'RBW-STK-02', commissioningStatus: 3,
    spec: { kind: 'tank', fullMm: 2500, emptyMm: 200, fullVarMm: 120, cycleHours: 96, jitter: 0.3, refillHours: 6, used: [0.5, 0.85], dailyAmp: 0.8, peakHour: 14, phase: 0.25 },
    seed: 202,
  },
  {
    serial: '3C4D5E6F', name: 'Kaituna River Weir', type: 'LS1-10M', radio: { type: 'wifi' }, org: 'riverbend',
    measurementInterval: 5, transmissionInterval: 15, offsetMm: 3000, minLevel: 0, maxLevel: 1500, conversion: { type: 'WEIR_FLOW_SCR', width: 1.5, flowCoefficient: 1.84, n: 1.5 },
    referenceLines: [{ value: 600, label: 'High flow', color: ORANGE }],
    alarms: { '0': { type: 'THRESHOLD_INCREASING', threshold: 600, enabled: true }, '1': { type: 'DELTA_INCREASING', threshold: 60, enabled: true } },
    lat: -37.7712, lng: 176.4021, boot: { hardwareVersion: 10, firmwareVersion: 68, sensorVersion: 2 }, battery: 85, signal: -58, pointId: 'RBW-WEIR-03', commissioningStatus: 3,
    spec: { kind: 'river', baseMm: 180, seasonalMm: 70, events: rain(0.12, 200, [6, 18], 3, 2) },
    seed: 303,
  },
  {
    serial: '4D5E6F70', name: 'Outfall Flume', type: 'LS1', radio: { type: 'sigfox', zone: 4 }, org: 'riverbend',
    measurementInterval: 15, transmissionInterval: 60, offsetMm: 1200, minLevel: 0, maxLevel: 600, conversion: { type: 'PARSHALL_FLUME', x: 176.5, y: 1.547 },
    alarms: { '0': { type: 'THRESHOLD_INCREASING', threshold: 320, enabled: true }, '2': { type: 'ACCELEROMETER', threshold: 40, enabled: true } },
    lat: -37.6958, lng: 176.2817, boot: { hardwareVersion: 9, firmwareVersion: 24, sensorVersion: 2 }, battery: 61, signal: -118, commissioningStatus: 3,
    spec: { kind: 'outfall', baseMm: 85, morningMm: 70, eveningMm: 50, rain: rain(0.12, 60, [3, 8], 1, 2) },
    seed: 404, gaps: [{ daysAgo: 41, hours: 20 }],
  },
  {
    serial: '5E6F7081', name: 'Bore 7 Pressure', type: 'LS1-P', radio: { type: 'myriota' }, org: 'riverbend',
    measurementInterval: 60, transmissionInterval: 360, offsetMm: 9500, minLevel: 0, maxLevel: 9000,
    alarms: { '0': { type: 'THRESHOLD_DECREASING', threshold: 3000, enabled: true }, '1': { type: 'THRESHOLD_INCREASING', threshold: 8000, enabled: false } },
    lat: -43.6389, lng: 172.0468, boot: { hardwareVersion: 11, firmwareVersion: 72, sensorVersion: 3 }, battery: 70, pointId: 'RBW-BORE-07', commissioningStatus: 3,
    spec: { kind: 'bore', baseMm: 5600, seasonalMm: 900, pumpMm: 700, recharge: rain(0.08, 250, [24, 72], 20, 2) },
    seed: 505, gaps: [{ daysAgo: 23, hours: 30 }],
  },
  {
    serial: '6F708192', name: 'Diesel Depot Tank 1', type: 'T35-Pro', radio: { type: 'cellular', carrier: 'Spark' }, org: 'riverbend',
    measurementInterval: 15, transmissionInterval: 60, offsetMm: 2600, minLevel: 0, maxLevel: 2400, conversion: { type: 'VOLUME_CYLINDER_HORIZONTAL', diameter: 2.4, length: 4.6 },
    referenceLines: [{ value: 500, label: 'Reorder', color: ORANGE }],
    alarms: { '0': { type: 'THRESHOLD_DECREASING', threshold: 500, enabled: true } },
    lat: -37.6703, lng: 176.1822, boot: { hardwareVersion: 13, firmwareVersion: 74, sensorVersion: 5, buildType: 'Beta' }, battery: 88, signal: 17, pointId: 'RBW-FUEL-01', commissioningStatus: 2,
    spec: { kind: 'tank', fullMm: 2250, emptyMm: 250, fullVarMm: 150, cycleHours: 288, jitter: 0.25, refillHours: 1, used: [0.6, 0.85], dailyAmp: 0.95, peakHour: 11, phase: 0.3 },
    seed: 606,
  },
  {
    serial: '708192A3', name: 'Harbour Tide Gauge', type: 'LS1-R-12M', radio: { type: 'cellular', carrier: 'Spark' }, org: 'riverbend',
    measurementInterval: 5, transmissionInterval: 15, offsetMm: 7500, minLevel: 1000, maxLevel: 5500,
    referenceLines: [{ value: 3000, label: 'Mean sea level', color: BLUE }, { value: 4100, label: 'MHWS', color: GREEN }],
    // the high-water alarm sits 300 mm under the storm-surge high tide the gauge is seeded in
    alarms: (m) => ({
      '0': { type: 'THRESHOLD_INCREASING', threshold: Math.round((levelAt(m, m.anchor) - 300) / 10) * 10, enabled: true },
      '1': { type: 'THRESHOLD_DECREASING', threshold: 2100, enabled: false },
    }),
    // on the Mount Maunganui wharf, beside the site of Tauranga's sea-level gauge (LINZ's TAUT, NZTM 1 880 700 E, 5 829 250 N)
    lat: -37.641, lng: 176.1817, boot: { hardwareVersion: 13, firmwareVersion: 131, sensorVersion: 4 }, battery: 95, signal: 26, pointId: 'RBW-TIDE-01', commissioningStatus: 3,
    spec: { kind: 'tide', meanMm: 3000, m2Mm: 800, s2Mm: 150, surgeMm: 380, surgeHours: 20, highWaterBeforeAnchorMin: 10 },
    seed: 707,
  },
  {
    serial: '8192A3B4', name: 'Flood Gauge Deep', type: 'LS1-P-20M', radio: { type: 'sigfox', zone: 1 }, org: 'riverbend',
    measurementInterval: 15, transmissionInterval: 60, offsetMm: 18000, minLevel: 0, maxLevel: 6000, conversion: { type: 'WEIR_FLOW_VN', width: 1, flowCoefficient: 1.38, n: 2.5 },
    referenceLines: [{ value: 6000, label: 'Flood warning', color: ORANGE }, { value: 8500, label: 'Evacuate', color: BLUE }], // maxLevel: floods raise water-level alarms
    alarms: { '0': { type: 'THRESHOLD_INCREASING', threshold: 8500, enabled: true }, '1': { type: 'DELTA_INCREASING', threshold: 300, enabled: true } },
    lat: -43.5903, lng: 172.4431, boot: { hardwareVersion: 10, firmwareVersion: 72, sensorVersion: 3 }, battery: 47, signal: -128, pointId: 'RBW-FLD-08', commissioningStatus: 3,
    spec: { kind: 'river', baseMm: 1500, seasonalMm: 500, events: rain(0.07, 1700, [12, 36], 5, 3) },
    seed: 808,
  },
  {
    serial: '92A3B4C5', name: 'Spare Tank', type: 'LS1', radio: { type: 'wifi' }, org: 'riverbend',
    measurementInterval: 30, transmissionInterval: 120, schedulerEnabled: false, offsetMm: 2000, minLevel: 0, maxLevel: 1800,
    conversion: { type: 'VOLUME_RECTANGULAR', width: 2, length: 3 },
    lat: -43.5321, lng: 172.6362, boot: { hardwareVersion: 9, firmwareVersion: 68, sensorVersion: 2 }, battery: 33, signal: -67, commissioningStatus: 1,
    spec: { kind: 'tank', fullMm: 1700, emptyMm: 200, fullVarMm: 100, cycleHours: 168, jitter: 0.3, refillHours: 3, used: [0.4, 0.7], dailyAmp: 0.5, peakHour: 15, phase: 0.6 },
    seed: 909, silentForMin: 9 * 1440 + 173,
  },
  {
    serial: 'A3B4C5', name: 'Culvert 12', type: 'LS1-R', radio: { type: 'cellular', carrier: 'Vodafone' }, org: 'riverbend',
    measurementInterval: 15, transmissionInterval: 60, offsetMm: 2500, minLevel: 0, maxLevel: 2000,
    alarms: { '0': { type: 'THRESHOLD_INCREASING', threshold: 1000, enabled: true } },
    lat: -37.7431, lng: 176.3349, boot: { hardwareVersion: 10, firmwareVersion: 72, sensorVersion: 3 }, battery: 4, signal: 6, pointId: 'RBW-CUL-12', commissioningStatus: 5,
    spec: { kind: 'river', baseMm: 150, seasonalMm: 60, events: rain(0.12, 250, [2, 6], 1.5, 5) },
    seed: 1010, silentForMin: 3 * 1440 + 427,
  },
  {
    serial: 'B4C5D6E7', name: 'Council Reservoir', type: 'LS1', radio: { type: 'cellular', carrier: 'Spark' }, org: 'harbour',
    measurementInterval: 15, transmissionInterval: 60, offsetMm: 4800, minLevel: 0, maxLevel: 4500,
    alarms: { '0': { type: 'THRESHOLD_DECREASING', threshold: 2800, enabled: true } },
    lat: -41.2889, lng: 174.7772, boot: { hardwareVersion: 11, firmwareVersion: 72, sensorVersion: 3 }, battery: 81, signal: 19, pointId: 'HCC-RES-01', commissioningStatus: 3,
    spec: { kind: 'tank', fullMm: 4300, emptyMm: 2500, fullVarMm: 200, cycleHours: 24, jitter: 0.02, refillHours: 7, used: [0.1, 0.3], dailyAmp: 0.7, peakHour: 8, phase: 0, startLocalHour: 23 },
    seed: 1111,
  },
  unclaimed('C0FFEE01', 'LS1', { type: 'cellular', carrier: 'Spark' }, 1201, { kind: 'tank', fullMm: 2300, emptyMm: 300, fullVarMm: 100, cycleHours: 120, jitter: 0.3, refillHours: 4, used: [0.5, 0.8], dailyAmp: 0.6, peakHour: 13, phase: 0.2 }),
  unclaimed('C0FFEE02', 'T35', { type: 'wifi' }, 1202, { kind: 'tank', fullMm: 2200, emptyMm: 200, fullVarMm: 100, cycleHours: 72, jitter: 0.3, refillHours: 5, used: [0.5, 0.8], dailyAmp: 0.8, peakHour: 15, phase: 0.2 }),
  unclaimed('C0FFEE03', 'LS1-R', { type: 'sigfox', zone: 4 }, 1203, { kind: 'river', baseMm: 250, seasonalMm: 80, events: rain(0.1, 300, [4, 12], 2) }),
];

function unclaimed(serial: string, type: string, radio: DemoSensor['radio'], seed: number, spec: SignalSpec): DemoSensor {
  const n = serial.slice(-2);
  return {
    serial, name: serial, type, radio, org: null, claimCode: `${serial.toLowerCase()}-0000-4000-8000-0000000000${n}`,
    measurementInterval: 15, transmissionInterval: 60, offsetMm: 2600, minLevel: 0, maxLevel: 2400,
    lat: -43.53 + Number(n) * 0.01, lng: 172.62, boot: { hardwareVersion: 13, firmwareVersion: 72, sensorVersion: 4 }, battery: 100,
    signal: radio.type === 'sigfox' ? -112 : radio.type === 'wifi' ? -55 : 20, commissioningStatus: 1, spec, seed,
  };
}

/** The signal model of a demo sensor, anchored at the moment the world was seeded. */
export function modelFor(s: DemoSensor, anchor: number): SignalModel {
  const radar = RADAR.has(s.type);
  return {
    spec: s.spec,
    seed: s.seed,
    anchor,
    offsetMm: s.offsetMm,
    range: TYPE_RANGE[s.type],
    noiseMm: radar ? 1.5 : PRESSURE.has(s.type) ? 3 : 4,
    errorRate: 0.0015,
    errorCodes: radar ? ['E1', 'E4', 'E4', 'E5', 'E5', 'E5', 'E9'] : ['E1', 'E4', 'E4', 'E4', 'E9'],
  };
}

/** Claim codes of claimed demo sensors are derived from the serial: stable across databases. */
export function claimCodeOf(s: DemoSensor): string {
  if (s.claimCode) return s.claimCode;
  const h = createHash('sha256').update(`claim:${s.serial}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export const demoSensorBySerial = new Map(DEMO_SENSORS.map((s) => [s.serial, s]));
