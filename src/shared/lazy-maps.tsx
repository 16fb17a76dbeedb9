import { lazy, Suspense, useEffect, useRef, useState, type ComponentProps } from 'react';
import { Box, Center, Loader } from '@mantine/core';

// maplibre-gl and deck.gl (about 1.1 MB before compression) load when a map is first on screen,
// not with the page that holds it: the dashboard's mini-map, the location settings and the map page
// each show this placeholder, of the map's own size, for the moment it takes.
const SensorMapNow = lazy(() => import('./sensor-map').then((m) => ({ default: m.SensorMap })));
let fleetMapModule: Promise<typeof import('./fleet-map')> | undefined;
/** Starts loading the map page's map (maplibre-gl and deck.gl) ahead of its first draw: the map page asks while the fleet's list loads. */
export const preloadFleetMap = () => (fleetMapModule ??= import('./fleet-map'));
const FleetMapNow = lazy(() => preloadFleetMap().then((m) => ({ default: m.FleetMap })));

function Waiting({ height }: { height?: number }) {
  return (
    <Box h="100%" mih={height} bg="var(--tw-page-bg)" style={{ borderRadius: 'var(--mantine-radius-lg)' }}>
      <Center h="100%" mih={height}>
        <Loader size="sm" aria-label="Loading the map" />
      </Center>
    </Box>
  );
}

/** SensorMap (sensor-map.tsx), loaded when first drawn; with `whenOnScreen`, only once its place scrolls into view. */
export function SensorMap({ whenOnScreen, ...props }: ComponentProps<typeof SensorMapNow> & { whenOnScreen?: boolean }) {
  const place = useRef<HTMLDivElement>(null);
  const [onScreen, setOnScreen] = useState(!whenOnScreen);
  useEffect(() => {
    const el = place.current;
    if (onScreen || !el) return;
    const seen = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) setOnScreen(true);
    });
    seen.observe(el);
    return () => seen.disconnect();
  }, [onScreen]);
  const height = props.height ?? 240;
  // below the first screen (the dashboard's mini-map) the renderer's 240 kB wait until the map is scrolled to
  if (!onScreen) return <Box ref={place} h="100%" mih={height} bg="var(--tw-page-bg)" style={{ borderRadius: 'var(--mantine-radius-lg)' }} data-testid="sensor-map-waiting" />;
  return (
    <Suspense fallback={<Waiting height={height} />}>
      <SensorMapNow {...props} />
    </Suspense>
  );
}

/** FleetMap (fleet-map.tsx), loaded when first drawn. */
export function FleetMap(props: ComponentProps<typeof FleetMapNow>) {
  return (
    <Suspense fallback={<Waiting />}>
      <FleetMapNow {...props} />
    </Suspense>
  );
}
