// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { RouterProvider, createMemoryRouter } from 'react-router-dom';
import type { Organisation } from '../../contract/organisation.schema';
import { SessionContext, type Session } from '../../shared/session';
import { theme } from '../theme';
import { OrgSwitcher, TYPEAHEAD_CLICK_GUARD_MS } from './org-switcher';

// Organisation-and-routes 2.5 and 9: a name for 1, a dropdown up to 6, a "Search organisations..." typeahead
// above 6 with a 500 ms click guard; switching rewrites the slug in the current path.
const org = (i: number): Organisation => ({
  id: `o${i}`,
  slug: `org-${i}`,
  name: `Organisation ${i}`,
  role: 1,
  measurementUnit: 'Metres',
  locale: { timezone: 'Pacific/Auckland', country: 'NZ' },
  features: { isFuel: false, liveMode: false, meterReading: false },
  defaultNotificationRule: { email: true, sms: false },
  notificationSettings: { alertAssert: { email: true, sms: false }, alertClear: { email: true, sms: false } },
});

function mount(count: number) {
  const organisations = Array.from({ length: count }, (_, i) => org(i + 1));
  const session = { organisations, org: organisations[0], orgPath: '/org/org-1' } as unknown as Session;
  const router = createMemoryRouter([{ path: '*', element: <SessionContext.Provider value={session}><OrgSwitcher /></SessionContext.Provider> }], {
    initialEntries: ['/org/org-1/notifications'],
  });
  // env="test": no transitions (Mantine's documented test setting). With them, the menu's focus trap
  // ran while the dropdown was still display: none in happy-dom, found nothing to focus and logged
  // the whole DOM node (9,800 lines of the CI log); in Chromium focus moves to the first item.
  render(
    <MantineProvider theme={theme} env="test">
      <RouterProvider router={router} />
    </MantineProvider>,
  );
  return router;
}

describe('organisation switcher (organisation-and-routes 2.5)', () => {
  afterEach(() => {
    cleanup();
    vi.restoreAllMocks();
  });

  it('shows just the name for a single organisation', () => {
    mount(1);
    expect(screen.getByText('Organisation 1')).toBeTruthy();
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('is a dropdown for up to 6 organisations and switching rewrites the slug', async () => {
    const router = mount(6);
    fireEvent.click(screen.getByRole('button', { name: 'Organisation: Organisation 1' }));
    const item = await screen.findByRole('menuitem', { name: 'Organisation 4' });
    expect(screen.queryByPlaceholderText('Search organisations...')).toBeNull();
    fireEvent.click(item);
    expect(router.state.location.pathname).toBe('/org/org-4/notifications');
  });

  it('is a "Search organisations..." typeahead above 6 that ignores clicks in its first 500 ms', async () => {
    // The guard reads Date.now(): the clock stands still (a loaded machine may take more than 500 ms
    // to open the list) until it jumps past the guard.
    const start = Date.now();
    let skipped = 0;
    vi.spyOn(Date, 'now').mockImplementation(() => start + skipped);
    const router = mount(7);
    fireEvent.click(screen.getByRole('button', { name: 'Organisation: Organisation 1' }));
    const search = await screen.findByPlaceholderText('Search organisations...');
    fireEvent.change(search, { target: { value: 'tion 7' } });
    const option = await screen.findByRole('option', { name: 'Organisation 7' });
    expect(screen.queryByRole('option', { name: 'Organisation 2' })).toBeNull();
    fireEvent.click(option);
    expect(router.state.location.pathname).toBe('/org/org-1/notifications');
    skipped = TYPEAHEAD_CLICK_GUARD_MS;
    await act(async () => undefined);
    fireEvent.click(screen.getByRole('option', { name: 'Organisation 7' }));
    expect(router.state.location.pathname).toBe('/org/org-7/notifications');
    expect(TYPEAHEAD_CLICK_GUARD_MS).toBe(500);
  });
});
