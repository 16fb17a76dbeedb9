import { useEffect, useRef, useState } from 'react';
import { Box, Center, Text } from '@mantine/core';
import { createFleetMap, type FleetMap as FleetMapHandle } from './fleet-map-core';
import type { MapPoint } from './sensor-layers';

interface FleetMapProps {
  points: readonly MapPoint[];
  styleUrl: string;
  selectedSerial?: string;
  onSelect(serial: string): void;
  onZoom?(zoom: number): void;
}

/**
 * The organisation's sensors on a map (the map page). On first open it centres the path's
 * sensor, else fits all of them; later selections centre the chosen sensor.
 */
export function FleetMap({ points, styleUrl, selectedSerial, onSelect, onZoom }: FleetMapProps) {
  const box = useRef<HTMLDivElement>(null);
  const [fleet, setFleet] = useState<FleetMapHandle>();
  const [failed, setFailed] = useState(false);
  const select = useRef(onSelect);
  select.current = onSelect;
  const zoom = useRef(onZoom);
  zoom.current = onZoom;
  const placed = useRef(false);
  const firstStyle = useRef(styleUrl);

  useEffect(() => {
    if (!box.current) return;
    let f: FleetMapHandle | undefined;
    try {
      f = createFleetMap(box.current, { style: firstStyle.current, onSelect: (s) => select.current(s), onZoom: (z) => zoom.current?.(z) });
      setFleet(f);
    } catch {
      setFailed(true); // no WebGL: the list beside the map still works
    }
    return () => {
      placed.current = false;
      f?.destroy();
    };
  }, []);

  useEffect(() => fleet?.setStyle(styleUrl), [fleet, styleUrl]);
  useEffect(() => fleet?.setPoints(points), [fleet, points]);

  const hasPoints = points.length > 0;
  useEffect(() => {
    if (!fleet) return;
    fleet.setSelected(selectedSerial);
    if (!placed.current) {
      if (!points.length) return; // wait for the sensors before the first fit
      placed.current = true;
      if (!selectedSerial || !fleet.centre(selectedSerial, false)) fleet.fitAll();
      return;
    }
    if (selectedSerial) fleet.centre(selectedSerial);
    // points change with every live uplink: only a new selection (or the first sensors) moves the map
  }, [fleet, selectedSerial, hasPoints]);

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
