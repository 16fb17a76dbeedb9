import Supercluster from 'supercluster';
import { ScatterplotLayer, TextLayer } from '@deck.gl/layers';
import type { Layer } from '@deck.gl/core';
import { DEFAULT_THEME } from '@mantine/core';
import { STATUS_COLOUR, type SensorStatus } from '../domain/sensor-status';

/** A sensor as the map draws it. */
export interface MapPoint {
  serial: string;
  latitude: number;
  longitude: number;
  status: SensorStatus;
}

type RGBA = [number, number, number, number];
const rgb = (hex: string, a = 255): RGBA => [parseInt(hex.slice(1, 3), 16), parseInt(hex.slice(3, 5), 16), parseInt(hex.slice(5, 7), 16), a];
/** The list's status colours (src/domain STATUS_COLOUR, Mantine shade 6) as deck.gl colours. */
export const STATUS_RGBA = Object.fromEntries(Object.entries(STATUS_COLOUR).map(([s, c]) => [s, rgb(DEFAULT_THEME.colors[c][6])])) as Record<SensorStatus, RGBA>;

// a cluster takes the colour of its worst member, so an alert is never hidden by zooming out
const RANK: Record<SensorStatus, number> = { DISABLED: 0, NO_STATUS: 1, OK: 2, WARNING: 3, ALERT: 4 };
const BY_RANK: SensorStatus[] = ['DISABLED', 'NO_STATUS', 'OK', 'WARNING', 'ALERT'];

/** One drawn circle: a sensor (index into the points) or a cluster of several. */
export interface MapItem {
  position: [number, number];
  count: number;
  status: SensorStatus;
  index: number; // the sensor's index, or -1 for a cluster
  clusterId: number; // -1 for a sensor
}

/** A box of longitudes and latitudes; west may exceed east's side of the antimeridian (the map's unwrapped bounds). */
export interface Box {
  west: number;
  south: number;
  east: number;
  north: number;
}

/**
 * The box deck.gl is given items for: the view and one view's width and height around it (3 x 3
 * views), so a pan redraws only when it leaves that box. Drawing only these matters under software
 * WebGL: there every instance's vertex shader costs about as much as its pixels, and at street zooms
 * most of 10,000 sensors are off screen.
 */
export function drawBox(view: Box): Box {
  const w = view.east - view.west;
  const h = view.north - view.south;
  if (w * 3 >= 360) return { west: -180, south: -85, east: 180, north: 85 };
  return { west: view.west - w, south: Math.max(-85, view.south - h), east: view.east + w, north: Math.min(85, view.north + h) };
}

/** Whether the view lies within a box made by drawBox (the whole world contains every view). */
export function boxHolds(box: Box, view: Box): boolean {
  const world = box.east - box.west >= 360;
  return (world || (view.west >= box.west && view.east <= box.east)) && view.south >= box.south && view.north <= box.north;
}

/** Clusters the sensors with supercluster (built once per set of sensors; a query is a k-d tree range search). */
export function clusterIndex(points: readonly MapPoint[]) {
  const index = new Supercluster<{ i: number; rank: number }, { rank: number }>({
    radius: 44,
    maxZoom: 16,
    map: (p) => ({ rank: p.rank }),
    reduce: (acc, p) => {
      acc.rank = Math.max(acc.rank, p.rank);
    },
  });
  index.load(points.map((p, i) => ({ type: 'Feature', geometry: { type: 'Point', coordinates: [p.longitude, p.latitude] }, properties: { i, rank: RANK[p.status] } })));
  return {
    /** The sensors and clusters at an integer zoom within a box (the whole world when none is given). */
    at(zoom: number, box: Box = { west: -180, south: -85, east: 180, north: 85 }): MapItem[] {
      const z = Math.max(0, Math.min(17, Math.floor(zoom)));
      return index.getClusters([box.west, box.south, box.east, box.north], z).map((f) => {
        const [lng, lat] = f.geometry.coordinates as [number, number];
        const p = f.properties as { cluster?: boolean; cluster_id?: number; point_count?: number; rank: number; i?: number };
        return p.cluster
          ? { position: [lng, lat], count: p.point_count ?? 2, status: BY_RANK[p.rank], index: -1, clusterId: p.cluster_id ?? -1 }
          : { position: [lng, lat], count: 1, status: points[p.i!].status, index: p.i!, clusterId: -1 };
      });
    },
    /** The zoom at which a cluster splits (clicking it zooms there). */
    expansionZoom: (clusterId: number) => index.getClusterExpansionZoom(clusterId),
  };
}
export type ClusterIndex = ReturnType<typeof clusterIndex>;

const radius = (d: MapItem) => (d.count === 1 ? 8 : Math.min(26, 12 + Math.log2(d.count) * 2.5));

/** The deck.gl layers: status-coloured sensors and clusters, cluster counts, and the selection ring. */
export function sensorLayers(items: MapItem[], selected: MapPoint | undefined): Layer[] {
  const clusters = items.filter((d) => d.count > 1);
  return [
    new ScatterplotLayer<MapItem>({
      id: 'sensors',
      data: items,
      pickable: true,
      radiusUnits: 'pixels',
      lineWidthUnits: 'pixels',
      stroked: true,
      getPosition: (d) => d.position,
      getRadius: radius,
      getFillColor: (d) => STATUS_RGBA[d.status],
      getLineColor: [255, 255, 255, 255],
      getLineWidth: 2,
    }),
    new TextLayer<MapItem>({
      id: 'cluster-counts',
      data: clusters,
      getPosition: (d) => d.position,
      getText: (d) => (d.count > 9999 ? '9999+' : String(d.count)),
      characterSet: '0123456789+',
      getSize: 12,
      fontWeight: 700,
      getColor: [255, 255, 255, 255],
      fontFamily: 'system-ui, sans-serif',
    }),
    new ScatterplotLayer<MapPoint>({
      id: 'selected',
      data: selected ? [selected] : [],
      radiusUnits: 'pixels',
      lineWidthUnits: 'pixels',
      stroked: true,
      filled: false,
      getPosition: (d) => [d.longitude, d.latitude],
      getRadius: 13,
      getLineColor: [16, 42, 67, 255],
      getLineWidth: 3,
    }),
  ];
}
