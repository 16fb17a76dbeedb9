/** Sensor types, modules and ranges (sensor-setup 3 and 5; monitoring-client 3). */
export type SensorTypeName = 'LS1' | 'LS1-P' | 'LS1-10M' | 'LS1-R' | 'T35' | 'T35-Pro' | 'LS1-P-20M' | 'LS1-R-12M';
export type ModuleType = 'sonic' | 'pressure' | 'radar';

// Both spellings the devices and older records use map to the display name.
const ALIASES: Record<string, SensorTypeName> = {
  LS1: 'LS1',
  'LS1-P': 'LS1-P',
  LS1P: 'LS1-P',
  'LS1-10M': 'LS1-10M',
  LS110M: 'LS1-10M',
  'LS1-R': 'LS1-R',
  LS1R: 'LS1-R',
  T35: 'T35',
  'T35-PRO': 'T35-Pro',
  T35PRO: 'T35-Pro',
  'LS1-P-20M': 'LS1-P-20M',
  LS1P20M: 'LS1-P-20M',
  'LS1-R-12M': 'LS1-R-12M',
  LS1R12M: 'LS1-R-12M',
};

const MODULE: Record<SensorTypeName, ModuleType> = {
  LS1: 'sonic',
  'LS1-10M': 'sonic',
  'LS1-P': 'pressure',
  'LS1-P-20M': 'pressure',
  'LS1-R': 'radar',
  T35: 'radar',
  'T35-Pro': 'radar',
  'LS1-R-12M': 'radar',
};

/** Allowed measuring range per type in mm (sensor-setup 5). */
export const SENSOR_RANGE_MM: Record<SensorTypeName, { min: number; max: number }> = {
  LS1: { min: 300, max: 5000 },
  'LS1-P': { min: 10, max: 10000 },
  'LS1-10M': { min: 500, max: 10000 },
  T35: { min: 200, max: 3600 },
  'T35-Pro': { min: 200, max: 7000 },
  'LS1-R': { min: 200, max: 7000 },
  'LS1-P-20M': { min: 10, max: 20000 },
  'LS1-R-12M': { min: 500, max: 12000 },
};

export function sensorTypeOf(raw: string | undefined): SensorTypeName | undefined {
  return raw ? ALIASES[raw.trim().toUpperCase()] : undefined;
}

/** The type's display name, or N/A when it is not recognised. */
export const sensorTypeName = (raw: string | undefined): string => sensorTypeOf(raw) ?? 'N/A';

export function moduleOf(raw: string | undefined): ModuleType | undefined {
  const t = sensorTypeOf(raw);
  return t && MODULE[t];
}

const MODULE_NAME: Record<ModuleType, string> = { sonic: 'Sonic', pressure: 'Pressure', radar: 'Radar' };
export const moduleName = (raw: string | undefined): string => {
  const m = moduleOf(raw);
  return m ? MODULE_NAME[m] : 'N/A';
};

const RADIO_NAME: Record<string, string> = { cellular: 'Cellular', wifi: 'WiFi', myriota: 'Satellite (Myriota)', sigfox: 'Sigfox' };
/** Radio as shown in the info table, with the Sigfox zone or cellular carrier. */
export function radioName(radio: { type: string; zone?: number; carrier?: string }): string {
  const base = RADIO_NAME[radio.type] ?? 'N/A';
  if (radio.type === 'sigfox' && radio.zone) return `${base} (zone ${radio.zone})`;
  if (radio.type === 'cellular' && radio.carrier) return `${base} (${radio.carrier})`;
  return base;
}

// Hardware revision numbers the devices report, and the board version printed on them.
const HARDWARE_VERSION: Record<number, string> = { 9: '9.0', 10: '9.1', 11: '9.2', 13: '9.4' };

/** Hardware version text: 9, 10, 11, 13 map to 9.0, 9.1, 9.2, 9.4; other valid numbers show as is. */
export function hardwareVersionText(v: number | undefined | null): string {
  if (v === undefined || v === null || !Number.isFinite(v) || v <= 0) return 'N/A';
  return HARDWARE_VERSION[v] ?? String(v);
}
