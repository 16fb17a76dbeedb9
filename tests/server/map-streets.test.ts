import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FetchSource, PMTiles } from 'pmtiles';
import { startTestServer, type TestServer } from './harness';
import { WEIR, writeTestStreetArchive } from './pmtiles-fixture';
import { tileCoordinates } from '../../server/http/mvt';
import { loadConfig } from '../../server/config';

describe('the self-hosted street map: a PMTiles archive served with range requests (issue 34)', () => {
  let s: TestServer;
  let dir: string;
  let archive: Buffer;
  let url: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tidewatch-pmtiles-'));
    archive = writeTestStreetArchive(join(dir, 'region.pmtiles'));
    s = await startTestServer('pglite', { MAP_PMTILES_PATH: join(dir, 'region.pmtiles') });
    url = `${s.url}/map/streets.pmtiles`;
  });
  afterAll(async () => {
    await s?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const range = (value: string, headers: Record<string, string> = {}) => fetch(url, { headers: { Range: value, ...headers } });

  it('answers one byte range with 206, its Content-Range and exactly those bytes', async () => {
    const res = await range('bytes=0-126');
    expect(res.status).toBe(206);
    expect(res.headers.get('content-range')).toBe(`bytes 0-126/${archive.length}`);
    expect(res.headers.get('content-length')).toBe('127');
    expect(res.headers.get('accept-ranges')).toBe('bytes');
    expect(res.headers.get('content-type')).toBe('application/vnd.pmtiles');
    expect(res.headers.get('content-encoding')).toBeNull();
    expect(Buffer.from(await res.arrayBuffer())).toEqual(archive.subarray(0, 127));

    const open = await range('bytes=200-');
    expect(open.status).toBe(206);
    expect(open.headers.get('content-range')).toBe(`bytes 200-${archive.length - 1}/${archive.length}`);
    expect(Buffer.from(await open.arrayBuffer())).toEqual(archive.subarray(200));

    const suffix = await range('bytes=-10');
    expect(suffix.headers.get('content-range')).toBe(`bytes ${archive.length - 10}-${archive.length - 1}/${archive.length}`);
    expect(Buffer.from(await suffix.arrayBuffer())).toEqual(archive.subarray(archive.length - 10));

    // a range past the end is cut to the file, as pmtiles' first 16 KiB read of a small archive asks
    const long = await range('bytes=0-16383');
    expect(long.status).toBe(206);
    expect(long.headers.get('content-range')).toBe(`bytes 0-${archive.length - 1}/${archive.length}`);
    expect((await long.arrayBuffer()).byteLength).toBe(archive.length);
  });

  it('answers 416 with the size for a range outside the file or one it cannot read', async () => {
    for (const bad of [`bytes=${archive.length}-`, `bytes=${archive.length + 5}-${archive.length + 10}`, 'bytes=-0', 'bytes=50-10', 'bytes=abc', 'lines=0-10']) {
      const res = await range(bad);
      expect(res.status, bad).toBe(416);
      expect(res.headers.get('content-range'), bad).toBe(`bytes */${archive.length}`);
      await res.body?.cancel();
    }
  });

  it('the whole archive without a Range, with a validator and a cache lifetime; If-Range and If-None-Match honoured; HEAD without a body', async () => {
    const whole = await fetch(url);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('accept-ranges')).toBe('bytes');
    expect(whole.headers.get('cache-control')).toBe('public, max-age=86400');
    expect(whole.headers.get('last-modified')).toBeTruthy();
    const etag = whole.headers.get('etag')!;
    expect(etag).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/);
    expect(Buffer.from(await whole.arrayBuffer())).toEqual(archive);

    expect((await range('bytes=0-9', { 'If-Range': etag })).status).toBe(206);
    const changed = await range('bytes=0-9', { 'If-Range': '"another-version"' });
    expect(changed.status).toBe(200);
    expect((await changed.arrayBuffer()).byteLength).toBe(archive.length);
    expect((await fetch(url, { headers: { 'If-None-Match': etag } })).status).toBe(304);

    const head = await fetch(url, { method: 'HEAD', headers: { Range: 'bytes=0-9' } });
    expect(head.status).toBe(206);
    expect(head.headers.get('content-length')).toBe('10');
    expect(head.headers.get('content-range')).toBe(`bytes 0-9/${archive.length}`);
  });

  it("the pmtiles library reads the archive's header and a street tile from the server, as the browser does", async () => {
    const p = new PMTiles(new FetchSource(url));
    const header = await p.getHeader();
    expect([header.specVersion, header.minZoom, header.maxZoom, header.tileType]).toEqual([3, 13, 14, 1]);
    const [x, y] = tileCoordinates(WEIR.lng, WEIR.lat + 0.002, 14).map(Math.floor); // Tideway Road's tile
    const tile = await p.getZxy(14, x, y);
    expect(tile?.data.byteLength).toBeGreaterThan(0);
    // the tile holds the street's name (MVT stores property values as plain strings)
    expect(Buffer.from(tile!.data).includes('Tideway Road')).toBe(true);
    expect(await p.getZxy(14, x + 5, y)).toBeUndefined();
  });

  it('config.json names the street style: Protomaps basemap layers over the archive, nothing from another origin', async () => {
    const cfg = (await (await fetch(`${s.url}/config.json`)).json()) as { map: { styles: Record<string, string> } };
    expect(cfg.map.styles).toEqual({ roadmap: `${s.url}/map/streets/style.json` });
    const style = (await (await fetch(cfg.map.styles.roadmap)).json()) as { sources: Record<string, { type: string; url: string }>; layers: { id: string; layout?: Record<string, unknown> }[]; glyphs?: string; sprite?: string };
    expect(style.sources).toEqual({ protomaps: { type: 'vector', url: `pmtiles://${url}`, attribution: '© OpenStreetMap contributors' } });
    const ids = style.layers.map((l) => l.id);
    expect(ids).toEqual(expect.arrayContaining(['earth', 'water', 'roads_major', 'roads_minor', 'roads_highway', 'roads_labels_major', 'places_locality']));
    // no sprite to draw icons from, so no layer asks for one (town names keep their text); glyphs drawn by the browser
    expect(style.layers.filter((l) => l.layout && 'icon-image' in l.layout)).toEqual([]);
    expect(style.glyphs).toBeUndefined();
    expect(style.sprite).toBeUndefined();
  });

  it('refuses to start on a missing file, a file that is not a PMTiles v3 archive of vector tiles, or two Roadmap maps', () => {
    expect(() => loadConfig({ MAP_PMTILES_PATH: join(dir, 'missing.pmtiles') })).toThrow(/MAP_PMTILES_PATH: cannot be read \(ENOENT\)/);
    writeFileSync(join(dir, 'not.pmtiles'), 'just some text, longer than a PMTiles header is '.repeat(4));
    expect(() => loadConfig({ MAP_PMTILES_PATH: join(dir, 'not.pmtiles') })).toThrow(/MAP_PMTILES_PATH: is not a PMTiles archive/);
    const v2 = Buffer.from(archive);
    v2[7] = 2;
    writeFileSync(join(dir, 'v2.pmtiles'), v2);
    expect(() => loadConfig({ MAP_PMTILES_PATH: join(dir, 'v2.pmtiles') })).toThrow(/MAP_PMTILES_PATH: is a PMTiles version 2 archive; the server reads version 3/);
    const raster = Buffer.from(archive);
    raster[99] = 2; // PNG
    writeFileSync(join(dir, 'raster.pmtiles'), raster);
    expect(() => loadConfig({ MAP_PMTILES_PATH: join(dir, 'raster.pmtiles') })).toThrow(/MAP_PMTILES_PATH: holds raster or other non-vector tiles/);
    expect(() => loadConfig({ MAP_PMTILES_PATH: join(dir, 'region.pmtiles'), MAP_STYLE_URL_ROADMAP: 'https://tiles.example/style.json' })).toThrow(
      /MAP_PMTILES_PATH: is drawn as the Roadmap map, which MAP_STYLE_URL_ROADMAP names too: set one of them/,
    );
  });
});
