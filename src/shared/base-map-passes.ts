import type { Map as MaplibreMap, Painter } from 'maplibre-gl';

/**
 * Two full-screen passes of every frame that maplibre draws for nothing, or for what the page can
 * show for free. Under software WebGL (a browser without a GPU: SwiftShader) every pixel a pass
 * covers costs CPU, and on a 1280 x 800 map these two were most of a frame (bench/README.md,
 * benchmark 7): the invisible sky about 45 ms of the GPU process's CPU a frame, a plain background
 * layer about 15 ms. Neither changes what the map shows.
 */

type SkyDraw = Painter['drawFunctions']['sky'];
/** The colours drawSky reads (maplibre's evaluated sky: Color objects, premultiplied, alpha 0 to 1). */
type SkyColours = { 'sky-color'?: { a: number }; 'horizon-color'?: { a: number } };
type PainterHolder = { painter?: { drawFunctions?: Painter['drawFunctions'] } };

/**
 * maplibre-gl 6 draws the style's sky on every frame, as a full-screen pass before the layers, also
 * when the style has none: it then substitutes a sky whose colours are all transparent, and that
 * pass (alpha-blended, at the far depth the frame was just cleared to) changes no pixel. This skips
 * the sky whenever both its colours are fully transparent; a style that gives a sky still draws it.
 * The painter's draw functions are a table shared by every map of the page: each map gets its own
 * copy with the sky wrapped, installed again when maplibre builds a new painter (a restored WebGL
 * context). Returns whether maplibre had the table to wrap.
 */
export function skipTransparentSky(map: Pick<MaplibreMap, 'on'>): boolean {
  const install = () => {
    const painter = (map as unknown as PainterHolder).painter;
    const table = painter?.drawFunctions;
    if (!painter || !table || typeof table.sky !== 'function') return false;
    const drawSky = table.sky;
    if ((drawSky as { skipsTransparent?: true }).skipsTransparent) return true;
    const sky: SkyDraw = (mesh, frame) => {
      const colours = (frame as unknown as { data?: { sky?: SkyColours } }).data?.sky;
      if (colours && colours['sky-color']?.a === 0 && colours['horizon-color']?.a === 0) return;
      drawSky(mesh, frame);
    };
    painter.drawFunctions = { ...table, sky: Object.assign(sky, { skipsTransparent: true as const }) };
    return true;
  };
  map.on('webglcontextrestored', install);
  return install();
}

type BackgroundMap = Pick<MaplibreMap, 'on' | 'getContainer' | 'getLayersOrder' | 'getLayer' | 'getLayoutProperty' | 'getPaintProperty' | 'setLayoutProperty'>;

/**
 * When the style's bottom layer is a background of one plain colour (no pattern, fully opaque,
 * at every zoom), the map's container shows that colour and the layer is hidden: the canvas is
 * transparent where nothing else is drawn (maplibre's canvas always has alpha, premultiplied), so
 * the screen shows the same picture without a full-screen pass on every frame. Followed on every
 * style change: a new style, or one whose bottom layer is no longer such a background, gets the
 * container's own background back (and a layer hidden here is shown again if it is still there).
 */
export function backgroundAsContainerColour(map: BackgroundMap): void {
  const container = map.getContainer();
  const own = container.style.backgroundColor;
  let hidden: { id: string; colour: string } | undefined;

  const plainColour = (id: string): string | undefined => {
    const layer = map.getLayer(id);
    if (!layer || layer.type !== 'background' || layer.minzoom > 0 || (layer.maxzoom !== undefined && layer.maxzoom < 24)) return undefined;
    if (map.getLayoutProperty(id, 'visibility') === 'none') return undefined;
    if (map.getPaintProperty(id, 'background-pattern') !== undefined) return undefined;
    const opacity = map.getPaintProperty(id, 'background-opacity');
    if (opacity !== undefined && opacity !== 1) return undefined;
    const colour = map.getPaintProperty(id, 'background-color');
    // maplibre's colours are CSS colours; an expression (a colour by zoom) is not one plain colour
    return typeof colour === 'string' ? colour : undefined;
  };

  const sync = () => {
    const bottom = map.getLayersOrder()[0] as string | undefined;
    if (hidden && bottom === hidden.id && map.getLayoutProperty(bottom, 'visibility') === 'none' && map.getPaintProperty(bottom, 'background-color') === hidden.colour) return;
    // the style changed under the layer hidden here: show it again, then look afresh
    if (hidden && map.getLayer(hidden.id) && map.getLayoutProperty(hidden.id, 'visibility') === 'none') map.setLayoutProperty(hidden.id, 'visibility', 'visible');
    hidden = undefined;
    const colour = bottom === undefined ? undefined : plainColour(bottom);
    container.style.backgroundColor = colour ?? own;
    if (bottom !== undefined && colour !== undefined) {
      hidden = { id: bottom, colour };
      map.setLayoutProperty(bottom, 'visibility', 'none');
    }
  };
  // 'styledata' comes once a style has loaded (never before: the setters would throw) and after each change to it
  map.on('styledata', sync);
  map.on('remove', () => (container.style.backgroundColor = own));
}
