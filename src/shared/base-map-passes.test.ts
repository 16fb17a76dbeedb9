import { describe, expect, it, vi } from 'vitest';
import { backgroundAsContainerColour, skipTransparentSky } from './base-map-passes';

type Handler = () => void;
const colour = (a: number) => ({ r: 0.5 * a, g: 0.5 * a, b: a, a });

/** A stand-in for maplibre's map: its painter's draw-function table and its events. */
function painterMap() {
  const shared = { sky: vi.fn(), background: vi.fn() };
  const handlers = new Map<string, Handler[]>();
  const map = {
    painter: { drawFunctions: shared as Record<string, (...a: unknown[]) => void> },
    on(type: string, f: Handler) {
      handlers.set(type, [...(handlers.get(type) ?? []), f]);
      return map;
    },
    fire: (type: string) => handlers.get(type)?.forEach((f) => f()),
  };
  const frame = (sky: unknown) => ({ data: { sky } });
  return { map, shared, frame };
}

describe('the sky pass', () => {
  it('is skipped when both its colours are transparent (the sky maplibre substitutes for a style without one)', () => {
    const { map, shared, frame } = painterMap();
    expect(skipTransparentSky(map as never)).toBe(true);
    map.painter.drawFunctions.sky('mesh', frame({ 'sky-color': colour(0), 'horizon-color': colour(0) }));
    expect(shared.sky).not.toHaveBeenCalled();
  });

  it('is drawn when either colour shows', () => {
    const { map, shared, frame } = painterMap();
    skipTransparentSky(map as never);
    const sky = map.painter.drawFunctions.sky;
    const shown = [frame({ 'sky-color': colour(1), 'horizon-color': colour(0) }), frame({ 'sky-color': colour(0), 'horizon-color': colour(0.2) }), frame(undefined), { data: {} }];
    for (const f of shown) sky('mesh', f);
    expect(shared.sky.mock.calls).toEqual(shown.map((f) => ['mesh', f]));
  });

  it('leaves maplibre’s shared table alone and the other passes as they were; a new painter is wrapped again', () => {
    const { map, shared } = painterMap();
    skipTransparentSky(map as never);
    expect(map.painter.drawFunctions).not.toBe(shared);
    expect(shared.sky).toBeTypeOf('function');
    expect(map.painter.drawFunctions.background).toBe(shared.background);
    // a restored WebGL context: maplibre builds a painter with the shared table again
    map.painter = { drawFunctions: shared };
    map.fire('webglcontextrestored');
    expect(map.painter.drawFunctions).not.toBe(shared);
    expect((map.painter.drawFunctions.sky as { skipsTransparent?: true }).skipsTransparent).toBe(true);
  });

  it('says so when maplibre has no such table (a version that draws differently)', () => {
    expect(skipTransparentSky({ on: () => undefined } as never)).toBe(false);
    expect(skipTransparentSky({ on: () => undefined, painter: { drawFunctions: {} } } as never)).toBe(false);
  });
});

/** A stand-in for maplibre's style getters and setters over a list of layers. */
function styleMap(layers: { id: string; type: string; minzoom?: number; maxzoom?: number; layout?: Record<string, unknown>; paint?: Record<string, unknown> }[]) {
  const handlers = new Map<string, Handler[]>();
  const container = { style: { backgroundColor: 'rgb(1, 2, 3)' } };
  const find = (id: string) => layers.find((l) => l.id === id);
  const map = {
    layers,
    container,
    on(type: string, f: Handler) {
      handlers.set(type, [...(handlers.get(type) ?? []), f]);
      return map;
    },
    fire: (type: string) => handlers.get(type)?.forEach((f) => f()),
    getContainer: () => container,
    getLayersOrder: () => layers.map((l) => l.id),
    getLayer: (id: string) => find(id) && { type: find(id)!.type, minzoom: find(id)!.minzoom ?? 0, maxzoom: find(id)!.maxzoom ?? 24 },
    getLayoutProperty: (id: string, k: string) => find(id)?.layout?.[k],
    getPaintProperty: (id: string, k: string) => find(id)?.paint?.[k],
    setLayoutProperty(id: string, k: string, v: unknown) {
      const l = find(id)!;
      l.layout = { ...l.layout, [k]: v };
      map.fire('styledata');
      return map;
    },
  };
  return map;
}

describe('a plain background drawn as the container’s colour', () => {
  const water = () => ({ id: 'water', type: 'background', paint: { 'background-color': '#cfe6f3' } });
  const land = { id: 'land', type: 'fill', paint: { 'fill-color': '#f4f1e8' } };

  it('hides the bottom background layer and gives its colour to the container once the style has loaded', () => {
    const map = styleMap([water(), land]);
    backgroundAsContainerColour(map as never);
    expect(map.container.style.backgroundColor).toBe('rgb(1, 2, 3)'); // nothing before the style
    map.fire('styledata');
    expect(map.container.style.backgroundColor).toBe('#cfe6f3');
    expect(map.layers[0].layout).toEqual({ visibility: 'none' });
    expect(map.layers[1].layout).toBeUndefined();
    map.fire('styledata'); // later style events change nothing
    expect(map.layers[0].layout).toEqual({ visibility: 'none' });
    expect(map.container.style.backgroundColor).toBe('#cfe6f3');
    map.fire('remove');
    expect(map.container.style.backgroundColor).toBe('rgb(1, 2, 3)');
  });

  it('leaves every background that is not one plain colour at every zoom to maplibre', () => {
    const notPlain = [
      { ...water(), paint: { 'background-color': ['interpolate', ['linear'], ['zoom'], 0, '#000', 10, '#fff'] } },
      { ...water(), paint: { 'background-color': '#cfe6f3', 'background-opacity': 0.5 } },
      { ...water(), paint: { 'background-color': '#cfe6f3', 'background-pattern': 'waves' } },
      { ...water(), minzoom: 3 },
      { ...water(), maxzoom: 10 },
      { ...water(), layout: { visibility: 'none' } },
    ];
    for (const layer of notPlain) {
      const before = JSON.stringify(layer);
      const map = styleMap([layer, land]);
      backgroundAsContainerColour(map as never);
      map.fire('styledata');
      expect(map.container.style.backgroundColor).toBe('rgb(1, 2, 3)');
      expect(JSON.stringify(layer)).toBe(before);
    }
    // a background above other layers is not behind everything
    const above = styleMap([land, water()]);
    backgroundAsContainerColour(above as never);
    above.fire('styledata');
    expect(above.container.style.backgroundColor).toBe('rgb(1, 2, 3)');
    expect(above.layers[1].layout).toBeUndefined();
    // a plain colour with opacity 1 spelled out is plain
    const opaque = styleMap([{ ...water(), paint: { 'background-color': 'hsl(200, 50%, 80%)', 'background-opacity': 1 } }]);
    backgroundAsContainerColour(opaque as never);
    opaque.fire('styledata');
    expect(opaque.container.style.backgroundColor).toBe('hsl(200, 50%, 80%)');
  });

  it('follows the style: a new colour, a layer shown again by a style diff, a style without the layer', () => {
    const map = styleMap([water(), land]);
    backgroundAsContainerColour(map as never);
    map.fire('styledata');
    // a new style with the same layer id and another colour (a diff sets visibility back)
    map.layers[0] = { ...water(), paint: { 'background-color': '#112233' } };
    map.fire('styledata');
    expect(map.container.style.backgroundColor).toBe('#112233');
    expect(map.layers[0].layout).toEqual({ visibility: 'none' });
    // a layer added under it: the background is no longer behind everything, so it is drawn again
    map.layers.unshift({ id: 'hillshade', type: 'raster' });
    map.fire('styledata');
    expect(map.container.style.backgroundColor).toBe('rgb(1, 2, 3)');
    expect(map.layers[1].layout).toEqual({ visibility: 'visible' });
    // a style without any background (a satellite raster): the container's own colour
    map.layers.splice(0, map.layers.length, { id: 'satellite', type: 'raster' });
    map.fire('styledata');
    expect(map.container.style.backgroundColor).toBe('rgb(1, 2, 3)');
  });
});
