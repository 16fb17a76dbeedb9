import { Hono } from 'hono';
import { compress } from 'hono/compress';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { feature, mesh } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import type { AppContext } from '../context';
import { publicOrigin } from './origin';

/**
 * The embedded default map: an offline MapLibre style over Natural Earth's 1:50m countries
 * (the world-atlas package), so maps draw with no network. Production sets MAP_STYLE_URL instead.
 */
let cached: { land: string; borders: string } | undefined;
// 1:50m data holds nothing finer than about a kilometre: 3 decimals (about 100 m) halve the download
const compact = (geo: unknown) => JSON.stringify(geo, (_k, v) => (typeof v === 'number' ? Math.round(v * 1000) / 1000 : v));
function geojson() {
  if (!cached) {
    const require = createRequire(import.meta.url);
    const topo = JSON.parse(readFileSync(require.resolve('world-atlas/countries-50m.json'), 'utf8')) as Topology<{ countries: GeometryCollection; land: GeometryCollection }>;
    cached = {
      land: compact(feature(topo, topo.objects.land)),
      // shared borders only: coastlines are drawn by the land fill's edge
      borders: compact(mesh(topo, topo.objects.countries, (a, b) => a !== b)),
    };
  }
  return cached;
}

export function mapStyle(origin: string) {
  return {
    version: 8,
    name: 'Tidewatch offline',
    sources: {
      land: { type: 'geojson', data: `${origin}/map/land.geojson` },
      borders: { type: 'geojson', data: `${origin}/map/borders.geojson` },
    },
    layers: [
      { id: 'water', type: 'background', paint: { 'background-color': '#cfe6f3' } },
      { id: 'land', type: 'fill', source: 'land', paint: { 'fill-color': '#f4f1e8', 'fill-antialias': true } },
      { id: 'coast', type: 'line', source: 'land', paint: { 'line-color': '#a9c7d8', 'line-width': ['interpolate', ['linear'], ['zoom'], 2, 0.5, 10, 1.5] } },
      { id: 'borders', type: 'line', source: 'borders', paint: { 'line-color': '#c6bfae', 'line-width': 1, 'line-dasharray': [2, 2] } },
    ],
  };
}

export function mapRoutes(ctx: AppContext) {
  const r = new Hono();
  r.use('*', compress());
  const cache = (c: { header(k: string, v: string): void }) => c.header('Cache-Control', 'public, max-age=86400');
  r.get('/style.json', (c) => {
    const origin = publicOrigin(ctx, c.req.url);
    cache(c);
    return c.json(mapStyle(origin));
  });
  r.get('/land.geojson', (c) => {
    cache(c);
    return c.body(geojson().land, 200, { 'Content-Type': 'application/geo+json' });
  });
  r.get('/borders.geojson', (c) => {
    cache(c);
    return c.body(geojson().borders, 200, { 'Content-Type': 'application/geo+json' });
  });
  return r;
}
