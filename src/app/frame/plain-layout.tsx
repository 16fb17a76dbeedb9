import { Box, Button, Group } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { Link, Outlet } from 'react-router-dom';
import { useAuthPhase } from '../guards';
import { NAVBAR_HEIGHT } from '../theme';
import { Brand } from './brand';

/** Pages outside an organisation (email verification, the API docs): the brand bar, a way back into the app when signed in, and the page. */
export function PlainLayout() {
  const phase = useAuthPhase();
  return (
    <Box mih="100dvh" bg="var(--tw-page-bg)">
      <Group component="header" h={NAVBAR_HEIGHT} px="md" justify="space-between" wrap="nowrap" bg="var(--tw-surface)" style={{ borderBottom: '1px solid var(--tw-border)' }}>
        <Link to="/" style={{ textDecoration: 'none' }} aria-label="Tidewatch home">
          <Brand size={28} />
        </Link>
        {phase === 'in' ? (
          <Button component={Link} to="/" variant="default" leftSection={<IconArrowLeft size={16} />}>
            Back to the app
          </Button>
        ) : phase === 'out' ? (
          <Button component={Link} to="/login" variant="default">
            Log in
          </Button>
        ) : null}
      </Group>
      <Box component="main">
        <Outlet />
      </Box>
    </Box>
  );
}
