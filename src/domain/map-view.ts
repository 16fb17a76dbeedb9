import type { LatLng } from './location';

/** Map constants (monitoring-client 9). */
export const MAP_DEFAULT_ZOOM = 14;
/** "The south of New Zealand": Dunedin, where the map opens when no sensor has a position. */
export const MAP_DEFAULT_CENTRE: LatLng = { latitude: -45.8788, longitude: 170.5028 };
/** The info card hides this long after the pointer leaves it. */
export const MAP_CARD_TIMEOUT_MS = 5_000;
/** Sensors spread over less than this (degrees) are one spot: centred at the default zoom, never fitted. */
export const SMALL_BOUNDS_DEG = 0.002;
/** Sensors spread over less than this are widened to it, so a fitted project shows its surroundings. */
export const PROJECT_BOUNDS_DEG = 0.06;
/**
 * Below this zoom the view is wider than a project (a region or a country): the banner asks the
 * user to zoom in. At zoom 10 a 1000 px map spans about 0.7 degrees, ten times a project's 0.06.
 */
export const PROJECT_ZOOM = 10;

export type InitialView = { kind: 'centre'; centre: LatLng; zoom: number } | { kind: 'bounds'; south: number; west: number; north: number; east: number };

/**
 * Where the map opens (fit to the organisation's sensors): the default centre with none, a
 * centre at the default zoom when they all sit within 0.002 degrees, bounds widened to 0.06
 * degrees around their middle when they sit within that, else their bounds.
 */
export function initialView(points: readonly LatLng[]): InitialView {
  if (points.length === 0) return { kind: 'centre', centre: MAP_DEFAULT_CENTRE, zoom: MAP_DEFAULT_ZOOM };
  let south = Infinity;
  let north = -Infinity;
  let west = Infinity;
  let east = -Infinity;
  for (const p of points) {
    south = Math.min(south, p.latitude);
    north = Math.max(north, p.latitude);
    west = Math.min(west, p.longitude);
    east = Math.max(east, p.longitude);
  }
  const span = Math.max(north - south, east - west);
  const mid = { latitude: (south + north) / 2, longitude: (west + east) / 2 };
  if (span < SMALL_BOUNDS_DEG) return { kind: 'centre', centre: mid, zoom: MAP_DEFAULT_ZOOM };
  if (span < PROJECT_BOUNDS_DEG) {
    const h = PROJECT_BOUNDS_DEG / 2;
    return { kind: 'bounds', south: mid.latitude - h, north: mid.latitude + h, west: mid.longitude - h, east: mid.longitude + h };
  }
  return { kind: 'bounds', south, west, north, east };
}

/** A position the map can draw (the database allows null and the device may report nonsense). */
export const isMappable = (lat: number | null, lng: number | null): boolean =>
  lat !== null && lng !== null && Number.isFinite(lat) && Number.isFinite(lng) && Math.abs(lat) <= 85.05115 && Math.abs(lng) <= 180;

/** Whether the zoom-in banner shows (monitoring-client 2.8). */
export const needsZoomIn = (zoom: number) => zoom < PROJECT_ZOOM;
