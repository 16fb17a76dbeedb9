import { useEffect, useMemo, useState } from 'react';
import { useActorRef, useSelector } from '@xstate/react';
import { fromPromise } from 'xstate';
import { Box, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { moveSensorMachine } from '../../../machines/move-sensor.machine';
import { sensorUpdateResponseSchema } from '../../contract/sensor.schema';
import { positionText, wrapLongitude } from '../../domain/location';
import { api } from '../../shared/api';
import { SensorMap } from '../../shared/lazy-maps';
import type { SectionProps } from './section-types';
import { addressSearch } from './address-search';
import { NOTICE_MS } from './use-section-save';

/** Wide enough that the bundled offline map still shows the coast around the sensor. */
const LOCATION_ZOOM = 9;

/** The move-sensor screen (sensor-setup 2, 4, 5): a hybrid map with address search, click to place, typed 'lat, lng', and save. */
export default function LocationSection({ sensor, org, mapStyles, onSaved }: SectionProps) {
  const machine = useMemo(
    () =>
      moveSensorMachine.provide({
        actors: {
          save: fromPromise(async ({ input }) => {
            const { sensor: saved } = await api.put(`/organisations/${org.id}/sensors/${sensor.id}`, input, { schema: sensorUpdateResponseSchema });
            onSaved(saved);
            return saved;
          }),
        },
      }),
    [org.id, sensor.id, onSaved],
  );
  const saved = sensor.latitude !== null && sensor.longitude !== null ? { latitude: sensor.latitude, longitude: sensor.longitude } : null;
  const actor = useActorRef(machine, { input: { saved } });
  const position = useSelector(actor, (s) => s.context.position);
  const notice = useSelector(actor, (s) => s.context.notice);
  const saving = useSelector(actor, (s) => s.matches('saving'));
  const moved = useSelector(actor, (s) => s.matches('moved'));
  const [typed, setTyped] = useState('');
  useEffect(() => {
    if (notice) notifications.show({ color: notice.kind === 'success' ? 'teal' : 'red', message: notice.message, autoClose: NOTICE_MS, withBorder: true });
  }, [notice]);
  const place = (latitude: number, longitude: number) => actor.send({ type: 'PLACE', position: { latitude, longitude: wrapLongitude(longitude) } });
  // the search control is added once to the map; it reads the latest place function through the actor
  const onMap = useMemo(() => addressSearch((lat, lng) => actor.send({ type: 'PLACE', position: { latitude: lat, longitude: lng } })), [actor]);

  return (
    <Stack gap="md">
      <Box h={{ base: 320, sm: 420 }}>
        <SensorMap
          latitude={position?.latitude ?? null}
          longitude={position?.longitude ?? null}
          name={sensor.name}
          // hybrid as sensor-setup 2 asks, where the deployment has it
          styleUrl={mapStyles.hybrid ?? mapStyles.roadmap}
          height={320}
          zoom={LOCATION_ZOOM}
          onPick={saving ? undefined : place}
          onMap={onMap}
        />
      </Box>
      <Group gap="xs" align="flex-end" wrap="wrap">
        <Stack gap={0}>
          <Text size="xs" c="dimmed">
            Coordinates
          </Text>
          <Text ff="monospace" data-testid="coordinates">
            {positionText(position)}
          </Text>
        </Stack>
      </Group>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          actor.send({ type: 'TYPE', text: typed });
        }}
      >
        <Group gap="xs" align="flex-end" wrap="wrap">
          <TextInput label="Type coordinates" placeholder="lat, lng e.g. -41.2889, 174.7772" value={typed} onChange={(e) => setTyped(e.currentTarget.value)} disabled={saving} w={280} />
          <Button type="submit" variant="default" disabled={saving || typed.trim() === ''}>
            Go
          </Button>
        </Group>
      </form>
      <Group>
        <Button onClick={() => actor.send({ type: 'SAVE' })} disabled={!moved || saving} loading={false}>
          {saving ? 'Updating' : 'Save location'}
        </Button>
        <Button variant="subtle" color="gray" onClick={() => actor.send({ type: 'CANCEL' })} disabled={!moved || saving}>
          Cancel
        </Button>
      </Group>
    </Stack>
  );
}
