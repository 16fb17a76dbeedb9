import { useEffect, useRef, useState } from 'react';
import { Box, Center, Paper, Stack, Text } from '@mantine/core';
import { IconMapPinOff } from '@tabler/icons-react';
import * as maplibregl from 'maplibre-gl';
import 'maplibre-gl/dist/maplibre-gl.css';
import workerUrl from 'maplibre-gl/dist/maplibre-gl-worker.mjs?url';

// Bundled, MapLibre cannot find its worker beside itself: point it at the emitted asset.
maplibregl.setWorkerUrl(workerUrl);

/** The map's default zoom (monitoring-client 9: map default zoom 14): the streets around the sensor. */
export const DASHBOARD_MAP_ZOOM = 14;

interface SensorMapProps {
  latitude: number | null;
  longitude: number | null;
  name: string;
  styleUrl: string;
  height?: number;
}

const hasPosition = (lat: number | null, lng: number | null): boolean => lat !== null && lng !== null && Math.abs(lat) <= 90 && Math.abs(lng) <= 180;

function Placeholder({ height, text }: { height: number; text: string }) {
  return (
    <Center h={height} bg="gray.0">
      <Stack align="center" gap={4}>
        <IconMapPinOff size={28} color="var(--mantine-color-gray-5)" />
        <Text size="sm" c="dimmed">
          {text}
        </Text>
      </Stack>
    </Center>
  );
}

/** A small map of the sensor's position with a marker. */
export function SensorMap({ latitude, longitude, name, styleUrl, height = 240 }: SensorMapProps) {
  const box = useRef<HTMLDivElement>(null);
  const [failed, setFailed] = useState(false);
  const located = hasPosition(latitude, longitude);

  useEffect(() => {
    if (!located || !box.current) return;
    let map: maplibregl.Map | undefined;
    try {
      const center: [number, number] = [longitude!, latitude!];
      map = new maplibregl.Map({ container: box.current, style: styleUrl, center, zoom: DASHBOARD_MAP_ZOOM, attributionControl: false, cooperativeGestures: true });
      map.addControl(new maplibregl.NavigationControl({ showCompass: false }), 'top-right');
      // the scale tells the user how far they see (and at the default zoom reads in metres)
      map.addControl(new maplibregl.ScaleControl({ unit: 'metric' }), 'bottom-left');
      new maplibregl.Marker({ color: '#0ca678' }).setLngLat(center).setPopup(new maplibregl.Popup({ offset: 24, closeButton: false }).setText(name)).addTo(map);
      map.on('error', () => {}); // a missing tile must not break the dashboard
    } catch {
      setFailed(true); // no WebGL: say so rather than leave a blank box
    }
    return () => map?.remove();
  }, [located, latitude, longitude, name, styleUrl]);

  return (
    <Paper withBorder radius="lg" style={{ overflow: 'hidden' }} h="100%">
      {!located ? (
        <Placeholder height={height} text="No location set for this sensor" />
      ) : failed ? (
        <Placeholder height={height} text="The map cannot be shown in this browser" />
      ) : (
        <Box ref={box} h="100%" mih={height} aria-label={`Map of ${name}`} role="img" data-testid="sensor-map" />
      )}
    </Paper>
  );
}
