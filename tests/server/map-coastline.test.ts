import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import { startTestServer, type TestServer } from './harness';
import { EXTENT, tileCoordinates } from '../../server/http/mvt';
import { DEMO_SENSORS } from '../../server/seed/demo-sensors';

/** The polygons of a Mapbox Vector Tile's layer: each feature's rings in tile units, as the spec's decoder reads them. */
function decodePolygons(buf: Uint8Array, layerName: string): [number, number][][][] {
  let at = 0;
  const varint = (b: Uint8Array) => {
    let [n, scale] = [0, 1];
    for (;;) {
      const byte = b[at++]!;
      n += (byte & 0x7f) * scale;
      if (byte < 0x80) return n;
      scale *= 128;
    }
  };
  // fields of one message: [field number, value or bytes]
  const fields = (b: Uint8Array) => {
    const saved = at;
    at = 0;
    const out: [number, number | Uint8Array][] = [];
    while (at < b.length) {
      const key = varint(b);
      if ((key & 7) === 0) out.push([key >> 3, varint(b)]);
      else if ((key & 7) === 2) {
        const len = varint(b);
        out.push([key >> 3, b.subarray(at, at + len)]);
        at += len;
      } else throw new Error(`wire type ${key & 7}`);
    }
    at = saved;
    return out;
  };
  const polygons: [number, number][][][] = [];
  for (const [n, layer] of fields(buf)) {
    if (n !== 3) continue;
    const lf = fields(layer as Uint8Array);
    if (new TextDecoder().decode(lf.find(([k]) => k === 1)![1] as Uint8Array) !== layerName) continue;
    expect(lf.find(([k]) => k === 5)![1]).toBe(EXTENT);
    for (const [k, f] of lf) {
      if (k !== 2) continue;
      const ff = fields(f as Uint8Array);
      expect(ff.find(([kk]) => kk === 3)![1]).toBe(3);
      const geom = ff.find(([kk]) => kk === 4)![1] as Uint8Array;
      const saved = at;
      at = 0;
      const ints: number[] = [];
      while (at < geom.length) ints.push(varint(geom));
      at = saved;
      const rings: [number, number][][] = [];
      let [x, y, i] = [0, 0, 0];
      const unzig = (v: number) => (v >> 1) ^ -(v & 1);
      while (i < ints.length) {
        const [id, count] = [ints[i]! & 7, ints[i++]! >> 3];
        if (id === 7) continue;
        if (id === 1) rings.push([]);
        for (let c = 0; c < count; c++) {
          x += unzig(ints[i++]!);
          y += unzig(ints[i++]!);
          rings[rings.length - 1]!.push([x, y]);
        }
      }
      polygons.push(rings);
    }
  }
  return polygons;
}

const insideRing = ([px, py]: [number, number], ring: [number, number][]) => {
  let c = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [[xi, yi], [xj, yj]] = [ring[i]!, ring[j]!];
    if (yi > py !== yj > py && px < ((xj - xi) * (py - yi)) / (yj - yi) + xi) c = !c;
  }
  return c;
};
const area = (ring: [number, number][]) => ring.reduce((sum, [x, y], i) => sum + ring[(i + ring.length - 1) % ring.length]![0] * y - x * ring[(i + ring.length - 1) % ring.length]![1], 0);
/** Whether the tile's land (exteriors of positive area, holes negative, as MVT 2 has them) holds the point. */
function onLand(polygons: [number, number][][][], at: [number, number]): boolean {
  return polygons.some(([outer, ...holes]) => area(outer!) > 0 && insideRing(at, outer!) && !holes.some((h) => area(h) < 0 && insideRing(at, h)));
}
function onCoarseLand(lng: number, lat: number): boolean {
  const require = createRequire(import.meta.url);
  const topo = JSON.parse(readFileSync(require.resolve('world-atlas/land-50m.json'), 'utf8')) as Topology<{ land: GeometryCollection }>;
  const geometry = feature(topo, topo.objects.land).features[0]!.geometry as unknown as { coordinates: [number, number][][][] };
  return geometry.coordinates.some(([outer, ...holes]) => insideRing([lng, lat], outer!) && !holes.some((h) => insideRing([lng, lat], h)));
}

describe('the offline map draws finer land within its region from zoom 8 (issue 34)', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer('pglite');
  });
  afterAll(() => s?.close());

  const tileAt = async (lng: number, lat: number, z: number) => {
    const [tx, ty] = tileCoordinates(lng, lat, z);
    const [x, y] = [Math.floor(tx), Math.floor(ty)];
    const res = await fetch(`${s.url}/map/land/${z}/${x}/${y}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/vnd.mapbox-vector-tile');
    const polygons = decodePolygons(new Uint8Array(await res.arrayBuffer()), 'land');
    return { polygons, at: [Math.floor((tx - x) * EXTENT), Math.floor((ty - y) * EXTENT)] as [number, number] };
  };

  it('names the finer land and its region in the style, credited to OpenStreetMap, over Natural Earth outside it', async () => {
    const style = await (await fetch(`${s.url}/map/style.json`)).json();
    expect(style.sources.land).toMatchObject({ type: 'vector', tiles: [`${s.url}/map/land/{z}/{x}/{y}`], minzoom: 8, maxzoom: 14, attribution: '© OpenStreetMap contributors' });
    const [w, south, e, n] = style.sources.land.bounds as number[];
    // New Zealand, where the demo world's sensors are, within the box
    expect(w! < 166 && e! > 178.6 && south! < -47.3 && n! > -34.4).toBe(true);
    const ids = style.layers.map((l: { id: string }) => l.id);
    expect(ids.indexOf('fine-land')).toBeGreaterThan(ids.indexOf('land'));
    expect(style.layers.find((l: { id: string }) => l.id === 'fine-land')).toMatchObject({ source: 'land', 'source-layer': 'land', minzoom: 8 });
    // from zoom 8 Natural Earth's polygons within the region are left out
    expect(JSON.stringify(style.layers.find((l: { id: string }) => l.id === 'land').filter)).toContain('"fine"');
  });

  it("puts Mount Maunganui on land at zoom 14 and Tauranga Harbour's water in the sea, where Natural Earth's 1:50m has them the other way round", async () => {
    const mount: [number, number] = [176.19, -37.655];
    const harbour: [number, number] = [176.12, -37.655];
    expect(onCoarseLand(...mount)).toBe(false);
    expect(onCoarseLand(...harbour)).toBe(true);
    for (const z of [14, 11, 8]) {
      const m = await tileAt(...mount, z);
      expect(onLand(m.polygons, m.at), `Mount Maunganui at zoom ${z}`).toBe(true);
      const h = await tileAt(...harbour, z);
      expect(onLand(h.polygons, h.at), `the harbour at zoom ${z}`).toBe(false);
    }
    // the open sea within the region: a tile with no land
    const sea = await tileAt(171, -36, 10);
    expect(sea.polygons).toEqual([]);
  });

  it("stands every sensor of the demo world on land at zoom 14, the wharf's tide gauge and the fuel depot by the harbour among them", async () => {
    const placed = DEMO_SENSORS;
    expect(placed.map((d) => d.name)).toEqual(expect.arrayContaining(['Harbour Tide Gauge', 'Diesel Depot Tank 1']));
    for (const d of placed) {
      const t = await tileAt(d.lng, d.lat, 14);
      expect(onLand(t.polygons, t.at), `${d.name} at ${d.lat}, ${d.lng}`).toBe(true);
    }
  });

  it('answers a tile outside its zooms or the world, or malformed, with 404 and says which tiles there are', async () => {
    for (const bad of ['7/126/77', '15/32512/20000', '8/256/0', '8/0/256', '8/x/1', '8/-1/2', '8/1.5/2']) {
      const res = await fetch(`${s.url}/map/land/${bad}`);
      expect(res.status, bad).toBe(404);
      if (!bad.includes('-')) expect((await res.json()).message, bad).toMatch(/zoom 8 to 14/);
    }
  });
});
