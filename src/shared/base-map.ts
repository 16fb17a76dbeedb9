import * as maplibregl from 'maplibre-gl';
import 'maplibre-gl/dist/maplibre-gl.css';
import workerUrl from 'maplibre-gl/dist/maplibre-gl-worker.mjs?url';
import { Protocol } from 'pmtiles';
import { backgroundAsContainerColour, skipTransparentSky } from './base-map-passes';

// Bundled, MapLibre cannot find its worker beside itself: point it at the emitted asset.
maplibregl.setWorkerUrl(workerUrl);
// pmtiles:// sources (the self-hosted street map): tiles read from one archive by HTTP range requests
maplibregl.addProtocol('pmtiles', new Protocol().tile);

export { maplibregl };

/**
 * The base map every map of the product starts from (the dashboard's, the location section's
 * and the map page's): the style from /config.json, zoom buttons, the attribution its style's
 * sources name (OpenStreetMap's for the street map; none shown when a style names none), and a
 * missing tile or style never breaks the page. Throws when the browser has no WebGL. Draws no
 * invisible sky, and a style's plain background colour as the container's (./base-map-passes:
 * under software WebGL those two full-screen passes were most of a frame).
 */
export function createBaseMap(container: HTMLElement, style: string, view: { center: [number, number]; zoom: number }, opts: { cooperativeGestures?: boolean } = {}) {
  const map = new maplibregl.Map({ container, style, ...view, attributionControl: false, cooperativeGestures: opts.cooperativeGestures ?? false });
  map.addControl(new maplibregl.NavigationControl({ showCompass: false }), 'top-right');
  // the data's licences ask for it (OpenStreetMap's ODbL, GeoNames' CC BY): a small (i) that opens the text
  map.addControl(new maplibregl.AttributionControl({ compact: true }), 'bottom-right');
  map.on('error', () => {});
  skipTransparentSky(map);
  backgroundAsContainerColour(map);
  return map;
}
