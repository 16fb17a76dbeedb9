import { Avatar, Group, Menu, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Link, useParams } from 'react-router-dom';
import { IconBug, IconCalendarTime, IconChevronDown, IconExternalLink, IconHelpCircle, IconLogout, IconMailExclamation, IconUserCog } from '@tabler/icons-react';
import { useSession } from '../../shared/session';
import { buildDate, resellerPortalHref, supportHref } from '../links';
import { VerifyEmailModal } from './verify-email-modal';

const initials = (nameOrEmail: string) =>
  nameOrEmail
    .split(/[\s@.]+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => w[0]!.toUpperCase())
    .join('');

const formatBuildDate = (d: Date) => d.toLocaleString('en-NZ', { day: '2-digit', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' });

/** The profile menu (organisation-and-routes 2.5): name or email; build date and reseller portal for site admins; verify email while unverified; help; log out. */
export function ProfileMenu({ compact }: { compact: boolean }) {
  const { user, config, signOut } = useSession();
  const [verifyOpen, verify] = useDisclosure(false);
  const { orgSlug } = useParams<{ orgSlug?: string }>();
  const label = user.name.trim() || user.email;
  return (
    <>
      <Menu position="bottom-end" width={260} shadow="md">
        <Menu.Target>
          {/* named by what it shows (WCAG 2.5.3): "Sam Siteadmin Profile menu" (the initials on a phone) */}
          <UnstyledButton px={4} py={4} style={{ borderRadius: 999 }}>
            <Group gap={8} wrap="nowrap">
              <Avatar color="tide" radius="xl" size={34} aria-hidden={!compact}>
                {initials(label)}
              </Avatar>
              {!compact && (
                <Text size="sm" fw={500} truncate maw={180}>
                  {label}
                </Text>
              )}
              {!user.emailVerified && <IconMailExclamation size={16} color="var(--mantine-color-orange-6)" aria-hidden />}
              <IconChevronDown size={14} aria-hidden />
              <VisuallyHidden>Profile menu{user.emailVerified ? '' : ' (email not verified)'}</VisuallyHidden>
            </Group>
          </UnstyledButton>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Label role="presentation">
            <Text size="sm" fw={600} truncate>
              {label}
            </Text>
            {label !== user.email && (
              <Text size="xs" c="dimmed" truncate>
                {user.email}
              </Text>
            )}
          </Menu.Label>
          <Menu.Divider />
          {!user.emailVerified && (
            <Menu.Item leftSection={<IconMailExclamation size={16} />} color="orange" onClick={verify.open}>
              Verify email
            </Menu.Item>
          )}
          {user.isSiteAdmin && (
            <>
              <Menu.Item leftSection={<IconCalendarTime size={16} />} disabled>
                Build date: {formatBuildDate(buildDate())}
              </Menu.Item>
              {orgSlug && (
                <Menu.Item component={Link} to={`/org/${orgSlug}/client-errors`} leftSection={<IconBug size={16} />}>
                  Client errors
                </Menu.Item>
              )}
              <Menu.Item component="a" href={resellerPortalHref(config)} target="_blank" rel="noreferrer" leftSection={<IconExternalLink size={16} />}>
                Reseller portal
              </Menu.Item>
            </>
          )}
          <Menu.Item component={Link} to="/settings/account" leftSection={<IconUserCog size={16} />}>
            User settings
          </Menu.Item>
          <Menu.Item component="a" href={supportHref(config)} leftSection={<IconHelpCircle size={16} />}>
            Help
          </Menu.Item>
          <Menu.Divider />
          <Menu.Item leftSection={<IconLogout size={16} />} color="red" onClick={signOut}>
            Log out
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
      <VerifyEmailModal opened={verifyOpen} onClose={verify.close} email={user.email} />
    </>
  );
}
