import { ScatterplotLayer, TextLayer } from '@deck.gl/layers';
import type { Layer } from '@deck.gl/core';
import { DEFAULT_THEME } from '@mantine/core';
import { STATUS_COLOUR, type SensorStatus } from '../domain/sensor-status';
import { RANKED, type Box, type FleetMapItems, type MapPoint } from '../../workers/fleet-map';

type RGBA = [number, number, number, number];
const rgb = (hex: string, a = 255): RGBA => [parseInt(hex.slice(1, 3), 16), parseInt(hex.slice(3, 5), 16), parseInt(hex.slice(5, 7), 16), a];
/** The list's status colours (src/domain STATUS_COLOUR, Mantine shade 6) as deck.gl colours. */
export const STATUS_RGBA = Object.fromEntries(Object.entries(STATUS_COLOUR).map(([s, c]) => [s, rgb(DEFAULT_THEME.colors[c][6])])) as Record<SensorStatus, RGBA>;

// the worker's status ranks (a cluster's is its worst member's) as colours
const RANK_RGBA = RANKED.map((s) => STATUS_RGBA[s]);

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

const NO_ITEMS: FleetMapItems = { generation: 0, length: 0, position: new Float64Array(), count: new Uint32Array(), rank: new Uint8Array(), clusterId: new Int32Array(), serial: [] };
export const noItems = () => NO_ITEMS;

type At = { index: number; target: number[] };
const radius = (count: number) => (count === 1 ? 8 : Math.min(26, 12 + Math.log2(count) * 2.5));

/**
 * The deck.gl layers: status-coloured sensors and clusters, cluster counts, and the selection
 * ring. The sensors layer reads the worker's columns by index (no object per item); a pick's
 * index is the item's.
 */
export function sensorLayers(items: FleetMapItems, selected: MapPoint | undefined): Layer[] {
  const { position, count, rank } = items;
  const clusters: number[] = [];
  for (let k = 0; k < items.length; k++) if (count[k]! > 1) clusters.push(k);
  const at = (k: number, target: number[]) => {
    target[0] = position[2 * k]!;
    target[1] = position[2 * k + 1]!;
    return target as [number, number];
  };
  return [
    new ScatterplotLayer<unknown>({
      id: 'sensors',
      data: { length: items.length },
      pickable: true,
      radiusUnits: 'pixels',
      lineWidthUnits: 'pixels',
      stroked: true,
      getPosition: (_: unknown, { index, target }: At) => at(index, target),
      getRadius: (_: unknown, { index }: At) => radius(count[index]!),
      getFillColor: (_: unknown, { index }: At) => RANK_RGBA[rank[index]!]!,
      getLineColor: [255, 255, 255, 255],
      getLineWidth: 2,
    }),
    new TextLayer<number>({
      id: 'cluster-counts',
      data: clusters,
      getPosition: (k: number, { target }: At) => at(k, target),
      getText: (k: number) => (count[k]! > 9999 ? '9999+' : String(count[k])),
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
