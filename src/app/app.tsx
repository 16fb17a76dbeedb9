import '@mantine/core/styles.css';
import { MantineProvider, Center, Loader, Stack, Text, Title } from '@mantine/core';
import { theme } from './theme';

/** Root component. (The router and providers arrive with the sign-in work.) */
export function App() {
  return (
    <MantineProvider theme={theme}>
      <Center h="100vh">
        <Stack align="center">
          <Title order={1}>Tidewatch</Title>
          <Text c="dimmed">Remote water and tank monitoring</Text>
          <Loader />
        </Stack>
      </Center>
    </MantineProvider>
  );
}
