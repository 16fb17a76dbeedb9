import { MantineProvider } from '@mantine/core';
import { theme } from '../theme';
import { OopsPage } from './status-pages';

/** The app could not start (no /config.json, or an invalid one): the same 'Oops' page, outside the router. */
export function BootErrorPage({ error }: { error: unknown }) {
  console.error(error);
  return (
    <MantineProvider theme={theme}>
      <OopsPage />
    </MantineProvider>
  );
}
