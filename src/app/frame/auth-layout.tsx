import { Box, Center, Group, List, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconBellRinging, IconChartAreaLine, IconBuildingCommunity } from '@tabler/icons-react';
import { Outlet } from 'react-router-dom';
import { useIsMobile } from '../../shared/layout';
import { Brand } from './brand';

const WAVES =
  "url(\"data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 1440 320'%3E%3Cpath fill='%23ffffff' fill-opacity='0.08' d='M0,224L60,208C120,192,240,160,360,165.3C480,171,600,213,720,224C840,235,960,213,1080,186.7C1200,160,1320,128,1380,112L1440,96L1440,320L0,320Z'/%3E%3Cpath fill='%23ffffff' fill-opacity='0.06' d='M0,288L80,272C160,256,320,224,480,229.3C640,235,800,277,960,272C1120,267,1280,213,1360,186.7L1440,160L1440,320L0,320Z'/%3E%3C/svg%3E\")";

/** The signed-out pages: a calm brand panel beside the form (the form alone below 900 px). */
export function AuthLayout() {
  const mobile = useIsMobile();
  return (
    <Box mih="100dvh" style={{ display: 'flex' }}>
      {!mobile && (
        <Box
          component="aside"
          aria-label="About Tidewatch"
          w="44%"
          p={48}
          style={{
            display: 'flex',
            flexDirection: 'column',
            justifyContent: 'space-between',
            color: 'white',
            backgroundColor: '#0b5c7a',
            backgroundImage: `${WAVES}, linear-gradient(160deg, #0b5c7a 0%, #0f6f86 45%, #137f93 100%)`,
            backgroundRepeat: 'no-repeat',
            backgroundPosition: 'bottom center, center',
            backgroundSize: '100% auto, cover',
          }}
        >
          <Brand light size={34} />
          <Stack gap="xl" maw={440}>
            {/* the page's one h1 is the form's title: this is the brand's tagline */}
            <Text c="white" fz={36} fw={650} lh={1.15}>
              Know your water, wherever it is.
            </Text>
            <List spacing="md" c="rgba(255,255,255,0.9)" center>
              <List.Item icon={<Bullet icon={<IconChartAreaLine size={18} />} />}>Live levels, flows and volumes from every sensor</List.Item>
              <List.Item icon={<Bullet icon={<IconBellRinging size={18} />} />}>Alarms by email and SMS the moment something changes</List.Item>
              <List.Item icon={<Bullet icon={<IconBuildingCommunity size={18} />} />}>Built for farms, councils and water utilities</List.Item>
            </List>
          </Stack>
          <Text size="xs" c="rgba(255,255,255,0.9)">
            © {new Date().getFullYear()} Tidewatch · Remote water and tank monitoring
          </Text>
        </Box>
      )}
      <Center component="main" style={{ flex: 1 }} p={mobile ? 'md' : 48} bg="var(--tw-page-bg)">
        <Stack w="100%" maw={460} gap="xl">
          {mobile && (
            <Group justify="center">
              <Brand />
            </Group>
          )}
          <Box bg="var(--tw-surface)" p={mobile ? 'lg' : 36} style={{ borderRadius: 16, boxShadow: '0 1px 3px rgba(16,42,67,.08), 0 12px 32px rgba(16,42,67,.08)' }}>
            <Outlet />
          </Box>
        </Stack>
      </Center>
    </Box>
  );
}

function Bullet({ icon }: { icon: React.ReactNode }) {
  return (
    <ThemeIcon size={32} radius="xl" color="rgba(255,255,255,0.15)" c="white">
      {icon}
    </ThemeIcon>
  );
}
