import { MapLibreOverlay } from '@deck.gl/maplibre';
import type { PickingInfo } from '@deck.gl/core';
import { initialView, MAP_DEFAULT_ZOOM, type InitialView } from '../domain/map-view';
import { createBaseMap } from './base-map';
import { boxHolds, clusterIndex, drawBox, sensorLayers, type Box, type MapItem, type MapPoint } from './sensor-layers';

/** The custom layer @deck.gl/maplibre puts at the top of the style for layers without a beforeId. */
export const DECK_LAYER_GROUP = 'deck-maplibre-layer-group-last';
/**
 * Room kept around the sensors when the view fits them: at the top for the map-type control and
 * the zoom-in banner under it, at the right for the zoom buttons, so no sensor is drawn under them.
 */
const FIT_PADDING = { top: 140, right: 64, bottom: 48, left: 48 };

export interface FleetMapOptions {
  style: string;
  onSelect(serial: string): void;
  onZoom?(zoom: number): void;
}

/**
 * The organisation's sensors on one map: maplibre draws the base map, deck.gl the sensors in
 * their status colours, clustered with supercluster when zoomed out. deck.gl is interleaved: its
 * layers draw inside maplibre's own WebGL context (a custom layer at the top of the style), as a
 * second canvas costs more than the whole base map under software WebGL. deck.gl is given the
 * items of the view's integer zoom within a box of 3 x 3 views around it, so panning moves what it
 * already holds and a new query happens only at a new integer zoom or when the view leaves the box.
 * Imperative, so the map page and the benchmark drive the same code.
 */
export function createFleetMap(container: HTMLElement, opts: FleetMapOptions) {
  const start = initialView([]);
  const map = createBaseMap(container, opts.style, { center: start.kind === 'centre' ? [start.centre.longitude, start.centre.latitude] : [0, 0], zoom: MAP_DEFAULT_ZOOM });
  let style = opts.style;
  let points: readonly MapPoint[] = [];
  let index = clusterIndex([]);
  let selected: string | undefined;
  let drawnZoom = -1;
  let drawnBox: Box | undefined;
  const view = (): Box => {
    const b = map.getBounds();
    return { west: b.getWest(), south: b.getSouth(), east: b.getEast(), north: b.getNorth() };
  };

  const overlay = new MapLibreOverlay({
    interleaved: true,
    layers: [],
    getCursor: ({ isHovering, isDragging }) => (isHovering ? 'pointer' : isDragging ? 'grabbing' : 'grab'),
    onClick: (info: PickingInfo<MapItem>) => {
      const d = info.object;
      if (!d) return;
      if (d.index >= 0) opts.onSelect(points[d.index].serial);
      else map.easeTo({ center: d.position, zoom: Math.min(index.expansionZoom(d.clusterId), 18) });
    },
  });
  map.addControl(overlay);

  const draw = () => {
    drawnZoom = Math.floor(map.getZoom());
    drawnBox = drawBox(view());
    overlay.setProps({ layers: sensorLayers(index.at(drawnZoom, drawnBox), selected === undefined ? undefined : points.find((p) => p.serial === selected)) });
  };
  map.on('move', () => {
    if (Math.floor(map.getZoom()) !== drawnZoom || !drawnBox || !boxHolds(drawnBox, view())) draw();
  });
  map.on('zoom', () => opts.onZoom?.(map.getZoom()));
  // @deck.gl/maplibre adds its layer group to the style only once the style and all its sources
  // have loaded, and tries again only on a style event, which does not come when a source finishes
  // loading: without this the sensors stay undrawn until the next integer zoom
  const ensureDrawn = () => {
    if (!map.getLayer(DECK_LAYER_GROUP) && map.isStyleLoaded()) draw();
  };
  map.on('data', ensureDrawn);
  map.on('idle', ensureDrawn);
  // a state the page and its tests can read: 'true' once the map has settled after a move
  map.on('movestart', () => (container.dataset.idle = 'false'));
  map.on('idle', () => (container.dataset.idle = 'true'));
  // and the name of the style on screen (the map type switcher loads another)
  map.on('style.load', () => (container.dataset.style = map.getStyle()?.name ?? ''));

  const jump = (v: InitialView, animate: boolean) => {
    if (v.kind === 'centre') (animate ? map.easeTo.bind(map) : map.jumpTo.bind(map))({ center: [v.centre.longitude, v.centre.latitude], zoom: v.zoom });
    else map.fitBounds([v.west, v.south, v.east, v.north], { padding: FIT_PADDING, maxZoom: MAP_DEFAULT_ZOOM, animate });
    opts.onZoom?.(map.getZoom());
  };

  return {
    map,
    overlay,
    /** New sensors or statuses: re-clusters (about 20 ms at 10,000 sensors) and redraws. */
    setPoints(next: readonly MapPoint[]) {
      points = next;
      index = clusterIndex(next);
      draw();
    },
    setSelected(serial: string | undefined) {
      selected = serial;
      draw();
    },
    /** Fits the view to all the sensors (the small-bounds rule of src/domain/map-view). */
    fitAll(animate = false) {
      jump(initialView(points), animate);
    },
    /** Centres one sensor, zooming in to the default zoom when the view is wider. */
    centre(serial: string, animate = true) {
      const p = points.find((x) => x.serial === serial);
      if (!p) return false;
      jump({ kind: 'centre', centre: p, zoom: Math.max(map.getZoom(), MAP_DEFAULT_ZOOM) }, animate);
      return true;
    },
    setStyle(url: string) {
      if (url === style) return;
      style = url;
      map.setStyle(url);
    },
    destroy() {
      map.removeControl(overlay);
      map.remove();
    },
  };
}
export type FleetMap = ReturnType<typeof createFleetMap>;
