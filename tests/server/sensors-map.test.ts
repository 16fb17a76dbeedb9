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
    for (const src of Object.values(style.sources) as { data?: string; tiles?: string[] }[]) for (const u of src.tiles ?? [src.data!]) expect(u.startsWith(s.url)).toBe(true);
  });

  it('serves land polygons that cover New Zealand and the borders between countries, in one source', async () => {
    const style = await (await fetch(`${s.url}/map/style.json`)).json();
    const sources = Object.values(style.sources).filter((src) => (src as { type: string }).type === 'geojson') as { data: string }[];
    expect(sources).toHaveLength(1);
    const world = await (await fetch(sources[0].data)).json();
    expect(world.type).toBe('FeatureCollection');
    const types = new Set((world.features as { geometry: { type: string } }[]).map((f) => f.geometry.type));
    expect([...types].sort()).toEqual(['MultiLineString', 'Polygon']);
    const land = world.features.filter((f: { geometry: { type: string } }) => f.geometry.type === 'Polygon');
    // a coordinate near Tauranga's longitude and latitude appears in the land outline, on a polygon
    // marked as within the finer land's region (the style leaves those out from zoom 8)
    const tauranga = land.filter((f: unknown) => /17[5-7]\.\d+,-3[6-8]\.\d+/.test(JSON.stringify(f)));
    expect(tauranga.length).toBeGreaterThan(0);
    for (const f of tauranga) expect(f.properties).toEqual({ fine: true });
    // Australia's are not
    expect(land.some((f: { properties: object }) => /15[0-3]\.\d+,-3[3-4]\.\d+/.test(JSON.stringify(f)) && !('fine' in f.properties))).toBe(true);
    // a style cached before the one source still finds its land
    const old = await (await fetch(`${s.url}/map/land.geojson`)).json();
    expect(old).toEqual({ type: 'FeatureCollection', features: land });
    const borders = world.features.find((f: { geometry: { type: string } }) => f.geometry.type === 'MultiLineString');
    expect(await (await fetch(`${s.url}/map/borders.geojson`)).json()).toEqual(borders.geometry);
  });

  it('names places from the bundled gazetteer, as vector tiles from zoom 8 to 10 (issue 34)', async () => {
    const style = (await (await fetch(`${s.url}/map/style.json`)).json()) as { sources: Record<string, { type: string; tiles?: string[]; minzoom?: number; maxzoom?: number }>; layers: { id: string; type: string; source?: string; layout?: Record<string, unknown> }[] };
    expect(style.sources.places).toMatchObject({ type: 'vector', tiles: [`${s.url}/map/places/{z}/{x}/{y}`], minzoom: 8, maxzoom: 10 });
    const layer = style.layers.find((l) => l.source === 'places')!;
    expect(layer).toMatchObject({ id: 'places', type: 'symbol', layout: { 'text-field': ['get', 'name'] } });
    // Tauranga (-37.686, 176.167) lies in tile 10/1013/627
    const tile = await fetch(`${s.url}/map/places/10/1013/627`);
    expect(tile.status).toBe(200);
    expect(tile.headers.get('content-type')).toBe('application/vnd.mapbox-vector-tile');
    const body = Buffer.from(await tile.arrayBuffer());
    expect(body.includes('Tauranga')).toBe(true);
    expect(body.includes('Rotorua')).toBe(false); // 50 km away, in another tile
    expect(Buffer.from(await (await fetch(`${s.url}/map/places/8/253/157`)).arrayBuffer()).includes('Rotorua')).toBe(true);
    // the open sea holds no places; outside the zooms or the world, no tile
    expect((await (await fetch(`${s.url}/map/places/8/28/150`)).arrayBuffer()).byteLength).toBe(0);
    for (const bad of ['7/126/77', '11/2026/1246', '8/256/0', '8/x/1']) expect((await fetch(`${s.url}/map/places/${bad}`)).status, bad).toBe(404);
  });
});
