/*
 * Mapbox Vector Tile (version 2) encoding, written out: the protobuf of a tile's layers, features,
 * keys and values, and the geometry commands. Used for the offline map's place names
 * (map.routes.ts) and finer land (coastline.ts), and by the tests' PMTiles archive
 * (tests/server/pmtiles-fixture.ts).
 */

/** Tile coordinates run from 0 to EXTENT across a tile. */
export const EXTENT = 4096;

// protobuf: varints (also the PMTiles directory's numbers), and fields of wire type 0 (varint) and 2 (length-delimited)
export function varint(n: number): number[] {
  const out: number[] = [];
  let v = n;
  while (v >= 0x80) {
    out.push((v % 0x80) | 0x80);
    v = Math.floor(v / 0x80);
  }
  out.push(v);
  return out;
}
const field = (n: number, wire: 0 | 2) => varint(n * 8 + wire);
const uint = (n: number, value: number) => [...field(n, 0), ...varint(value)];
const bytes = (n: number, body: number[] | Uint8Array) => [...field(n, 2), ...varint(body.length), ...body];
const text = (n: number, s: string) => bytes(n, new TextEncoder().encode(s));
const packed = (n: number, values: number[]) => bytes(n, values.flatMap(varint));
const zigzag = (n: number) => (n << 1) ^ (n >> 31);
const command = (id: 1 | 2 | 7, count: number) => (id & 7) | (count << 3);

export type Point = [number, number];
export interface Feature {
  type: 1 | 2 | 3; // Point, LineString, Polygon
  points: Point[];
  /** A polygon of several rings (exterior first, then its holes; exteriors of positive area, holes negative): used instead of points. */
  rings?: Point[][];
  properties: Record<string, string>;
}

/** MVT geometry commands: MoveTo, LineTo the rest (and ClosePath for a polygon's ring), zigzag deltas. */
function geometry(f: Feature): number[] {
  const out: number[] = [];
  let [cx, cy] = [0, 0];
  for (const part of f.rings ?? [f.points]) {
    out.push(command(1, 1));
    part.forEach(([x, y], i) => {
      if (i === 1) out.push(command(2, part.length - 1));
      out.push(zigzag(x - cx), zigzag(y - cy));
      [cx, cy] = [x, y];
    });
    if (f.type === 3) out.push(command(7, 1));
  }
  return out;
}

/** One Mapbox Vector Tile (version 2) of named layers. */
export function encodeTile(layers: Record<string, Feature[]>): Uint8Array<ArrayBuffer> {
  const tile: number[] = [];
  for (const [name, features] of Object.entries(layers)) {
    if (!features.length) continue;
    const keys: string[] = [];
    const values: string[] = [];
    const index = (list: string[], v: string) => (list.includes(v) ? list.indexOf(v) : list.push(v) - 1);
    const encoded = features.map((f, id) => {
      const tags = Object.entries(f.properties).flatMap(([k, v]) => [index(keys, k), index(values, v)]);
      return bytes(2, [...uint(1, id + 1), ...packed(2, tags), ...uint(3, f.type), ...packed(4, geometry(f))]);
    });
    const layer = [...uint(15, 2), ...text(1, name), ...encoded.flat(), ...keys.flatMap((k) => text(3, k)), ...values.flatMap((v) => bytes(4, text(1, v))), ...uint(5, EXTENT)];
    // not push(...): a layer of large polygons has more bytes than a call takes arguments
    for (const b of bytes(3, layer)) tile.push(b);
  }
  return Uint8Array.from(tile);
}

/** Web Mercator: a longitude and latitude as tile coordinates (whole part the tile, fraction within it) at zoom z. */
export function tileCoordinates(lng: number, lat: number, z: number): Point {
  const n = 2 ** z;
  const rad = (lat * Math.PI) / 180;
  return [((lng + 180) / 360) * n, ((1 - Math.log(Math.tan(rad) + 1 / Math.cos(rad)) / Math.PI) / 2) * n];
}

