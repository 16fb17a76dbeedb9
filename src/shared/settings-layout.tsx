import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Box, Grid, NavLink, Paper, ScrollArea, Stack, Text, Title } from '@mantine/core';

export interface SettingsMenuItem {
  id: string;
  title: string;
  icon: ReactNode;
  /** The section's path. */
  to: string;
}

interface SettingsLayoutProps {
  /** The page's h1, e.g. 'Organisation Settings'. */
  title: string;
  /** The dimmed line under it (the organisation's name, the user's email). */
  subtitle: string;
  /** The side menu's navigation name, e.g. 'Settings sections'. */
  navLabel: string;
  items: SettingsMenuItem[];
  currentId: string;
  mobile: boolean;
  /** On a phone the menu sits above the section: its entries wrap onto lines, or scroll sideways on one. */
  mobileMenu: 'wrap' | 'scroll';
  /** The current section. */
  children: ReactNode;
}

/**
 * The settings pages' frame (organisation settings and user settings, organisation-and-routes
 * 2.1, 2.2): the title, a side menu of sections (above the section on a phone), and the section.
 */
export function SettingsLayout({ title, subtitle, navLabel, items, currentId, mobile, mobileMenu, children }: SettingsLayoutProps) {
  const menu = items.map((s) => (
    <NavLink
      key={s.id}
      component={Link}
      to={s.to}
      label={s.title}
      leftSection={s.icon}
      active={s.id === currentId}
      aria-current={s.id === currentId ? 'page' : undefined}
      style={{ borderRadius: 'var(--mantine-radius-md)', whiteSpace: 'nowrap', width: mobile ? 'auto' : undefined }}
    />
  ));
  const phoneMenu = (
    <Paper withBorder radius="lg" p={4} component="nav" aria-label={navLabel}>
      <div style={mobileMenu === 'wrap' ? { display: 'flex', flexWrap: 'wrap', gap: 2 } : { display: 'flex', gap: 2 }}>{menu}</div>
    </Paper>
  );
  return (
    <Box maw={1240} mx="auto" p="md">
      <Box mb="md">
        <Title order={1} size="h2">
          {title}
        </Title>
        <Text c="dimmed" size="sm">
          {subtitle}
        </Text>
      </Box>
      {/* one tree at every width: crossing the breakpoint restyles the menu but never remounts the
          section, whose form may hold unsaved edits */}
      <Grid gap={mobile ? 'sm' : 'md'}>
        <Grid.Col span={mobile ? 12 : { base: 12, md: 3 }}>
          {mobile ? (
            mobileMenu === 'scroll' ? <ScrollArea type="never">{phoneMenu}</ScrollArea> : phoneMenu
          ) : (
            <Paper withBorder radius="lg" p="xs" component="nav" aria-label={navLabel}>
              <Stack gap={2}>{menu}</Stack>
            </Paper>
          )}
        </Grid.Col>
        <Grid.Col span={mobile ? 12 : { base: 12, md: 9 }}>{children}</Grid.Col>
      </Grid>
    </Box>
  );
}
