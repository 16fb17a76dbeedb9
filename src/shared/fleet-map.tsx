import { useEffect, useRef, useState } from 'react';
import { Box, Center, Text } from '@mantine/core';
import { isMappable } from '../domain/map-view';
import { displayStatus } from '../domain/sensor-status';
import type { SensorSummary } from '../domain/sensor-summary';
import type { FleetMapOverview, MapPoint } from '../../workers/fleet-map';
import { createFleetMap, type FleetMap as FleetMapHandle, type FleetMapSource } from './fleet-map-core';

interface FleetMapProps {
  /** The sensors and clusters of a view (the data worker's clustering). */
  source: FleetMapSource;
  /** How many sensors have a position and the view that fits them (with `loading` while only part of the list is held); undefined until the first part is. */
  overview: FleetMapOverview | undefined;
  /** Changes when statuses do: the view's items are asked for again. */
  revision: number;
  styleUrl: string;
  selectedSerial?: string;
  /** The selected sensor's summary once found (its position centres the map and draws the ring). */
  selected?: SensorSummary;
  onSelect(serial: string): void;
  onZoom?(zoom: number): void;
}

const pointOf = (s: SensorSummary | undefined): MapPoint | undefined =>
  s && isMappable(s.latitude, s.longitude) ? { serial: s.serial, latitude: s.latitude!, longitude: s.longitude!, status: displayStatus(s) } : undefined;

/**
 * The organisation's sensors on a map (the map page). On first open it centres the path's
 * sensor (once the worker has found it: it may sit in a cluster or off screen), else fits all of
 * them (while the whole list loads, the first page's, drawn at once; then the whole list's, unless
 * the person has moved the map meanwhile); later selections centre the chosen sensor.
 */
export function FleetMap({ source, overview, revision, styleUrl, selectedSerial, selected, onSelect, onZoom }: FleetMapProps) {
  const box = useRef<HTMLDivElement>(null);
  const [fleet, setFleet] = useState<FleetMapHandle>();
  const [failed, setFailed] = useState(false);
  const select = useRef(onSelect);
  select.current = onSelect;
  const zoom = useRef(onZoom);
  zoom.current = onZoom;
  const sourceRef = useRef(source);
  sourceRef.current = source;
  const placed = useRef(false);
  /** The view was fitted to the sensors of the list's first page (the whole list fits it again). */
  const fittedToPart = useRef(false);
  const centred = useRef<string>(undefined);
  const refreshed = useRef<[FleetMapOverview | undefined, number]>([undefined, -1]);
  const firstStyle = useRef(styleUrl);

  useEffect(() => {
    if (!box.current) return;
    let f: FleetMapHandle | undefined;
    try {
      const src: FleetMapSource = { items: (z, b) => sourceRef.current.items(z, b), expansionZoom: (g, c) => sourceRef.current.expansionZoom(g, c) };
      f = createFleetMap(box.current, { style: firstStyle.current, source: src, onSelect: (s) => select.current(s), onZoom: (z) => zoom.current?.(z) });
      setFleet(f);
    } catch {
      setFailed(true); // no WebGL: the list beside the map still works
    }
    return () => {
      placed.current = false;
      fittedToPart.current = false;
      centred.current = undefined;
      refreshed.current = [undefined, -1];
      f?.destroy();
    };
  }, []);

  useEffect(() => fleet?.setStyle(styleUrl), [fleet, styleUrl]);

  // the selection as found: undefined while the path's sensor is looked up
  const found = selectedSerial && selected?.serial === selectedSerial ? selected : undefined;
  const point = pointOf(found);
  const looking = !!selectedSerial && !found;
  useEffect(() => {
    if (!fleet || !overview) return;
    if (!placed.current) {
      // wait for the sensors, and for the deep link's sensor, before the first placing
      if (!overview.count || looking) return;
      placed.current = true;
      centred.current = selectedSerial;
      if (point) fleet.centre(point, false);
      else {
        fleet.fitView(overview.view);
        fittedToPart.current = !!overview.loading;
      }
    } else if (fittedToPart.current && !overview.loading) {
      // the whole list is in: the view fits it, unless the person has moved the map or chosen a sensor since
      fittedToPart.current = false;
      if (!fleet.movedByUser && !centred.current) fleet.fitView(overview.view);
    }
    // a new load of the fleet (its overview) or a status change: the view's items again
    if (refreshed.current[0] === overview && refreshed.current[1] === revision) return;
    refreshed.current = [overview, revision];
    fleet.refresh();
  }, [fleet, overview, revision, looking]);

  // a later selection centres its sensor once found (live updates of it do not move the map)
  useEffect(() => {
    if (!fleet || !placed.current || !found || centred.current === found.serial) return;
    centred.current = found.serial;
    if (point) fleet.centre(point);
  }, [fleet, found?.serial]);

  useEffect(() => fleet?.setSelected(point), [fleet, point?.serial, point?.latitude, point?.longitude]);

  if (failed) {
    return (
      <Center h="100%" bg="var(--tw-page-bg)">
        <Text c="dimmed" size="sm">
          The map cannot be shown in this browser; the sensors are listed beside it.
        </Text>
      </Center>
    );
  }
  return <Box ref={box} h="100%" w="100%" data-testid="fleet-map" aria-label="Map of the organisation's sensors" role="region" />;
}
