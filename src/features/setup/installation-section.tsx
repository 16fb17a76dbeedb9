import { useEffect, useState } from 'react';
import { Center, Image, Loader, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import type { FuelInstall } from '../../contract/sensor.schema';
import { getIdToken, gatewayEndpoint } from '../../shared/api';
import { formatSetupTime } from '../../domain/time-format';
import { useSession } from '../../shared/session';
import type { SectionProps } from './section-types';
import { useFuelInstall } from './use-fuel-install';

const SHAPES: Record<string, string> = { VOLUME_CYLINDER: 'Cylinder', VOLUME_CYLINDER_HORIZONTAL: 'Horizontal cylinder', VOLUME_RECTANGULAR: 'Rectangular' };
const metres = (v: number | null) => (v === null ? 'N/A' : `${v.toFixed(2)} m`);

/** The installation record (sensor-setup 2, 3): the fuel installation read-only, with its preset and its three photos. */
export default function InstallationSection({ sensor, org }: SectionProps) {
  const state = useFuelInstall(org.id, sensor.id);
  const { user } = useSession();
  if (state.status === 'loading') return <Center h={120}><Loader /></Center>;
  if (state.status === 'error' || !state.record) return <Text c="dimmed">An error occured while retrieving the data, please check your internet connection and try again.</Text>;
  const r = state.record;
  const rows: [string, string][] = [
    ['Installed', formatSetupTime(r.time, user.displaySettings.timeDisplay, org.locale.timezone)],
    ['Fuel type', r.fuelType],
    ['Tank', r.preset ? `${r.preset.manufacturer} ${r.preset.model}` : 'Custom'],
    ['Shape', SHAPES[r.shape] ?? r.shape],
    ['Diameter', metres(r.diameter)],
    ['Width', metres(r.width)],
    ['Height', metres(r.height)],
    ['Length', metres(r.length)],
    ['Safe fill level', metres(r.safeFillLevel)],
    ['Monitor height', metres(r.monitorHeight)],
    ['Dip reading', metres(r.dipReading)],
  ];
  return (
    <Stack gap="lg">
      <Table withTableBorder maw={520} data-testid="installation-table">
        <Table.Tbody>
          {rows.map(([k, v]) => (
            <Table.Tr key={k}>
              <Table.Th w={180}>{k}</Table.Th>
              <Table.Td>{v}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <SimpleGrid cols={{ base: 1, xs: 3 }}>
        <Photo label="Certification plate" path={r.certPlateImageURL} />
        <Photo label="Close up" path={r.closeImageURL} />
        <Photo label="Far" path={r.farImageURL} />
      </SimpleGrid>
    </Stack>
  );
}

/** Photos come through the gateway with the caller's token (members only), shown from a blob URL. */
function Photo({ label, path }: { label: string; path: FuelInstall['closeImageURL'] }) {
  const [src, setSrc] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    if (!path) return;
    let url: string | undefined;
    const ctrl = new AbortController();
    (async () => {
      const token = await getIdToken();
      const res = await fetch(`${gatewayEndpoint().replace(/\/$/, '')}${path}`, { headers: { Authorization: token ?? '' }, signal: ctrl.signal });
      if (!res.ok) throw new Error(String(res.status));
      url = URL.createObjectURL(await res.blob());
      setSrc(url);
    })().catch(() => !ctrl.signal.aborted && setFailed(true));
    return () => {
      ctrl.abort();
      if (url) URL.revokeObjectURL(url);
    };
  }, [path]);
  return (
    <Stack gap={4}>
      <Text size="sm" fw={500}>
        {label}
      </Text>
      {src ? (
        <Image src={src} alt={label} radius="md" />
      ) : (
        <Center h={140} bg="gray.0" style={{ borderRadius: 8 }}>
          {failed || !path ? <Text size="sm" c="dimmed">No photo</Text> : <Loader size="sm" />}
        </Center>
      )}
    </Stack>
  );
}
