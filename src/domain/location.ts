import { LATITUDE_RANGE, LONGITUDE_RANGE } from './sensor-settings';

export interface LatLng {
  latitude: number;
  longitude: number;
}

/** Inside the move screen's ranges (sensor-setup 5): latitude -85.05115 to 85, longitude -180 to 180. */
export const isLegalPosition = (p: LatLng) =>
  Number.isFinite(p.latitude) && Number.isFinite(p.longitude) && p.latitude >= LATITUDE_RANGE[0] && p.latitude <= LATITUDE_RANGE[1] && p.longitude >= LONGITUDE_RANGE[0] && p.longitude <= LONGITUDE_RANGE[1];

/** Typed coordinates 'lat, lng' (sensor-setup 2): a position inside the ranges, else undefined. */
export function parseLatLng(text: string): LatLng | undefined {
  const m = /^\s*([-+]?\d+(?:\.\d+)?)\s*[,\s]\s*([-+]?\d+(?:\.\d+)?)\s*$/.exec(text);
  if (!m) return undefined;
  const p = { latitude: Number(m[1]), longitude: Number(m[2]) };
  return isLegalPosition(p) ? p : undefined;
}

/** The readout: 6 decimals each (sensor-setup 2). */
export const positionText = (p: LatLng | null) => (p ? `${p.latitude.toFixed(6)}, ${p.longitude.toFixed(6)}` : 'No location set');

/** A map click can wrap around the world: bring the longitude back into -180..180. */
export const wrapLongitude = (lng: number) => ((((lng + 180) % 360) + 360) % 360) - 180;
