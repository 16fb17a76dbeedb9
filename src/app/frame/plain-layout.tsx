import { Box, Group } from '@mantine/core';
import { Link, Outlet } from 'react-router-dom';
import { NAVBAR_HEIGHT } from '../theme';
import { Brand } from './brand';

/** Signed-in pages outside an organisation (email verification): the brand bar and the page. */
export function PlainLayout() {
  return (
    <Box mih="100dvh" bg="var(--tw-page-bg)">
      <Group component="header" h={NAVBAR_HEIGHT} px="md" bg="var(--tw-surface)" style={{ borderBottom: '1px solid var(--tw-border)' }}>
        <Link to="/" style={{ textDecoration: 'none' }} aria-label="Tidewatch home">
          <Brand size={28} />
        </Link>
      </Group>
      <Box component="main">
        <Outlet />
      </Box>
    </Box>
  );
}
