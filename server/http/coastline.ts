/*
 * The offline map's finer land for one region (server/http/coastline-nz.bin.gz, written by
 * server/cli/build-coastline.ts): land polygons in Web Mercator, quantised and delta-encoded, cut
 * into vector tiles on request (map.routes.ts). Outside the region and below FINE_MIN_ZOOM the map
 * draws Natural Earth's 1:50m land instead.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { encodeTile, EXTENT, type Point } from './mvt';

/** The world is 2^WORLD_BITS units wide: zoom 14's tiles at EXTENT units each, about half a metre at 40 degrees of latitude. */
export const WORLD_BITS = 26;
export const FINE_MIN_ZOOM = 8;
export const FINE_MAX_ZOOM = 14;
const MAGIC = 'TWLAND1\n';

/** West, south, east, north in degrees. */
export type Box = [number, number, number, number];
/** A polygon's rings (exterior first), each a flat list x0, y0, x1, y1... in world units, not closed. */
export type Rings = number[][];
export interface LandFile {
  /** The region the land was cut to: the map draws its land from this file within it. */
  region: Box;
  polygons: Rings[];
}

/** Web Mercator world units (0 to 2^WORLD_BITS, y down) of a longitude and latitude. */
export function worldUnits(lng: number, lat: number): [number, number] {
  const n = 2 ** WORLD_BITS;
  const rad = (Math.max(-85.0511, Math.min(85.0511, lat)) * Math.PI) / 180;
  return [((lng + 180) / 360) * n, ((1 - Math.log(Math.tan(rad) + 1 / Math.cos(rad)) / Math.PI) / 2) * n];
}

// the file: MAGIC, then varints (zigzag where signed): the region in microdegrees, the polygon count,
// and per polygon its ring count, per ring its point count and the points as deltas from the one before
function writeVarint(out: number[], n: number) {
  let v = n;
  while (v >= 0x80) {
    out.push((v % 0x80) | 0x80);
    v = Math.floor(v / 0x80);
  }
  out.push(v);
}
const zig = (n: number) => (n < 0 ? -2 * n - 1 : 2 * n);
const unzig = (n: number) => (n % 2 ? -(n + 1) / 2 : n / 2);

export function encodeLandFile(land: LandFile): Uint8Array {
  const out: number[] = [...new TextEncoder().encode(MAGIC)];
  for (const d of land.region) writeVarint(out, zig(Math.round(d * 1e6)));
  writeVarint(out, land.polygons.length);
  let [px, py] = [0, 0];
  for (const rings of land.polygons) {
    writeVarint(out, rings.length);
    for (const ring of rings) {
      writeVarint(out, ring.length / 2);
      for (let i = 0; i < ring.length; i += 2) {
        writeVarint(out, zig(ring[i]! - px));
        writeVarint(out, zig(ring[i + 1]! - py));
        [px, py] = [ring[i]!, ring[i + 1]!];
      }
    }
  }
  return Uint8Array.from(out);
}

export function decodeLandFile(bytes: Uint8Array): LandFile {
  const magic = new TextDecoder().decode(bytes.subarray(0, MAGIC.length));
  if (magic !== MAGIC) throw new Error('not a land file (server/cli/build-coastline.ts writes them)');
  let at = MAGIC.length;
  const read = () => {
    let n = 0;
    let scale = 1;
    for (;;) {
      const b = bytes[at++]!;
      n += (b & 0x7f) * scale;
      if (b < 0x80) return n;
      scale *= 0x80;
    }
  };
  const region = [0, 0, 0, 0].map(() => unzig(read()) / 1e6) as Box;
  const polygons: Rings[] = [];
  let [px, py] = [0, 0];
  for (let p = read(); p > 0; p--) {
    const rings: Rings = [];
    for (let r = read(); r > 0; r--) {
      const ring: number[] = [];
      for (let n = read(); n > 0; n--) {
        px += unzig(read());
        py += unzig(read());
        ring.push(px, py);
      }
      rings.push(ring);
    }
    polygons.push(rings);
  }
  return { region, polygons };
}

/** Sutherland-Hodgman: the part of a closed ring on one side of an axis-parallel line (a ring that leaves and comes back runs along it). */
function clipSide(ring: number[], axis: 0 | 1, bound: number, keepBelow: boolean): number[] {
  const out: number[] = [];
  const n = ring.length / 2;
  if (n === 0) return out;
  const inside = (i: number) => (keepBelow ? ring[2 * i + axis]! <= bound : ring[2 * i + axis]! >= bound);
  for (let i = 0; i < n; i++) {
    const j = (i + n - 1) % n;
    const [inI, inJ] = [inside(i), inside(j)];
    if (inI !== inJ) {
      const [ax, ay, bx, by] = [ring[2 * j]!, ring[2 * j + 1]!, ring[2 * i]!, ring[2 * i + 1]!];
      const t = (bound - (axis === 0 ? ax : ay)) / (axis === 0 ? bx - ax : by - ay);
      out.push(axis === 0 ? bound : ax + t * (bx - ax), axis === 0 ? ay + t * (by - ay) : bound);
    }
    if (inI) out.push(ring[2 * i]!, ring[2 * i + 1]!);
  }
  return out;
}
export function clipRing(ring: number[], [x0, y0, x1, y1]: [number, number, number, number]): number[] {
  // most rings of a tile (a coast's lakes) lie wholly inside or outside it: one pass tells
  let [w, n, e, s] = [Infinity, Infinity, -Infinity, -Infinity];
  for (let i = 0; i < ring.length; i += 2) {
    const [x, y] = [ring[i]!, ring[i + 1]!];
    if (x < w) w = x;
    if (x > e) e = x;
    if (y < n) n = y;
    if (y > s) s = y;
  }
  if (e < x0 || w > x1 || s < y0 || n > y1) return [];
  if (w >= x0 && e <= x1 && n >= y0 && s <= y1) return ring;
  return clipSide(clipSide(clipSide(clipSide(ring, 0, x0, false), 0, x1, true), 1, y0, false), 1, y1, true);
}

/** Douglas-Peucker over a flat list of points (kept: the ends and every point further than tolerance from its simplified span). */
export function simplify(points: number[], tolerance: number): number[] {
  const n = points.length / 2;
  if (n <= 2 || tolerance <= 0) return points;
  const keep = new Uint8Array(n);
  keep[0] = keep[n - 1] = 1;
  const stack = [0, n - 1];
  const t2 = tolerance * tolerance;
  while (stack.length) {
    const last = stack.pop()!;
    const first = stack.pop()!;
    const [ax, ay, bx, by] = [points[2 * first]!, points[2 * first + 1]!, points[2 * last]!, points[2 * last + 1]!];
    const [dx, dy] = [bx - ax, by - ay];
    const len2 = dx * dx + dy * dy;
    let [worst, at] = [t2, -1];
    for (let i = first + 1; i < last; i++) {
      const [px, py] = [points[2 * i]! - ax, points[2 * i + 1]! - ay];
      let d2: number;
      if (len2 === 0) d2 = px * px + py * py;
      else {
        const t = Math.max(0, Math.min(1, (px * dx + py * dy) / len2));
        d2 = (px - t * dx) ** 2 + (py - t * dy) ** 2;
      }
      if (d2 > worst) [worst, at] = [d2, i];
    }
    if (at >= 0) {
      keep[at] = 1;
      stack.push(first, at, at, last);
    }
  }
  const out: number[] = [];
  for (let i = 0; i < n; i++) if (keep[i]) out.push(points[2 * i]!, points[2 * i + 1]!);
  return out;
}

/** A closed ring simplified as two halves, so its first point is not the only one kept for sure. */
export function simplifyRing(ring: number[], tolerance: number): number[] {
  const n = ring.length / 2;
  if (n < 8 || tolerance <= 0) return ring;
  const half = Math.floor(n / 2);
  const a = simplify(ring.slice(0, 2 * half + 2), tolerance);
  const b = simplify([...ring.slice(2 * half), ring[0]!, ring[1]!], tolerance);
  return [...a.slice(0, -2), ...b.slice(0, -2)];
}

/** Twice the ring's signed area (positive for an MVT exterior ring: clockwise with y down). */
function area2(ring: Point[]): number {
  let sum = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) sum += ring[j]![0] * ring[i]![1] - ring[i]![0] * ring[j]![1];
  return sum;
}

/** Tile units beyond each edge that a tile's polygons reach, so that the coast line drawn along a polygon's edge shows no seam at tile edges. */
const BUFFER = 64;

/** The land of tile z/x/y (z from FINE_MIN_ZOOM to FINE_MAX_ZOOM) as one layer `land` of polygons. */
export function landTile(land: { polygons: Rings[]; boxes: Float64Array }, z: number, x: number, y: number): Uint8Array<ArrayBuffer> {
  const unit = 2 ** (WORLD_BITS - z) / EXTENT;
  const [ox, oy] = [x * EXTENT * unit, y * EXTENT * unit];
  const box: [number, number, number, number] = [ox - BUFFER * unit, oy - BUFFER * unit, ox + (EXTENT + BUFFER) * unit, oy + (EXTENT + BUFFER) * unit];
  const features = [];
  for (let p = 0; p < land.polygons.length; p++) {
    const b = land.boxes.subarray(4 * p, 4 * p + 4);
    if (b[2]! < box[0] || b[0]! > box[2] || b[3]! < box[1] || b[1]! > box[3]) continue;
    const rings: Point[][] = [];
    for (const [r, ring] of land.polygons[p]!.entries()) {
      // below zoom 14 a tile unit is coarser than the data: an eighth of a 512-pixel tile's pixel
      const clipped = simplifyRing(clipRing(ring, box), z < FINE_MAX_ZOOM ? unit : 0);
      const points: Point[] = [];
      for (let i = 0; i < clipped.length; i += 2) {
        const pt: Point = [Math.round((clipped[i]! - ox) / unit), Math.round((clipped[i + 1]! - oy) / unit)];
        const prev = points[points.length - 1];
        if (!prev || prev[0] !== pt[0] || prev[1] !== pt[1]) points.push(pt);
      }
      while (points.length > 1 && points[0]![0] === points[points.length - 1]![0] && points[0]![1] === points[points.length - 1]![1]) points.pop();
      const a = points.length >= 3 ? area2(points) : 0;
      if (a === 0) {
        if (r === 0) break; // no exterior in this tile: none of its holes either
        continue;
      }
      // exterior rings positive, holes negative, whichever way the data ran
      if (r === 0 ? a < 0 : a > 0) points.reverse();
      rings.push(points);
    }
    if (rings.length) features.push({ type: 3 as const, points: [], rings, properties: {} });
  }
  return encodeTile({ land: features });
}

/** The land file's polygons with their bounding boxes in world units (west, north, east, south as x0, y0, x1, y1). */
export function indexLand(file: LandFile) {
  const boxes = new Float64Array(file.polygons.length * 4);
  file.polygons.forEach((rings, p) => {
    const ring = rings[0]!;
    let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
    for (let i = 0; i < ring.length; i += 2) {
      x0 = Math.min(x0, ring[i]!);
      x1 = Math.max(x1, ring[i]!);
      y0 = Math.min(y0, ring[i + 1]!);
      y1 = Math.max(y1, ring[i + 1]!);
    }
    boxes.set([x0, y0, x1, y1], 4 * p);
  });
  return { region: file.region, polygons: file.polygons, boxes };
}

export function readLandFile(path: string): LandFile {
  return decodeLandFile(gunzipSync(readFileSync(path)));
}
