import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { makeUser } from './fixtures';
import { startTestServer, type TestServer } from './harness';
import { geocodeResponseSchema } from '../../src/contract/sensor.schema';

/**
 * Address search (issue 34): the bundled gazetteer says it knows places; GEOCODER_URL sends the
 * search to a Nominatim server (its base URL) or a Photon server (its endpoint ending in /api),
 * here fakes of each that answer as the real ones do and record what they were asked.
 */
describe('address search through GEOCODER_URL: Nominatim or Photon (issue 34)', () => {
  let fake: Server;
  let base: string;
  const asked: URL[] = [];
  let s: TestServer;
  let token: string;

  beforeAll(async () => {
    fake = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://fake');
      asked.push(url);
      res.setHeader('Content-Type', 'application/json');
      if (url.pathname === '/nominatim/search') {
        res.end(JSON.stringify([{ display_name: '12, Cameron Road, Tauranga, Bay of Plenty, 3110, New Zealand', lat: '-37.6878', lon: '176.1651' }]));
      } else if (url.pathname === '/api') {
        res.end(
          JSON.stringify({
            type: 'FeatureCollection',
            features: [
              { type: 'Feature', geometry: { type: 'Point', coordinates: [176.1651, -37.6878] }, properties: { housenumber: '12', street: 'Cameron Road', city: 'Tauranga', state: 'Bay of Plenty', country: 'New Zealand' } },
              { type: 'Feature', geometry: { type: 'Point', coordinates: [176.17, -37.69] }, properties: { name: 'Tauranga Library', street: 'Willow Street', city: 'Tauranga', country: 'New Zealand' } },
            ],
          }),
        );
      } else res.writeHead(503).end('{}');
    });
    await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
    s = await startTestServer('pglite');
    token = await s.tokenFor((await makeUser(s.ctx.db)).id);
  });
  afterAll(async () => {
    await s?.close();
    fake?.close();
  });

  /** Searches with GEOCODER_URL as given (the route reads the setting on each request: one server serves every case). */
  async function search(env: { GEOCODER_URL?: string }, q: string) {
    s.ctx.config.GEOCODER_URL = env.GEOCODER_URL;
    const res = await s.api(`/geocode?q=${encodeURIComponent(q)}&lat=-37.7&lng=176.2`, { token });
    return { status: res.status, body: (await res.json()) as unknown };
  }

  it('the bundled gazetteer answers knows: places, also when it finds nothing (a street address)', async () => {
    const { body } = await search({}, '12 Cameron Road');
    expect(geocodeResponseSchema.parse(body)).toEqual({ results: [], knows: 'places' });
  });

  it('a Nominatim base URL: /search with format jsonv2, knows: addresses', async () => {
    const { body } = await search({ GEOCODER_URL: `${base}/nominatim/` }, '12 Cameron Road');
    expect(geocodeResponseSchema.parse(body)).toEqual({
      results: [{ label: '12, Cameron Road, Tauranga, Bay of Plenty, 3110, New Zealand', latitude: -37.6878, longitude: 176.1651 }],
      knows: 'addresses',
    });
    const q = asked.at(-1)!;
    expect([q.pathname, q.searchParams.get('q'), q.searchParams.get('format'), q.searchParams.get('limit')]).toEqual(['/nominatim/search', '12 Cameron Road', 'jsonv2', '5']);
  });

  it("a Photon endpoint (…/api): biased to the map's centre, labels from the address parts, knows: addresses", async () => {
    const { body } = await search({ GEOCODER_URL: `${base}/api` }, '12 Cameron Road');
    expect(geocodeResponseSchema.parse(body)).toEqual({
      results: [
        { label: '12 Cameron Road, Tauranga, Bay of Plenty, New Zealand', latitude: -37.6878, longitude: 176.1651 },
        { label: 'Tauranga Library, Willow Street, Tauranga, New Zealand', latitude: -37.69, longitude: 176.17 },
      ],
      knows: 'addresses',
    });
    const q = asked.at(-1)!;
    expect([q.pathname, q.searchParams.get('q'), q.searchParams.get('limit'), q.searchParams.get('lat'), q.searchParams.get('lon')]).toEqual(['/api', '12 Cameron Road', '5', '-37.7', '176.2']);
  });

  it('a geocoder that fails or cannot be reached: 400 GEOCODER_FAILED with the message', async () => {
    for (const url of [`${base}/broken/`, 'http://127.0.0.1:1/']) {
      const { status, body } = await search({ GEOCODER_URL: url }, 'Cameron Road');
      expect(status).toBe(400);
      expect(body).toMatchObject({ code: 'GEOCODER_FAILED', message: 'Address search is not available right now.' });
    }
  });
});
