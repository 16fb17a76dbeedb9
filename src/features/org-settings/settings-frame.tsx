import { Suspense, useEffect } from 'react';
import { Navigate, useParams } from 'react-router-dom';
import { Center, Loader, Paper, Title } from '@mantine/core';
import { integrationMayAppear, isManager as isManagerRole } from '../../domain/org-settings';
import { useIsMobile } from '../../shared/layout';
import { SettingsLayout } from '../../shared/settings-layout';
import { useSession } from '../../shared/session';
import type { OrgSettingsSection, SettingsSectionProps } from './section-types';
import { DEFAULT_SETTINGS_SECTION, ORG_SETTINGS_SECTIONS } from './sections';

/**
 * /org/{orgSlug}/settings/{section} (organisation-and-routes 2.1): the side menu and the chosen
 * section. Every role reaches it; members and meter readers see the sections without action
 * controls. No section, an unknown one or one hidden from the caller redirects to details.
 */
export function OrgSettingsPage() {
  // the route is settings/*: the first segment names the section, anything below it is dropped
  const section = useParams()['*']?.split('/')[0];
  const session = useSession();
  const { org, user, orgPath } = session;
  const mobile = useIsMobile();
  const isManager = isManagerRole(org.role);
  const ctx = { org, user, isManager };
  // the record may be stale about the organisation's radios: re-read it once on opening (only where that could show Integration)
  const reRead = integrationMayAppear(isManager, org);
  const { refreshOrganisations } = session;
  // once per organisation opened: a re-read that changes nothing leaves these as they were, and does not ask again
  useEffect(() => {
    if (reRead) void refreshOrganisations({ quiet: true });
  }, [org.id, reRead, refreshOrganisations]);
  const shown = ORG_SETTINGS_SECTIONS.filter((s) => s.visible(ctx));
  const base = `${orgPath}/settings`;
  const current = shown.find((s) => s.id === section);
  if (!current) return <Navigate to={`${base}/${DEFAULT_SETTINGS_SECTION}`} replace />;

  const props: SettingsSectionProps = { org, user, isManager, mobile, orgPath, refreshOrganisations: session.refreshOrganisations };
  return (
    <SettingsLayout
      title="Organisation Settings"
      subtitle={org.name}
      navLabel="Settings sections"
      items={shown.map((s) => ({ id: s.id, title: s.title, icon: s.icon, to: `${base}/${s.id}` }))}
      currentId={current.id}
      mobile={mobile}
      mobileMenu="wrap"
    >
      <SectionBody section={current} props={props} />
    </SettingsLayout>
  );
}

function SectionBody({ section, props }: { section: OrgSettingsSection; props: SettingsSectionProps }) {
  const Section = section.component;
  return (
    <Paper withBorder radius="lg" p={props.mobile ? 'md' : 'lg'} data-testid={`org-settings-${section.id}`} component="section" aria-labelledby={`org-settings-${section.id}-title`}>
      <Title order={2} size="h4" mb="md" id={`org-settings-${section.id}-title`}>
        {section.heading ?? section.title}
      </Title>
      <Suspense
        fallback={
          <Center h={160}>
            <Loader aria-label="Loading" />
          </Center>
        }
      >
        {/* another organisation starts fresh forms */}
        <Section key={props.org.id} {...props} />
      </Suspense>
    </Paper>
  );
}
