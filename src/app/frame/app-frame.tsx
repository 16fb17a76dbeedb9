import type { ReactNode } from 'react';
import { AppShell, Burger, Divider, Drawer, Group, Stack, Text, UnstyledButton } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { IconBell, IconMap2, IconRipple, IconRoute, IconSettings } from '@tabler/icons-react';
import { Link, NavLink } from 'react-router-dom';
import { useSession } from '../../shared/session';
import { SECTION_LABELS, sectionsFor, type OrgSection } from '../sections';
import { InsideMain, NARROW_DESKTOP_QUERY, NARROWEST_DESKTOP_QUERY, useIsMobile } from '../../shared/layout';
import { NAVBAR_HEIGHT } from '../theme';
import { Brand } from './brand';
import classes from './app-frame.module.css';
import { OrgSwitcher } from './org-switcher';
import { ProfileMenu } from './profile-menu';

const ICONS: Record<OrgSection, ReactNode> = { sensors: <IconRipple size={18} />, map: <IconMap2 size={18} />, notifications: <IconBell size={18} />, 'service-routes': <IconRoute size={18} /> };

/** The organisation frame (organisation-and-routes 2.5): 60 px navbar with the sections, switcher and profile menu. */
export function AppFrame({ children }: { children: ReactNode }) {
  const { org, orgPath } = useSession();
  const mobile = useIsMobile();
  const narrow = useMediaQuery(NARROW_DESKTOP_QUERY, false, { getInitialValueInEffect: false }) ?? false;
  const narrowest = useMediaQuery(NARROWEST_DESKTOP_QUERY, false, { getInitialValueInEffect: false }) ?? false;
  const [drawer, { toggle, close }] = useDisclosure(false);
  const sections = sectionsFor(org);

  type Entry = { key: string; to: string; icon: ReactNode; label: string };
  const entries: Entry[] = sections.map((s) => ({ key: s, to: `${orgPath}/${s}`, icon: ICONS[s], label: SECTION_LABELS[s] }));
  // organisation settings, for every role (organisation-and-routes 2.1): after the data sections,
  // but not one of them (the Sections navigation lists what the organisation's data offers)
  const settings: Entry = { key: 'settings', to: `${orgPath}/settings`, icon: <IconSettings size={18} />, label: 'Settings' };
  const links = (vertical: boolean, list: Entry[] = entries) =>
    list.map((s) => (
      <UnstyledButton
        key={s.key}
        component={NavLink}
        to={s.to}
        onClick={close}
        className={vertical ? classes.drawerLink : classes.link}
      >
        <Group gap={8} wrap="nowrap">
          {s.icon}
          <span>{s.label}</span>
        </Group>
      </UnstyledButton>
    ));

  return (
    <AppShell header={{ height: NAVBAR_HEIGHT }} padding={0}>
      {/* the first stop of the keyboard: past the navigation to the page (WCAG 2.4.1) */}
      <a href="#main" className={classes.skipLink}>
        Skip to content
      </a>
      <AppShell.Header className={classes.header}>
        <Group h="100%" px={mobile ? 'sm' : 'lg'} justify="space-between" wrap="nowrap">
          <Group gap={mobile ? 'xs' : narrow ? 'md' : 'xl'} wrap="nowrap">
            {mobile && <Burger opened={drawer} onClick={toggle} size="sm" aria-label="Open navigation" />}
            <Link to={orgPath} className={classes.brandLink} aria-label="Tidewatch home">
              <Brand size={28} />
            </Link>
            {!mobile && (
              <Group gap={4} h={NAVBAR_HEIGHT} wrap="nowrap">
                <Group gap={4} component="nav" aria-label="Sections" h={NAVBAR_HEIGHT} wrap="nowrap">
                  {links(false)}
                </Group>
                <Group component="nav" aria-label="Organisation settings" h={NAVBAR_HEIGHT} wrap="nowrap">
                  {links(false, [settings])}
                </Group>
              </Group>
            )}
          </Group>
          <Group gap="sm" wrap="nowrap">
            {!mobile && <OrgSwitcher maw={narrowest ? 180 : 280} />}
            <ProfileMenu compact={mobile || narrow} />
          </Group>
        </Group>
      </AppShell.Header>
      <Drawer opened={!!mobile && drawer} onClose={close} size={300} title={<Brand size={26} />} padding="md">
        <Stack gap="lg">
          <Stack gap={6}>
            <Text size="xs" tt="uppercase" fw={600} c="dimmed">
              Organisation
            </Text>
            <OrgSwitcher onSwitched={close} fullWidth />
          </Stack>
          <Divider />
          <Stack gap={4} component="nav" aria-label="Sections">
            {links(true)}
          </Stack>
          <Stack gap={4} component="nav" aria-label="Organisation settings">
            {links(true, [settings])}
          </Stack>
        </Stack>
      </Drawer>
      <AppShell.Main id="main" tabIndex={-1} bg="var(--tw-page-bg)" mih="100dvh" style={{ outline: 'none' }}>
        <InsideMain.Provider value={true}>{children}</InsideMain.Provider>
      </AppShell.Main>
    </AppShell>
  );
}
