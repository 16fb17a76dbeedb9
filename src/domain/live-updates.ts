import type { SensorNotification } from '../contract/notification.schema';
import type { LatestData, Sensor } from '../contract/sensor.schema';

/** Applies a notification opened or closed on the live feed to a list: replaced by id, or added first. */
export function applyNotification(list: readonly SensorNotification[], n: SensorNotification): SensorNotification[] {
  const i = list.findIndex((x) => x.id === n.id);
  if (i < 0) return [n, ...list];
  const next = list.slice();
  next[i] = n;
  return next;
}

/**
 * Merges a sensor's new latest data from the live feed. Only the sensor that changed gets a new
 * object, so panes keyed on the others do not re-render.
 */
export function applyLatestData(sensors: readonly Sensor[], sensorId: string, latest: LatestData): Sensor[] {
  return sensors.map((s) => (s.id === sensorId ? { ...s, latestData: { ...(s.latestData ?? {}), ...latest } } : s));
}

/**
 * A sensor saved in setup (here or in another browser) replaces the list's copy; what the live
 * feed knows newer (latest data) is kept, since the save may have been read before an uplink.
 */
export function applySensorSettings(sensors: readonly Sensor[], saved: Sensor): Sensor[] {
  return sensors.map((s) => (s.id === saved.id ? { ...saved, latestData: s.latestData ?? saved.latestData } : s));
}
