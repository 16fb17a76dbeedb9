import { describe, expect, it } from 'vitest';
import { initialView, isMappable, MAP_DEFAULT_CENTRE, MAP_DEFAULT_ZOOM, needsZoomIn } from './map-view';

describe('initialView (fit to the organisation sensors, monitoring-client 9)', () => {
  it('opens on the default centre and zoom with no located sensor', () => {
    expect(initialView([])).toEqual({ kind: 'centre', centre: MAP_DEFAULT_CENTRE, zoom: MAP_DEFAULT_ZOOM });
  });
  it('centres a spread under 0.002 degrees at the default zoom', () => {
    const v = initialView([
      { latitude: -37.0, longitude: 176.0 },
      { latitude: -37.0015, longitude: 176.001 },
    ]);
    expect(v.kind).toBe('centre');
    if (v.kind === 'centre') {
      expect(v.zoom).toBe(14);
      expect(v.centre.latitude).toBeCloseTo(-37.00075, 6);
      expect(v.centre.longitude).toBeCloseTo(176.0005, 6);
    }
  });
  it('widens a spread between 0.002 and 0.06 degrees to 0.06 around its middle', () => {
    const v = initialView([
      { latitude: -37.0, longitude: 176.0 },
      { latitude: -37.01, longitude: 176.02 },
    ]);
    expect(v).toMatchObject({ kind: 'bounds' });
    if (v.kind === 'bounds') {
      expect(v.north - v.south).toBeCloseTo(0.06, 9);
      expect(v.east - v.west).toBeCloseTo(0.06, 9);
      expect((v.east + v.west) / 2).toBeCloseTo(176.01, 9);
    }
  });
  it('fits a wider spread to its bounds exactly', () => {
    expect(
      initialView([
        { latitude: -37.7, longitude: 176.4 },
        { latitude: -43.5, longitude: 172.3 },
      ]),
    ).toEqual({ kind: 'bounds', south: -43.5, north: -37.7, west: 172.3, east: 176.4 });
  });
  it('applies each threshold strictly below it', () => {
    expect(initialView([{ latitude: 0, longitude: 0 }, { latitude: 0.002, longitude: 0 }]).kind).toBe('bounds');
    const at = initialView([{ latitude: 0, longitude: 0 }, { latitude: 0.06, longitude: 0 }]);
    expect(at).toEqual({ kind: 'bounds', south: 0, north: 0.06, west: 0, east: 0 });
  });
});

describe('map helpers', () => {
  it('draws only real positions', () => {
    expect(isMappable(null, 1)).toBe(false);
    expect(isMappable(-37, 176)).toBe(true);
    expect(isMappable(91, 0)).toBe(false);
    expect(isMappable(0, Number.NaN)).toBe(false);
  });
  it('asks to zoom in below project level', () => {
    expect(needsZoomIn(5)).toBe(true);
    expect(needsZoomIn(10)).toBe(false);
  });
});
