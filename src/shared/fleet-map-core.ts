import { MapboxOverlay } from '@deck.gl/mapbox';
import type { PickingInfo } from '@deck.gl/core';
import { initialView, MAP_DEFAULT_ZOOM, type InitialView } from '../domain/map-view';
import { createBaseMap, maplibregl } from './base-map';
import { clusterIndex, sensorLayers, type MapItem, type MapPoint } from './sensor-layers';

export interface FleetMapOptions {
  style: string;
  onSelect(serial: string): void;
  onZoom?(zoom: number): void;
}

/**
 * The organisation's sensors on one map: maplibre draws the base map, deck.gl the sensors in
 * their status colours, clustered with supercluster when zoomed out. Clusters are computed once
 * per integer zoom for the whole world, so panning only moves what deck.gl already holds.
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

  const overlay = new MapboxOverlay({
    interleaved: false,
    layers: [],
    getCursor: ({ isHovering, isDragging }) => (isHovering ? 'pointer' : isDragging ? 'grabbing' : 'grab'),
    onClick: (info: PickingInfo<MapItem>) => {
      const d = info.object;
      if (!d) return;
      if (d.index >= 0) opts.onSelect(points[d.index].serial);
      else map.easeTo({ center: d.position, zoom: Math.min(index.expansionZoom(d.clusterId), 18) });
    },
  });
  map.addControl(overlay as unknown as maplibregl.IControl);

  const draw = () => {
    drawnZoom = Math.floor(map.getZoom());
    overlay.setProps({ layers: sensorLayers(index.at(drawnZoom), selected === undefined ? undefined : points.find((p) => p.serial === selected)) });
  };
  map.on('zoom', () => {
    if (Math.floor(map.getZoom()) !== drawnZoom) draw();
    opts.onZoom?.(map.getZoom());
  });
  // a state the page and its tests can read: 'true' once the map has settled after a move
  map.on('movestart', () => (container.dataset.idle = 'false'));
  map.on('idle', () => (container.dataset.idle = 'true'));

  const jump = (v: InitialView, animate: boolean) => {
    if (v.kind === 'centre') (animate ? map.easeTo.bind(map) : map.jumpTo.bind(map))({ center: [v.centre.longitude, v.centre.latitude], zoom: v.zoom });
    else map.fitBounds([v.west, v.south, v.east, v.north], { padding: 48, maxZoom: MAP_DEFAULT_ZOOM, animate });
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
      map.removeControl(overlay as unknown as maplibregl.IControl);
      map.remove();
    },
  };
}
export type FleetMap = ReturnType<typeof createFleetMap>;
