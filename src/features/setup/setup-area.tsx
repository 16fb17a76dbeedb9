import { Suspense } from 'react';
import { Link, Navigate } from 'react-router-dom';
import { Anchor, Center, Grid, Loader, NavLink, Paper, Stack, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import { ROLES } from '../../contract/organisation.schema';
import { defaultSetupSection } from '../../domain/tank-form';
import type { SectionProps, SetupSection } from './section-types';
import { SETUP_SECTIONS } from './sections';
import { useFuelInstall } from './use-fuel-install';

/** Below this width the sections are a list, then the form (the phone layout). */
export const PHONE_QUERY = '(max-width: 639px)';

interface SetupAreaProps extends Omit<SectionProps, 'sectionPath'> {
  /** {sensorsUrl}/{serial}/setup */
  base: string;
  /** The {section} of the path, or undefined for the bare setup path. */
  section: string | undefined;
}

/**
 * The Sensor Setup tab (sensor-setup 2, monitoring-client 2.5): the section menu and the chosen
 * section. The bare path opens the sensor's default section (on a phone, the list); an unknown
 * section shows nothing but the menu (sensor-setup 2); a hidden one redirects to the default.
 */
export function SetupArea({ base, section, ...props }: SetupAreaProps) {
  const { sensor, org, isSiteAdmin, production } = props;
  // read at once, so the bare path on a phone shows the list rather than redirecting first
  const phone = useMediaQuery(PHONE_QUERY, undefined, { getInitialValueInEffect: false }) ?? false;
  const fuel = useFuelInstall(org.id, sensor.id);
  const ctx = {
    sensor,
    isSiteAdmin,
    isManager: org.role === ROLES.ADMIN || org.role === ROLES.OWNER,
    hasFuelInstall: fuel.status === 'loading' ? undefined : fuel.status === 'ready' && fuel.record !== null,
    production,
  };
  const shown = SETUP_SECTIONS.filter((s) => s.visible(ctx) !== false);
  const settled = SETUP_SECTIONS.filter((s) => s.visible(ctx) === true);
  const sectionPath = (id: string) => `${base}/${id}`;
  const fallback = settled.find((s) => s.id === defaultSetupSection(sensor)) ?? settled[0];

  const current = SETUP_SECTIONS.find((s) => s.id === section);
  if (section === undefined && !phone) return <Navigate to={sectionPath(fallback.id)} replace />;
  if (section !== undefined) {
    const rule = current?.visible(ctx);
    if (rule === undefined && current) return <Waiting />; // its rule waits on a load
    if (current && !rule) return <Navigate to={sectionPath(fallback.id)} replace />;
  }

  const menu = (
    <Stack gap={2} role="navigation" aria-label="Setup sections">
      {shown
        .filter((s) => s.visible(ctx))
        .map((s) => (
          <NavLink
            key={s.id}
            component={Link}
            to={sectionPath(s.id)}
            label={s.title}
            active={s.id === section}
            rightSection={phone ? <IconChevronRight size={16} /> : undefined}
            style={{ borderRadius: 'var(--mantine-radius-md)' }}
          />
        ))}
    </Stack>
  );
  const body = current && <SectionBody section={current} props={{ ...props, sectionPath }} />;

  // one tree at every width: crossing PHONE_QUERY restyles the columns but never remounts the
  // section, whose form may hold unsaved edits. On a phone the list and the form take turns.
  return (
    <Grid gap="md">
      {(!phone || !current) && (
        <Grid.Col span={{ base: 12, sm: 4, lg: 3 }}>
          <Paper withBorder radius="lg" p="xs">
            {menu}
          </Paper>
        </Grid.Col>
      )}
      {current && (
        <Grid.Col span={{ base: 12, sm: 8, lg: 9 }}>
          {phone && (
            <Anchor component={Link} to={base} size="sm" display="block" mb="sm">
              <IconChevronLeft size={14} style={{ verticalAlign: 'middle' }} /> All settings
            </Anchor>
          )}
          {body}
        </Grid.Col>
      )}
    </Grid>
  );
}

function SectionBody({ section, props }: { section: SetupSection; props: SectionProps }) {
  const Section = section.component;
  return (
    <Paper withBorder radius="lg" p="lg" data-testid={`setup-${section.id}`}>
      <Title order={3} size="h4" mb="md">
        {section.title}
      </Title>
      <Suspense fallback={<Waiting />}>
        {/* a new sensor starts a new form */}
        <Section key={props.sensor.id} {...props} />
      </Suspense>
    </Paper>
  );
}

function Waiting() {
  return (
    <Center h={160}>
      <Loader aria-label="Loading" />
    </Center>
  );
}

