import { layers, namedFlavor } from '@protomaps/basemaps';
import { Hono, type Context } from 'hono';
import { compress } from 'hono/compress';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { feature, mesh } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import type { AppContext } from '../context';
import { gazetteerPlaces } from '../gateway/geocode.routes';
import { FINE_MAX_ZOOM, FINE_MIN_ZOOM, indexLand, landTile, readLandFile, type Box } from './coastline';
import { encodeTile, EXTENT, tileCoordinates } from './mvt';
import { publicOrigin } from './origin';
import { serveByteRanges } from './pmtiles-file';

/**
 * The embedded default map: an offline MapLibre style over Natural Earth's 1:50m countries
 * (the world-atlas package), so maps draw with no network: the Roadmap style unless a street map
 * (MAP_PMTILES_PATH, streetStyle below) or MAP_STYLE_URL_ROADMAP is configured. From zoom 8, within
 * the region of the bundled finer land (coastline-nz.bin.gz: New Zealand), the land is that
 * file's, cut into vector tiles (coastline.ts), and Natural Earth's polygons within the region are
 * left out (their features carry `fine`).
 */
let fine: ReturnType<typeof indexLand> | undefined;
function fineLand() {
  return (fine ??= indexLand(readLandFile(new URL('./coastline-nz.bin.gz', import.meta.url).pathname)));
}
const within = (ring: [number, number][], [w, s, e, n]: Box) => ring.every(([lng, lat]) => lng >= w && lng <= e && lat >= s && lat <= n);
const FINE_TILE_CACHE = 512;
const fineTiles = new Map<string, Uint8Array<ArrayBuffer>>();
/** One tile of the finer land, kept for later requests (the least recently asked for goes first). */
function fineTile(z: number, x: number, y: number): Uint8Array<ArrayBuffer> {
  const key = `${z}/${x}/${y}`;
  let tile = fineTiles.get(key);
  if (tile) fineTiles.delete(key);
  else {
    tile = landTile(fineLand(), z, x, y);
    if (fineTiles.size >= FINE_TILE_CACHE) fineTiles.delete(fineTiles.keys().next().value!);
  }
  fineTiles.set(key, tile);
  return tile;
}
type Body = 'land' | 'borders' | 'world';
let shapes: { land: { type: string; features: unknown[] }; borders: unknown } | undefined;
const bodies = new Map<Body, string>();
// 1:50m data holds nothing finer than about a kilometre: 3 decimals (about 100 m) halve the download
const round = (geo: unknown) => JSON.parse(JSON.stringify(geo, (_k, v) => (typeof v === 'number' ? Math.round(v * 1000) / 1000 : v))) as unknown;
/** One body, serialised on its first request: a server whose clients only ask for world.geojson never builds the old two. */
function geojson(body: Body): string {
  let text = bodies.get(body);
  if (text === undefined) {
    if (!shapes) {
      const require = createRequire(import.meta.url);
      const topo = JSON.parse(readFileSync(require.resolve('world-atlas/countries-50m.json'), 'utf8')) as Topology<{ countries: GeometryCollection; land: GeometryCollection }>;
      // shared borders only: coastlines are drawn by the land fill's edge. Land as one feature a
      // polygon, those within the finer land's region marked, for the style to leave them out there
      const region = fineLand().region;
      const land = round(feature(topo, topo.objects.land)) as { features: { geometry: { type: string; coordinates: unknown } }[] };
      const polygons = land.features.flatMap((f) =>
        (f.geometry.type === 'MultiPolygon' ? (f.geometry.coordinates as [number, number][][][]) : [f.geometry.coordinates as [number, number][][]]).map((coordinates) => ({
          type: 'Feature',
          properties: within(coordinates[0]!, region) ? { fine: true } : {},
          geometry: { type: 'Polygon', coordinates },
        })),
      );
      shapes = { land: { type: 'FeatureCollection', features: polygons }, borders: round(mesh(topo, topo.objects.countries, (a, b) => a !== b)) };
    }
    const { land, borders } = shapes;
    text = JSON.stringify(
      body === 'world'
        ? // both in one source: maplibre clips each tiled source's layers with a stencil pass per tile,
          // a full-screen pass per source on every frame (about 10 ms of a frame under software WebGL)
          { type: 'FeatureCollection', features: [...land.features, { type: 'Feature', properties: {}, geometry: borders }] }
        : body === 'land'
          ? land
          : borders,
    );
    bodies.set(body, text);
  }
  return text;
}

/**
 * The offline map's place names: the geocoder's gazetteer (GeoNames' places of 1,000 people or more)
 * as vector tiles of points, zoom 8 (a region) to 10, deeper zooms drawing from the zoom 10 tiles. It
 * has no population to rank by, so below zoom 8 no names are drawn rather than an arbitrary few;
 * where names would overlap, MapLibre shows the first and hides the rest.
 */
const PLACES_MIN_ZOOM = 8;
const PLACES_MAX_ZOOM = 10;
let placesByTile: Map<string, { name: string; x: number; y: number }[]> | undefined;
function placesTile(z: number, x: number, y: number): Uint8Array<ArrayBuffer> {
  if (!placesByTile) {
    placesByTile = new Map();
    for (const p of gazetteerPlaces()) {
      const [px, py] = tileCoordinates(p.longitude, p.latitude, PLACES_MIN_ZOOM);
      const key = `${Math.floor(px)}/${Math.floor(py)}`;
      let list = placesByTile.get(key);
      if (!list) placesByTile.set(key, (list = []));
      list.push({ name: p.name, x: px, y: py });
    }
  }
  const scale = 2 ** (z - PLACES_MIN_ZOOM);
  const local = (v: number, tile: number) => Math.floor((v * scale - tile) * EXTENT);
  const inTile = (placesByTile.get(`${Math.floor(x / scale)}/${Math.floor(y / scale)}`) ?? [])
    .map((p) => ({ name: p.name, at: [local(p.x, x), local(p.y, y)] as [number, number] }))
    .filter(({ at: [lx, ly] }) => lx >= 0 && lx < EXTENT && ly >= 0 && ly < EXTENT);
  return encodeTile({ places: inTile.map(({ name, at }) => ({ type: 1, points: [at], properties: { name } })) });
}

const POLYGONS = ['==', ['geometry-type'], 'Polygon'];
const LINES = ['==', ['geometry-type'], 'LineString'];
/** Natural Earth's land, less its polygons within the finer land's region once that is drawn. */
const COARSE_LAND = ['all', POLYGONS, ['any', ['<', ['zoom'], FINE_MIN_ZOOM], ['!', ['has', 'fine']]]];
const COAST_WIDTH = ['interpolate', ['linear'], ['zoom'], 2, 0.5, 10, 1.5];

export function mapStyle(origin: string) {
  return {
    version: 8,
    name: 'Tidewatch offline',
    sources: {
      world: { type: 'geojson', data: `${origin}/map/world.geojson` },
      places: { type: 'vector', tiles: [`${origin}/map/places/{z}/{x}/{y}`], minzoom: PLACES_MIN_ZOOM, maxzoom: PLACES_MAX_ZOOM, attribution: 'GeoNames' },
      // zoom 14's tiles are drawn larger beyond it
      land: {
        type: 'vector',
        tiles: [`${origin}/map/land/{z}/{x}/{y}`],
        minzoom: FINE_MIN_ZOOM,
        maxzoom: FINE_MAX_ZOOM,
        bounds: fineLand().region,
        attribution: '© OpenStreetMap contributors',
      },
    },
    layers: [
      // the map's container shows this colour and maplibre skips the layer (src/shared/base-map-passes.ts)
      { id: 'water', type: 'background', paint: { 'background-color': '#cfe6f3' } },
      { id: 'land', type: 'fill', source: 'world', filter: COARSE_LAND, paint: { 'fill-color': '#f4f1e8', 'fill-antialias': true } },
      { id: 'fine-land', type: 'fill', source: 'land', 'source-layer': 'land', minzoom: FINE_MIN_ZOOM, paint: { 'fill-color': '#f4f1e8', 'fill-antialias': true } },
      { id: 'coast', type: 'line', source: 'world', filter: COARSE_LAND, paint: { 'line-color': '#a9c7d8', 'line-width': COAST_WIDTH } },
      { id: 'fine-coast', type: 'line', source: 'land', 'source-layer': 'land', minzoom: FINE_MIN_ZOOM, paint: { 'line-color': '#a9c7d8', 'line-width': COAST_WIDTH } },
      { id: 'borders', type: 'line', source: 'world', filter: LINES, paint: { 'line-color': '#c6bfae', 'line-width': 1, 'line-dasharray': [2, 2] } },
      // no glyphs URL: MapLibre draws the names with the browser's own sans-serif
      {
        id: 'places',
        type: 'symbol',
        source: 'places',
        'source-layer': 'places',
        layout: { 'text-field': ['get', 'name'], 'text-font': ['sans-serif'], 'text-size': ['interpolate', ['linear'], ['zoom'], 8, 11, 14, 14], 'text-padding': 6 },
        paint: { 'text-color': '#5a5346', 'text-halo-color': '#f4f1e8', 'text-halo-width': 1.5 },
      },
    ],
  };
}

/** Where the street map's archive is served (MAP_PMTILES_PATH). */
export const STREETS_ARCHIVE = '/map/streets.pmtiles';

/**
 * The self-hosted street map: Protomaps' light basemap layers over the PMTiles archive at
 * MAP_PMTILES_PATH, which the browser reads by range requests through the `pmtiles` protocol
 * (src/shared/base-map.ts). No glyphs or sprite URL, so nothing leaves this server: MapLibre draws
 * label text with the browser's own fonts; icons would need a sprite, so labels (town names, road
 * shields' numbers) lose their icon and layers that are only icons (points of interest, one-way
 * arrows) are left out.
 */
export function streetStyle(origin: string) {
  const flavor = { ...namedFlavor('light'), pois: undefined };
  return {
    version: 8,
    name: 'Tidewatch streets',
    sources: {
      protomaps: { type: 'vector', url: `pmtiles://${origin}${STREETS_ARCHIVE}`, attribution: '© OpenStreetMap contributors' },
    },
    layers: layers('protomaps', flavor, { lang: 'en' }).flatMap((l) => {
      if (l.type !== 'symbol' || !l.layout || !('icon-image' in l.layout)) return [l];
      if (!('text-field' in l.layout)) return [];
      const layout = Object.fromEntries(Object.entries(l.layout).filter(([k]) => !k.startsWith('icon-')));
      return [{ ...l, layout }];
    }),
  };
}

/** The z/x/y of a tile route's path when it names a tile of the zooms given, else undefined. */
function tileAddress(c: Context, minZoom: number, maxZoom: number): [number, number, number] | undefined {
  const [z, x, y] = [c.req.param('z'), c.req.param('x'), c.req.param('y')].map((v) => (v !== undefined && /^\d{1,7}$/.test(v) ? Number(v) : NaN)) as [number, number, number];
  return z >= minZoom && z <= maxZoom && x < 2 ** z && y < 2 ** z ? [z, x, y] : undefined;
}

export function mapRoutes(ctx: AppContext) {
  const r = new Hono();
  const cache = (c: { header(k: string, v: string): void }) => c.header('Cache-Control', 'public, max-age=86400');
  const archive = ctx.config.MAP_PMTILES_PATH;
  if (archive) {
    // before the compression below: ranges of an archive are sent as they are stored
    r.get('/streets.pmtiles', (c) => serveByteRanges(c, archive, 'application/vnd.pmtiles', 'public, max-age=86400'));
    r.get('/streets/style.json', (c) => {
      cache(c);
      return c.json(streetStyle(publicOrigin(ctx, c.req.url)));
    });
  }
  r.use('*', compress());
  r.get('/style.json', (c) => {
    const origin = publicOrigin(ctx, c.req.url);
    cache(c);
    return c.json(mapStyle(origin));
  });
  r.get('/places/:z/:x/:y', (c) => {
    const tile = tileAddress(c, PLACES_MIN_ZOOM, PLACES_MAX_ZOOM);
    if (!tile) return c.json({ code: 'NOT_FOUND', message: 'No such tile.' }, 404);
    cache(c);
    return c.body(placesTile(...tile), 200, { 'Content-Type': 'application/vnd.mapbox-vector-tile' });
  });
  r.get('/land/:z/:x/:y', (c) => {
    const tile = tileAddress(c, FINE_MIN_ZOOM, FINE_MAX_ZOOM);
    if (!tile) {
      return c.json({ code: 'NOT_FOUND', message: `No such tile: the land tiles run from zoom ${FINE_MIN_ZOOM} to ${FINE_MAX_ZOOM}, x and y from 0 to 2^zoom - 1.` }, 404);
    }
    cache(c);
    return c.body(fineTile(...tile), 200, { 'Content-Type': 'application/vnd.mapbox-vector-tile' });
  });
  r.get('/world.geojson', (c) => {
    cache(c);
    return c.body(geojson('world'), 200, { 'Content-Type': 'application/geo+json' });
  });
  // what the style named before world.geojson: a style cached from then still draws its land and borders
  r.get('/land.geojson', (c) => {
    cache(c);
    return c.body(geojson('land'), 200, { 'Content-Type': 'application/geo+json' });
  });
  r.get('/borders.geojson', (c) => {
    cache(c);
    return c.body(geojson('borders'), 200, { 'Content-Type': 'application/geo+json' });
  });
  return r;
}
