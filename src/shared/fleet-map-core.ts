import { MapLibreOverlay } from '@deck.gl/maplibre';
import type { MapViewState, PickingInfo } from '@deck.gl/core';
import type { Map as MapLibreMap } from 'maplibre-gl';
import type { LatLng } from '../domain/location';
import { initialView, MAP_DEFAULT_ZOOM, type InitialView } from '../domain/map-view';
import type { Box, FleetMapItems, MapPoint } from '../../workers/fleet-map';
import { createBaseMap } from './base-map';
import { boxHolds, drawBox, noItems, sensorLayers } from './sensor-layers';

/** The custom layer @deck.gl/maplibre puts at the top of the style for layers without a beforeId. */
export const DECK_LAYER_GROUP = 'deck-maplibre-layer-group-last';
/**
 * Room kept around the sensors when the view fits them: at the top for the map-type control and
 * the zoom-in banner under it, at the right for the zoom buttons, so no sensor is drawn under them.
 */
const FIT_PADDING = { top: 140, right: 64, bottom: 48, left: 48 };

/** Where the map's sensors come from: the data worker's clustering (or, in the benchmark, an index at hand). */
export interface FleetMapSource {
  /** The sensors and clusters of an integer zoom within a box. */
  items(zoom: number, box: Box): FleetMapItems | Promise<FleetMapItems>;
  /** The zoom at which a cluster splits (null: the clustering has changed since its items). */
  expansionZoom(generation: number, clusterId: number): number | null | Promise<number | null>;
}

/** The map's view as deck.gl's MapView takes it (what @deck.gl/maplibre hands deck.gl on each move). */
function viewStateOf(map: MapLibreMap): MapViewState & { padding: { top: number; bottom: number; left: number; right: number }; repeat: boolean } {
  const { lng, lat } = map.getCenter();
  const p = map.getPadding();
  return {
    longitude: ((lng + 540) % 360) - 180,
    latitude: lat,
    zoom: map.getZoom(),
    bearing: map.getBearing(),
    pitch: map.getPitch(),
    padding: { top: p.top ?? 0, bottom: p.bottom ?? 0, left: p.left ?? 0, right: p.right ?? 0 },
    repeat: map.getRenderWorldCopies(),
  };
}

/**
 * @deck.gl/maplibre 9.4.0 (interleaved) gives deck.gl the map's view when it creates it, and
 * follows the map's moves only from deck.gl's load on. The page places the view (a deep link's
 * sensor, or the fit to the fleet) as soon as the sensors are known, which may be before that
 * load: deck.gl then kept the starting view until the map next moved, and a click on a drawn
 * sensor picked in that view and selected nothing (the sensors are drawn right all the same:
 * drawing reads maplibre's own view each frame, picking reads deck.gl's). So once deck.gl has
 * loaded, it is given the map's view of that moment. deck.gl fixed this upstream after 9.4.0
 * (visgl/deck.gl#10702); deck.gl's instance is the overlay's own, not public. Its onLoad is
 * wrapped on the instance, not passed to the overlay, whose setProps would hand that prop to
 * deck.gl again and replace the overlay's own wrapper, which starts following the moves.
 */
function followViewFromLoad(overlay: MapLibreOverlay, map: MapLibreMap) {
  const deck = overlay['_deck'];
  if (!deck || deck.isInitialized) return; // loaded already: the overlay follows from here
  const loaded = deck.props.onLoad;
  deck.setProps({
    onLoad: () => {
      loaded();
      deck.setProps({ viewState: viewStateOf(map) });
    },
  });
}

export interface FleetMapOptions {
  style: string;
  source: FleetMapSource;
  onSelect(serial: string): void;
  onZoom?(zoom: number): void;
}

/**
 * The organisation's sensors on one map: maplibre draws the base map, deck.gl the sensors in
 * their status colours, clustered when zoomed out (supercluster, in the data worker: the main
 * thread holds only what it draws). deck.gl is interleaved: its layers draw inside maplibre's own
 * WebGL context (a custom layer at the top of the style), as a second canvas costs more than the
 * whole base map under software WebGL. deck.gl is given the items of the view's integer zoom within
 * a box of 3 x 3 views around it, so panning moves what it already holds and a new query happens
 * only at a new integer zoom or when the view leaves the box; until it is answered the items before
 * stay drawn. Nothing is asked before the first refresh() (the page places the view first).
 * Imperative, so the map page and the benchmark drive the same code.
 */
export function createFleetMap(container: HTMLElement, opts: FleetMapOptions) {
  const start = initialView([]);
  const map = createBaseMap(container, opts.style, { center: start.kind === 'centre' ? [start.centre.longitude, start.centre.latitude] : [0, 0], zoom: MAP_DEFAULT_ZOOM });
  let style = opts.style;
  let items = noItems();
  let selected: MapPoint | undefined;
  let started = false;
  let drawnZoom = -1;
  let drawnBox: Box | undefined;
  // queries in flight may be answered out of order: an answer older than the one shown is dropped
  let asked = 0;
  let shown = 0;
  const view = (): Box => {
    const b = map.getBounds();
    return { west: b.getWest(), south: b.getSouth(), east: b.getEast(), north: b.getNorth() };
  };

  const overlay = new MapLibreOverlay({
    interleaved: true,
    layers: [],
    getCursor: ({ isHovering, isDragging }) => (isHovering ? 'pointer' : isDragging ? 'grabbing' : 'grab'),
    onClick: (info: PickingInfo) => {
      const it = items;
      const k = info.index;
      if (info.layer?.id !== 'sensors' || k < 0 || k >= it.length) return;
      if (it.clusterId[k]! < 0) return opts.onSelect(it.serial[k]!);
      const to = (zoom: number | null) => map.easeTo({ center: [it.position[2 * k]!, it.position[2 * k + 1]!], zoom: Math.min(zoom ?? drawnZoom + 2, 18) });
      const zoom = opts.source.expansionZoom(it.generation, it.clusterId[k]!);
      if (zoom instanceof Promise) zoom.then(to, () => to(null));
      else to(zoom);
    },
  });
  map.addControl(overlay);
  followViewFromLoad(overlay, map);

  const layers = () => overlay.setProps({ layers: sensorLayers(items, selected) });
  const query = () => {
    drawnZoom = Math.floor(map.getZoom());
    drawnBox = drawBox(view());
    const mine = ++asked;
    const show = (next: FleetMapItems) => {
      if (mine < shown) return;
      shown = mine;
      items = next;
      layers();
    };
    const got = opts.source.items(drawnZoom, drawnBox);
    // a failed query leaves the items before drawn (the fleet's own load reports its failures)
    if (got instanceof Promise) got.then(show, () => undefined);
    else show(got);
  };
  map.on('move', () => {
    if (started && (Math.floor(map.getZoom()) !== drawnZoom || !drawnBox || !boxHolds(drawnBox, view()))) query();
  });
  map.on('zoom', () => opts.onZoom?.(map.getZoom()));
  // @deck.gl/maplibre adds its layer group to the style only once the style and all its sources
  // have loaded, and tries again only on a style event, which does not come when a source finishes
  // loading: without this the sensors stay undrawn until the next integer zoom
  const ensureDrawn = () => {
    if (!map.getLayer(DECK_LAYER_GROUP) && map.isStyleLoaded()) layers();
  };
  map.on('data', ensureDrawn);
  map.on('idle', ensureDrawn);
  // whether the person has moved the map (a drag, the wheel, the zoom buttons): a view placed on
  // part of the fleet is then not replaced by the whole fleet's
  let movedByUser = false;
  map.on('movestart', (e: { originalEvent?: unknown }) => {
    if (e.originalEvent) movedByUser = true;
  });
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
    /** Asks for the view's items again (new sensors or statuses), and from now on after each move that needs them. */
    refresh() {
      started = true;
      query();
    },
    /** The selection ring's sensor (none: no ring). */
    setSelected(point: MapPoint | undefined) {
      selected = point;
      layers();
    },
    /** Fits the view to the sensors (the overview's view: the small-bounds rule of src/domain/map-view). */
    fitView(v: InitialView = initialView([]), animate = false) {
      jump(v, animate);
    },
    /** Whether the person has moved the map since it was created. */
    get movedByUser() {
      return movedByUser;
    },
    /** Centres a position, zooming in to the default zoom when the view is wider. */
    centre(p: LatLng, animate = true) {
      jump({ kind: 'centre', centre: p, zoom: Math.max(map.getZoom(), MAP_DEFAULT_ZOOM) }, animate);
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
