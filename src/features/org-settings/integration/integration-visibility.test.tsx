// @vitest-environment happy-dom
import { Suspense } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { MemoryRouter } from 'react-router-dom';
import { ROLES, type Organisation, type Role } from '../../../contract/organisation.schema';
import type { CurrentUser } from '../../../contract/user.schema';
import { integrationMayAppear, isManager, radioFlagStale } from '../../../domain/org-settings';
import { ORG_SETTINGS_SECTIONS } from '../sections';
import IntegrationSection from './integration-section';

// the callbacks' own loading is tested in network-callbacks.test.tsx
vi.mock('./network-callbacks', () => ({ NetworkCallbacks: () => <h2>Radio network callbacks</h2> }));

const org = (role: Role, restApi: boolean, radioNetworkSensors: boolean) =>
  ({ id: 'org-1', role, restApi: restApi ? { key: 'key-1', token: 'token-1' } : null, radioNetworkSensors }) as Organisation;
const user = {} as CurrentUser;
const integration = ORG_SETTINGS_SECTIONS.find((s) => s.id === 'integration')!;
const shown = (o: Organisation) => integration.visible({ org: o, user, isManager: isManager(o.role) });

afterEach(cleanup);

/** Organisation-and-routes 2.1 (Integration: managers, with a REST API) and docs/decisions.md (also managers of an organisation with Sigfox or Myriota sensors). */
describe('Integration settings: who sees it', () => {
  const roles = [
    ['an owner', ROLES.OWNER, true],
    ['an admin', ROLES.ADMIN, true],
    ['a member', ROLES.MEMBER, false],
    ['a meter reader', ROLES.METER_READER, false],
  ] as const;
  const orgs = [
    ['a REST API and radio sensors', true, true, true],
    ['a REST API and no radio sensors', true, false, true],
    ['no REST API and radio sensors', false, true, true],
    ['no REST API and no radio sensors', false, false, false],
  ] as const;
  for (const [who, role, manager] of roles)
    for (const [what, restApi, radio, forManagers] of orgs)
      it(`${manager && forManagers ? 'shows' : 'hides'} it to ${who} of an organisation with ${what}`, () => {
        expect(shown(org(role, restApi, radio))).toBe(manager && forManagers);
      });
});

describe('Integration settings: what it shows', () => {
  const mount = (o: Organisation) =>
    render(
      <MantineProvider env="test">
        <MemoryRouter>
          <Suspense>
            <IntegrationSection org={o} user={user} isManager mobile={false} orgPath="/org/x" refreshOrganisations={async () => {}} />
          </Suspense>
        </MemoryRouter>
      </MantineProvider>,
    );

  it('with a REST API: the organisation id, API key and token, the documentation link, then the radio callbacks', () => {
    mount(org(ROLES.ADMIN, true, false));
    expect((screen.getByLabelText('API key') as HTMLInputElement).value).toBe('key-1');
    expect((screen.getByLabelText('API token') as HTMLInputElement).value).toBe('token-1');
    expect((screen.getByLabelText('Organisation id') as HTMLInputElement).value).toBe('org-1');
    expect(screen.getByRole('link', { name: 'API documentation' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Radio network callbacks' })).toBeTruthy();
  });

  it('without a REST API but with radio sensors: only the radio callbacks', () => {
    mount(org(ROLES.OWNER, false, true));
    expect(screen.getByRole('heading', { name: 'Radio network callbacks' })).toBeTruthy();
    for (const label of ['Organisation id', 'API key', 'API token']) expect(screen.queryByLabelText(label)).toBeNull();
    expect(screen.queryByRole('link', { name: 'API documentation' })).toBeNull();
    expect(screen.queryByText(/call the Tidewatch API/)).toBeNull();
  });
});

/** docs/decisions.md: the organisation's first Sigfox or Myriota sensor shows the section without a reload. */
describe('Integration settings: when the organisation record is read again', () => {
  it('after a sensor is added, only when it is the first Sigfox or Myriota sensor the record knows of', () => {
    for (const type of ['sigfox', 'myriota']) expect(radioFlagStale(org(ROLES.OWNER, false, false), { radio: { type } }), type).toBe(true);
    for (const type of ['cellular', 'wifi']) expect(radioFlagStale(org(ROLES.OWNER, false, false), { radio: { type } }), type).toBe(false);
    expect(radioFlagStale(org(ROLES.OWNER, false, true), { radio: { type: 'sigfox' } })).toBe(false);
  });

  it('on opening the settings, only for a manager from whom the section is hidden (the record may be stale about the radios)', () => {
    expect(integrationMayAppear(true, org(ROLES.OWNER, false, false))).toBe(true);
    expect(integrationMayAppear(true, org(ROLES.ADMIN, true, false))).toBe(false);
    expect(integrationMayAppear(true, org(ROLES.ADMIN, false, true))).toBe(false);
    expect(integrationMayAppear(false, org(ROLES.MEMBER, false, false))).toBe(false);
  });
});
