import type { Sensor } from '../contract/sensor.schema';

/** Link quality values (monitoring-client 3). */
export type LinkQuality = 'EXCELLENT' | 'GOOD' | 'AVERAGE' | 'LIMIT' | 'OFFLINE';

export const LINK_QUALITY_LABEL: Record<LinkQuality, string> = {
  EXCELLENT: 'Excellent',
  GOOD: 'Good',
  AVERAGE: 'Average',
  LIMIT: 'Limit',
  OFFLINE: 'Offline',
};

const grade = (value: number, [excellent, good, average]: [number, number, number]): LinkQuality =>
  value > excellent ? 'EXCELLENT' : value > good ? 'GOOD' : value > average ? 'AVERAGE' : 'LIMIT';

/**
 * Signal quality per radio (monitoring-client 9). Sigfox and WiFi grade the RSSI in dBm,
 * cellular grades the raw modem value (0-31). Myriota (satellite) reports none.
 */
export function signalQuality(radio: Sensor['radio']['type'], value: number | undefined): LinkQuality | undefined {
  if (value === undefined || Number.isNaN(value)) return undefined;
  switch (radio) {
    case 'sigfox':
      return grade(value, [-100, -122, -135]);
    case 'cellular':
      return value === 0 ? undefined : grade(value, [20, 10, 5]);
    case 'wifi':
      return grade(value, [-50, -60, -70]);
    default:
      return undefined;
  }
}

/** Cellular raw value to dBm text: 2*(value-2)-109, '<=' at 1 and '>=' at 31, hidden at 0. */
export function cellularDbm(value: number | undefined): string | undefined {
  if (value === undefined || value === 0 || Number.isNaN(value)) return undefined;
  const dbm = 2 * (value - 2) - 109;
  if (value <= 1) return `<= ${dbm} dBm`;
  if (value >= 31) return `>= ${dbm} dBm`;
  return `${dbm} dBm`;
}

/** The signal strength as shown in the info table. */
export function signalText(radio: Sensor['radio']['type'], value: number | undefined): string {
  if (value === undefined) return 'N/A';
  if (radio === 'cellular') return cellularDbm(value) ?? 'N/A';
  if (radio === 'sigfox' || radio === 'wifi') return `${value} dBm`;
  return 'N/A';
}
