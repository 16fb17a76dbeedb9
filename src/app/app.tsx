import '../shared/mantine.css'; // Mantine's sheets for the components the app renders (npm run gen:mantine-css)
import '@mantine/notifications/styles.css';
import { useMemo } from 'react';
import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { RouterProvider } from 'react-router-dom';
import type { ClientConfig } from '../shared/session';
import { AuthContext, type AuthRef } from './auth-context';
import { ConfigContext } from './config-context';
import { createAppRouter } from './router';
import { cssVariablesResolver, NOTICE_MS, theme } from './theme';

/** Root component: theme, toasts (notices 4 s; callers pass 2 s for transient coloured messages), auth, config and the router. */
export function App({ config, auth }: { config: ClientConfig; auth: AuthRef }) {
  const router = useMemo(() => createAppRouter(), []);
  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="auto">
      <Notifications position="top-right" autoClose={NOTICE_MS} limit={4} />
      <ConfigContext.Provider value={config}>
        <AuthContext.Provider value={auth}>
          <RouterProvider router={router} />
        </AuthContext.Provider>
      </ConfigContext.Provider>
    </MantineProvider>
  );
}
