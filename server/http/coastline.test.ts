import { describe, expect, it } from 'vitest';
import { clipRing, decodeLandFile, encodeLandFile, indexLand, landTile, simplify, worldUnits, WORLD_BITS } from './coastline';

describe('the finer land file and its tiles (coastline.ts)', () => {
  it('reads back the region and every ring it wrote, negative deltas and large numbers included', () => {
    const land = {
      region: [165, -48.5, 179, -33.5] as [number, number, number, number],
      polygons: [
        [
          [63_000_000, 40_000_000, 63_000_100, 40_000_000, 63_000_100, 40_000_100],
          [63_000_010, 40_000_010, 63_000_020, 40_000_010, 63_000_020, 40_000_020],
        ],
        [[5, 5, 2 ** WORLD_BITS - 1, 5, 5, 2 ** WORLD_BITS - 1]],
      ],
    };
    expect(decodeLandFile(encodeLandFile(land))).toEqual(land);
    expect(() => decodeLandFile(new TextEncoder().encode('{"type":"FeatureCollection"}'))).toThrow(/not a land file/);
  });

  it('clips a ring to a box, keeping rings wholly inside as they are and dropping those outside', () => {
    const square = [0, 0, 10, 0, 10, 10, 0, 10];
    expect(clipRing(square, [-1, -1, 11, 11])).toBe(square);
    expect(clipRing(square, [20, 20, 30, 30])).toEqual([]);
    const half = clipRing(square, [5, -1, 20, 20]);
    const xs = half.filter((_, i) => i % 2 === 0);
    expect(Math.min(...xs)).toBe(5);
    expect(Math.max(...xs)).toBe(10);
    expect(half.length / 2).toBe(4);
  });

  it('simplifies within its tolerance, keeping the corners', () => {
    expect(simplify([0, 0, 5, 0.4, 10, 0, 10, 10], 1)).toEqual([0, 0, 10, 0, 10, 10]);
    expect(simplify([0, 0, 5, 3, 10, 0], 1)).toEqual([0, 0, 5, 3, 10, 0]);
  });

  it('cuts a tile of the land that reaches it, and none a tile away (orientation: tests/server/map-coastline.test.ts)', () => {
    // a square island of about 1 km with a lake, around 176.18 E, 37.65 S
    const [cx, cy] = worldUnits(176.18, -37.65).map(Math.round) as [number, number];
    const ring = (r: number, clockwise: boolean) => {
      const pts = [cx - r, cy - r, cx + r, cy - r, cx + r, cy + r, cx - r, cy + r];
      if (clockwise) return pts;
      const out: number[] = [];
      for (let i = pts.length - 2; i >= 0; i -= 2) out.push(pts[i]!, pts[i + 1]!);
      return out;
    };
    const land = indexLand({ region: [165, -48.5, 179, -33.5], polygons: [[ring(1000, false), ring(200, false)]] });
    const z = 12;
    const [x, y] = [Math.floor(cx / 2 ** (WORLD_BITS - z)), Math.floor(cy / 2 ** (WORLD_BITS - z))];
    const tile = landTile(land, z, x, y);
    expect(tile.length).toBeGreaterThan(20);
    expect(new TextDecoder().decode(tile)).toContain('land');
    expect(landTile(land, z, x + 3, y).length).toBe(0);
  });
});
