import { describe, expect, it } from 'vitest';
import { boxHolds, clusterIndex, drawBox, type Box, type MapPoint } from './sensor-layers';

// 2,000 sensors over New Zealand, including the Chatham Islands east of the antimeridian
function fleet(): MapPoint[] {
  let seed = 7;
  const rnd = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
  return Array.from({ length: 2000 }, (_, i) => ({
    serial: `T${i}`,
    latitude: i % 10 === 0 ? -44 + rnd() * 0.3 : -46 + rnd() * 11,
    longitude: i % 10 === 0 ? -176.8 + rnd() * 0.5 : 167 + rnd() * 11,
    status: i % 7 === 0 ? 'ALERT' : 'OK',
  }));
}
const inBox = (b: Box, [lng, lat]: [number, number]) => {
  const l = lng < b.west ? lng + 360 : lng > b.east ? lng - 360 : lng;
  return l >= b.west && l <= b.east && lat >= b.south && lat <= b.north;
};

describe('the items deck.gl is given', () => {
  const points = fleet();
  const index = clusterIndex(points);

  it('are exactly the world query’s items inside the box, at street and regional zooms', () => {
    for (const [zoom, view] of [
      [12, { west: 174.7, south: -41.35, east: 174.9, north: -41.2 }],
      [8, { west: 172, south: -44, east: 175, north: -42 }],
    ] as const) {
      const box = drawBox(view);
      const got = index.at(zoom, box);
      const want = index.at(zoom).filter((d) => inBox(box, d.position));
      expect(got.length).toBeGreaterThan(0);
      expect(got.length).toBeLessThan(index.at(zoom).length);
      expect(new Set(got.map((d) => `${d.index}/${d.count}/${d.position.join()}`))).toEqual(new Set(want.map((d) => `${d.index}/${d.count}/${d.position.join()}`)));
    }
  });

  it('cross the antimeridian: a view east of New Zealand still gets the Chatham Islands', () => {
    const box = drawBox({ west: 176, south: -46, east: 181, north: -42 }); // the map's unwrapped bounds
    const got = index.at(10, box);
    expect(got.some((d) => d.position[0] < -176)).toBe(true);
    expect(got.some((d) => d.position[0] > 176)).toBe(true);
  });

  it('hold every sensor once, counted in clusters, when the view is the world', () => {
    const box = drawBox({ west: -200, south: -80, east: 200, north: 80 });
    const items = index.at(3, box);
    expect(items.reduce((n, d) => n + d.count, 0)).toBe(points.length);
    // a cluster takes its worst member's colour
    expect(items.filter((d) => d.count > 1).every((d) => d.status === 'ALERT')).toBe(true);
  });

  it('are queried again only when the view leaves the box', () => {
    const view = { west: 174, south: -42, east: 175, north: -41 };
    const box = drawBox(view);
    expect(boxHolds(box, view)).toBe(true);
    expect(boxHolds(box, { west: 174.9, south: -42, east: 175.9, north: -41 })).toBe(true); // most of a view's pan
    expect(boxHolds(box, { west: 175.1, south: -42, east: 176.1, north: -41 })).toBe(false);
    expect(boxHolds(box, { west: 174, south: -43.1, east: 175, north: -42.1 })).toBe(false);
    expect(boxHolds(drawBox({ west: -150, south: -60, east: 10, north: 60 }), { west: 100, south: -60, east: 260, north: 60 })).toBe(true);
  });
});
