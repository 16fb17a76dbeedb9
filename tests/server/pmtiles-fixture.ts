import { writeFileSync } from 'node:fs';
import { zxyToTileId } from 'pmtiles';
import { encodeTile, EXTENT, tileCoordinates, varint, type Point } from '../../server/http/mvt';

/*
 * A small PMTiles v3 archive of vector tiles in the Protomaps basemap layout, built by the tests
 * themselves (no download): a block of tiles around a point, each with an `earth` polygon over the
 * whole tile and the `roads` that cross it. The tiles are encoded by server/http/mvt.ts, the PMTiles
 * header and directory are written here (uncompressed: compression 1, "none", which readers accept).
 */

const BUFFER = 64;

/** A straight street of the Protomaps `roads` layer: along a latitude (east-west) or a longitude (north-south). */
export interface Street {
  name: string;
  kind: 'highway' | 'major_road' | 'minor_road';
  along: { lat: number; lngFrom: number; lngTo: number } | { lng: number; latFrom: number; latTo: number };
}

/** The street's part inside tile x/y at zoom z, in the tile's coordinates (clipped to its buffer), or undefined. */
function clip(street: Street, z: number, x: number, y: number): Point[] | undefined {
  const local = (lng: number, lat: number): Point => {
    const [tx, ty] = tileCoordinates(lng, lat, z);
    return [Math.round((tx - x) * EXTENT), Math.round((ty - y) * EXTENT)];
  };
  const inside = (v: number) => v >= 0 && v < EXTENT;
  const clamp = (v: number) => Math.max(-BUFFER, Math.min(EXTENT + BUFFER, v));
  const a = 'lat' in street.along ? local(street.along.lngFrom, street.along.lat) : local(street.along.lng, street.along.latFrom);
  const b = 'lat' in street.along ? local(street.along.lngTo, street.along.lat) : local(street.along.lng, street.along.latTo);
  const [across, from, to] = 'lat' in street.along ? [a[1], a[0], b[0]] : [a[0], a[1], b[1]];
  const lo = clamp(Math.min(from, to));
  const hi = clamp(Math.max(from, to));
  if (!inside(across) || lo >= hi) return undefined;
  return 'lat' in street.along ? [[lo, across], [hi, across]] : [[across, lo], [across, hi]];
}

interface ArchiveTile {
  z: number;
  x: number;
  y: number;
  data: Uint8Array;
}

/** The tiles of a (2r+1) x (2r+1) block around a point at each zoom: earth everywhere, the streets where they pass. */
export function streetTiles(centre: { lat: number; lng: number }, streets: Street[], zooms: number[], r = 1): ArchiveTile[] {
  const tiles: ArchiveTile[] = [];
  for (const z of zooms) {
    const [cx, cy] = tileCoordinates(centre.lng, centre.lat, z).map(Math.floor);
    for (let x = cx - r; x <= cx + r; x++) {
      for (let y = cy - r; y <= cy + r; y++) {
        const land: Point[] = [[-BUFFER, -BUFFER], [EXTENT + BUFFER, -BUFFER], [EXTENT + BUFFER, EXTENT + BUFFER], [-BUFFER, EXTENT + BUFFER]];
        const roads = streets.flatMap((s) => {
          const points = clip(s, z, x, y);
          return points ? [{ type: 2 as const, points, properties: { kind: s.kind, name: s.name } }] : [];
        });
        tiles.push({ z, x, y, data: encodeTile({ earth: [{ type: 3, points: land, properties: { kind: 'earth' } }], roads }) });
      }
    }
  }
  return tiles;
}

/** A PMTiles v3 archive of MVT tiles: header, root directory, metadata, tile data (no leaf directories). */
export function pmtilesArchive(tiles: ArchiveTile[], metadata: Record<string, unknown> = {}): Buffer {
  const entries = tiles.map((t) => ({ ...t, id: zxyToTileId(t.z, t.x, t.y) })).sort((a, b) => a.id - b.id);
  let offset = 0;
  const placed = entries.map((e) => {
    const at = offset;
    offset += e.data.length;
    return { ...e, offset: at };
  });
  let last = 0;
  const directory = Buffer.from([
    ...varint(placed.length),
    ...placed.flatMap((e) => {
      const delta = e.id - last;
      last = e.id;
      return varint(delta);
    }),
    ...placed.flatMap(() => varint(1)), // run lengths
    ...placed.flatMap((e) => varint(e.data.length)),
    // 0: right after the previous tile; otherwise offset + 1
    ...placed.flatMap((e, i) => (i > 0 && e.offset === placed[i - 1].offset + placed[i - 1].data.length ? varint(0) : varint(e.offset + 1))),
  ]);
  const vectorLayers = [
    { id: 'earth', fields: { kind: 'String' } },
    { id: 'roads', fields: { kind: 'String', name: 'String' } },
  ];
  const meta = Buffer.from(JSON.stringify({ name: 'Tidewatch test streets', vector_layers: vectorLayers, ...metadata }));
  const data = Buffer.concat(placed.map((e) => e.data));

  const zooms = entries.map((e) => e.z);
  const lng = (x: number, z: number) => (x / 2 ** z) * 360 - 180;
  const lat = (y: number, z: number) => (Math.atan(Math.sinh(Math.PI * (1 - (2 * y) / 2 ** z))) * 180) / Math.PI;
  const bounds = {
    west: Math.min(...entries.map((e) => lng(e.x, e.z))),
    east: Math.max(...entries.map((e) => lng(e.x + 1, e.z))),
    south: Math.min(...entries.map((e) => lat(e.y + 1, e.z))),
    north: Math.max(...entries.map((e) => lat(e.y, e.z))),
  };

  const header = Buffer.alloc(127);
  header.write('PMTiles', 0, 'latin1');
  header[7] = 3;
  const rootAt = 127;
  const metaAt = rootAt + directory.length;
  const dataAt = metaAt + meta.length;
  const u64 = (at: number, v: number) => header.writeBigUInt64LE(BigInt(v), at);
  u64(8, rootAt);
  u64(16, directory.length);
  u64(24, metaAt);
  u64(32, meta.length);
  u64(40, dataAt); // no leaf directories
  u64(48, 0);
  u64(56, dataAt);
  u64(64, data.length);
  u64(72, entries.length); // addressed tiles
  u64(80, entries.length); // tile entries
  u64(88, entries.length); // tile contents
  header[96] = 1; // clustered: tile data in tile id order
  header[97] = 1; // internal compression: none
  header[98] = 1; // tile compression: none
  header[99] = 1; // tile type: MVT
  header[100] = Math.min(...zooms);
  header[101] = Math.max(...zooms);
  const e7 = (at: number, v: number) => header.writeInt32LE(Math.round(v * 1e7), at);
  e7(102, bounds.west);
  e7(106, bounds.south);
  e7(110, bounds.east);
  e7(114, bounds.north);
  header[118] = Math.max(...zooms);
  e7(119, (bounds.west + bounds.east) / 2);
  e7(123, (bounds.south + bounds.north) / 2);
  return Buffer.concat([header, directory, meta, data]);
}

/** Kaituna River Weir in the demo world (README "Demo world"), which the map page centres at zoom 14. */
export const WEIR = { lat: -37.7712, lng: 176.4021 };

/** The streets of the test archive: a grid around the weir, the one the browser test looks for 0.002 degrees (about 60 px at zoom 14) north of it. */
export const TEST_STREETS: Street[] = [
  { name: 'Tideway Road', kind: 'major_road', along: { lat: WEIR.lat + 0.002, lngFrom: WEIR.lng - 0.05, lngTo: WEIR.lng + 0.05 } },
  { name: 'Weir Lane', kind: 'minor_road', along: { lat: WEIR.lat - 0.003, lngFrom: WEIR.lng - 0.05, lngTo: WEIR.lng + 0.05 } },
  { name: 'Estuary Street', kind: 'minor_road', along: { lng: WEIR.lng - 0.004, latFrom: WEIR.lat - 0.05, latTo: WEIR.lat + 0.05 } },
  { name: 'Harbour Highway', kind: 'highway', along: { lng: WEIR.lng + 0.006, latFrom: WEIR.lat - 0.05, latTo: WEIR.lat + 0.05 } },
];

/** Writes the test archive (zooms 13 and 14 around the weir) to `path`; returns its bytes. */
export function writeTestStreetArchive(path: string): Buffer {
  const archive = pmtilesArchive(streetTiles(WEIR, TEST_STREETS, [13, 14]));
  writeFileSync(path, archive);
  return archive;
}
