import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { mapStyles } from './client-config';
import { contentSecurityPolicy } from './security-headers';

const ORIGIN = 'https://tidewatch.example';

describe('map types (issue 34: each map type its own style)', () => {
  it('offers only Roadmap by default: the offline style, which draws land, sea, borders and place names and nothing a satellite or terrain map would', () => {
    expect(mapStyles(loadConfig({}), ORIGIN)).toEqual({ roadmap: `${ORIGIN}/map/style.json` });
  });

  it('gives each configured type its own style and leaves out the others', () => {
    const config = loadConfig({
      MAP_STYLE_URL_ROADMAP: 'https://tiles.example/roadmap.json',
      MAP_STYLE_URL_SATELLITE: 'https://imagery.example/satellite.json',
      MAP_STYLE_URL_TERRAIN: 'https://tiles.example/terrain.json',
    });
    expect(mapStyles(config, ORIGIN)).toEqual({
      roadmap: 'https://tiles.example/roadmap.json',
      satellite: 'https://imagery.example/satellite.json',
      terrain: 'https://tiles.example/terrain.json',
    });
    // a Hybrid style alone: Roadmap stays the offline one
    expect(mapStyles(loadConfig({ MAP_STYLE_URL_HYBRID: 'https://imagery.example/hybrid.json' }), ORIGIN)).toEqual({
      roadmap: `${ORIGIN}/map/style.json`,
      hybrid: 'https://imagery.example/hybrid.json',
    });
  });

  it('reads MAP_STYLE_URL, the older name, as the Roadmap style', () => {
    expect(mapStyles(loadConfig({ MAP_STYLE_URL: 'https://tiles.example/style.json' }), ORIGIN)).toEqual({ roadmap: 'https://tiles.example/style.json' });
  });

  it('refuses to start on a style that is not an http(s) URL, or on two Roadmap styles, naming the variable', () => {
    expect(() => loadConfig({ MAP_STYLE_URL_SATELLITE: 'satellite.json' })).toThrow(/MAP_STYLE_URL_SATELLITE: Invalid URL/);
    expect(() => loadConfig({ MAP_STYLE_URL_TERRAIN: 'ftp://tiles.example/terrain.json' })).toThrow(/MAP_STYLE_URL_TERRAIN: must start with http: or https:/);
    expect(() => loadConfig({ MAP_STYLE_URL: 'https://a.example/s.json', MAP_STYLE_URL_ROADMAP: 'https://b.example/s.json' })).toThrow(
      /MAP_STYLE_URL: names the Roadmap style as MAP_STYLE_URL_ROADMAP does: set one of them/,
    );
  });

  it("lets the browser reach every configured style's origin under the Content-Security-Policy", () => {
    const csp = contentSecurityPolicy(loadConfig({ MAP_STYLE_URL_HYBRID: 'https://imagery.example/hybrid.json', MAP_STYLE_URL_TERRAIN: 'https://terrain.example:8443/t.json' }));
    const connect = csp.split('; ').find((d) => d.startsWith('connect-src '))!.split(' ');
    expect(connect).toEqual(expect.arrayContaining(['https://imagery.example', 'https://terrain.example:8443']));
  });
});
