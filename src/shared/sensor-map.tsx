import { useEffect, useRef, useState } from 'react';
import { Box, Center, Paper, Stack, Text } from '@mantine/core';
import { IconMapPinOff } from '@tabler/icons-react';
import { createBaseMap, maplibregl } from './base-map';

/** The map's default zoom (monitoring-client 9: map default zoom 14): the streets around the sensor. */
export const DASHBOARD_MAP_ZOOM = 14;
/** With no position yet, a picking map opens on the southern hemisphere area (sensor-setup 2): New Zealand and Australia. */
export const SOUTHERN_VIEW = { center: [160, -35] as [number, number], zoom: 3 };

interface SensorMapProps {
  latitude: number | null;
  longitude: number | null;
  name: string;
  styleUrl: string;
  height?: number;
  zoom?: number;
  /** Makes the map a picker: a click places the sensor there (the move-sensor screen). */
  onPick?: (latitude: number, longitude: number) => void;
  /** Adds controls (an address search) to the map once it exists; returns their cleanup. */
  onMap?: (map: maplibregl.Map) => (() => void) | void;
}

const hasPosition = (lat: number | null, lng: number | null): boolean => lat !== null && lng !== null && Math.abs(lat) <= 90 && Math.abs(lng) <= 180;

function Placeholder({ height, text }: { height: number; text: string }) {
  return (
    <Center h={height} bg="var(--tw-page-bg)">
      <Stack align="center" gap={4}>
        <IconMapPinOff size={28} color="var(--mantine-color-gray-5)" />
        <Text size="sm" c="dimmed">
          {text}
        </Text>
      </Stack>
    </Center>
  );
}

/** A map of the sensor's position with a marker; with onPick, a click moves the marker and the map follows a new position. */
export function SensorMap({ latitude, longitude, name, styleUrl, height = 240, zoom = DASHBOARD_MAP_ZOOM, onPick, onMap }: SensorMapProps) {
  const box = useRef<HTMLDivElement>(null);
  const mapRef = useRef<maplibregl.Map>(undefined);
  const markerRef = useRef<maplibregl.Marker>(undefined);
  const pick = useRef(onPick);
  pick.current = onPick;
  const setup = useRef(onMap);
  const [failed, setFailed] = useState(false);
  const located = hasPosition(latitude, longitude);
  const picking = !!onPick;
  const show = located || picking;

  // the map is made once per style; the position moves the marker without rebuilding it
  useEffect(() => {
    if (!show || !box.current) return;
    let map: maplibregl.Map | undefined;
    let cleanup: (() => void) | void;
    try {
      map = createBaseMap(box.current, styleUrl, SOUTHERN_VIEW, { cooperativeGestures: !picking });
      // how far the user sees (at the default zoom it reads in metres)
      map.addControl(new maplibregl.ScaleControl({ unit: 'metric' }), 'bottom-left');
      if (picking) map.on('click', (e) => pick.current?.(e.lngLat.lat, e.lngLat.lng));
      mapRef.current = map;
      cleanup = setup.current?.(map);
    } catch {
      setFailed(true); // no WebGL: say so rather than leave a blank box
    }
    return () => {
      cleanup?.();
      markerRef.current = undefined;
      mapRef.current = undefined;
      map?.remove();
    };
  }, [show, picking, styleUrl]);

  useEffect(() => {
    const map = mapRef.current;
    if (!map) return;
    if (!located) {
      markerRef.current?.remove();
      markerRef.current = undefined;
      return;
    }
    const at: [number, number] = [longitude!, latitude!];
    if (!markerRef.current) {
      markerRef.current = new maplibregl.Marker({ color: '#0ca678' }).setLngLat(at).setPopup(new maplibregl.Popup({ offset: 24, closeButton: false }).setText(name)).addTo(map);
      map.jumpTo({ center: at, zoom });
    } else {
      markerRef.current.setLngLat(at);
      // the dashboard centres each sensor; a picker pans only when the new place is out of view
      if (!picking) map.jumpTo({ center: at });
      else if (!map.getBounds().contains(at)) map.easeTo({ center: at });
    }
  }, [located, latitude, longitude, name, zoom, picking]);

  return (
    <Paper withBorder radius="lg" style={{ overflow: 'hidden' }} h="100%">
      {!show ? (
        <Placeholder height={height} text="No location set for this sensor" />
      ) : failed ? (
        <Placeholder height={height} text="The map cannot be shown in this browser" />
      ) : (
        <Box ref={box} h="100%" mih={height} aria-label={`Map of ${name}`} role="region" data-testid="sensor-map" style={picking ? { cursor: 'crosshair' } : undefined} />
      )}
    </Paper>
  );
}
