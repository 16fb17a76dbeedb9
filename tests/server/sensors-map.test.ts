import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness';

describe('the offline map style (DESIGN: maps work with no network; the dashboard map)', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer('pglite');
  });
  afterAll(() => s?.close());

  it('serves a MapLibre style whose sources are on this server, as config.json points to it', async () => {
    const cfg = await (await fetch(`${s.url}/config.json`)).json();
    const res = await fetch(cfg.map.styles.roadmap);
    expect(res.status).toBe(200);
    const style = await res.json();
    expect(style.version).toBe(8);
    for (const src of Object.values(style.sources) as { data: string }[]) expect(src.data.startsWith(s.url)).toBe(true);
  });

  it('serves land polygons that cover New Zealand and the borders between countries, in one source', async () => {
    const style = await (await fetch(`${s.url}/map/style.json`)).json();
    const sources = Object.values(style.sources) as { data: string }[];
    expect(sources).toHaveLength(1);
    const world = await (await fetch(sources[0].data)).json();
    expect(world.type).toBe('FeatureCollection');
    const types = (world.features as { geometry: { type: string } }[]).map((f) => f.geometry.type).sort();
    expect(types).toEqual(['MultiLineString', 'MultiPolygon']);
    const land = world.features.find((f: { geometry: { type: string } }) => f.geometry.type === 'MultiPolygon');
    // a coordinate near Tauranga's longitude and latitude appears in the land outline
    expect(JSON.stringify(land)).toMatch(/17[5-7]\.\d+,-3[6-8]\.\d+/);
    // a style cached before the one source still finds its land
    const old = await (await fetch(`${s.url}/map/land.geojson`)).json();
    expect(old).toEqual({ type: 'FeatureCollection', features: [land] });
    const borders = world.features.find((f: { geometry: { type: string } }) => f.geometry.type === 'MultiLineString');
    expect(await (await fetch(`${s.url}/map/borders.geojson`)).json()).toEqual(borders.geometry);
  });
});
