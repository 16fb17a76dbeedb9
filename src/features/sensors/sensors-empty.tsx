import type { ReactNode } from 'react';
import { Anchor, Button, Center, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconBuildingCommunity, IconCloudOff, IconHeadset, IconPlus, IconRipple } from '@tabler/icons-react';
import { SENSORS_LOAD_FAILED } from '../../domain/messages';

function EmptyFrame({ icon, title, children }: { icon: ReactNode; title: string; children: ReactNode }) {
  return (
    <Center h="100%" p="xl">
      <Paper withBorder radius="lg" p="xl" maw={460} w="100%">
        <Stack align="center" gap="sm" ta="center">
          <ThemeIcon size={64} radius="xl" variant="light">
            {icon}
          </ThemeIcon>
          <Title order={1} size="h3">{title}</Title>
          {children}
        </Stack>
      </Paper>
    </Center>
  );
}

/** No sensors yet: managers can add one; others are told who can. */
export function NoSensors({ canAdd, onAdd, supportHref }: { canAdd: boolean; onAdd(): void; supportHref: string }) {
  if (!canAdd) return <ContactSupport supportHref={supportHref} />;
  return (
    <EmptyFrame icon={<IconRipple size={34} />} title="No sensors yet">
      <Text c="dimmed">Add your first sensor with the serial number and claim code on its licence card. Its measurements appear here as soon as it reports.</Text>
      <Button leftSection={<IconPlus size={16} />} onClick={onAdd}>
        Add a New Sensor
      </Button>
    </EmptyFrame>
  );
}

/** A member of an organisation without sensors: only admins, owners or support can add them. */
export function ContactSupport({ supportHref }: { supportHref: string }) {
  return (
    <EmptyFrame icon={<IconHeadset size={34} />} title="No sensors to show">
      <Text c="dimmed">
        This organisation has no sensors yet. Ask an organisation admin to add one, or{' '}
        <Anchor href={supportHref}>contact support</Anchor>.
      </Text>
    </EmptyFrame>
  );
}

export function NoOrganisation() {
  return (
    <EmptyFrame icon={<IconBuildingCommunity size={34} />} title="No organisation">
      <Text c="dimmed">You are not a member of any organisation yet. Ask an admin to invite you, or sign up by claiming a sensor.</Text>
    </EmptyFrame>
  );
}

/** Sensors load failure (monitoring-client 8) with a reload link. */
export function SensorsLoadFailed({ message, onReload }: { message?: string; onReload(): void }) {
  return (
    <EmptyFrame icon={<IconCloudOff size={34} />} title={SENSORS_LOAD_FAILED}>
      {message && (
        <Text c="dimmed" size="sm">
          {message}
        </Text>
      )}
      <Anchor component="button" type="button" onClick={onReload} fw={600}>
        Reload
      </Anchor>
    </EmptyFrame>
  );
}
