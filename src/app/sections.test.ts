import { describe, expect, it } from 'vitest';
import type { Organisation } from '../contract/organisation.schema';
import { defaultOrganisation, defaultSection, isSection, resolveOrgSlug, sectionsFor, switchOrgPath, switcherKind } from './sections';

const org = (slug: string, meterReading = false, id = slug): Organisation => ({
  id,
  slug,
  name: slug,
  role: 1,
  measurementUnit: 'Metres',
  locale: { timezone: 'Pacific/Auckland', country: 'NZ' },
  features: { isFuel: false, liveMode: false, meterReading },
  defaultNotificationRule: { email: true, sms: false },
  notificationSettings: { alertAssert: { email: true, sms: false }, alertClear: { email: true, sms: false } },
});

describe('organisation sections (monitoring-client 2.1, organisation-and-routes 2.5)', () => {
  it('meterReading organisations swap the sensors entry away; unbuilt sections are not offered', () => {
    expect(sectionsFor(org('a'))).toEqual(['sensors', 'map', 'notifications']);
    expect(sectionsFor(org('b', true))).toEqual(['service-routes', 'notifications']);
    expect(isSection(org('a'), 'service-routes')).toBe(false);
    expect(isSection(org('a'), 'map')).toBe(true);
    expect(isSection(org('b', true), 'map')).toBe(false);
    expect(isSection(org('a'), 'settings')).toBe(false);
    expect(defaultSection(org('b', true))).toBe('service-routes');
  });

  it('switching organisation rewrites the slug and keeps a section the new organisation has', () => {
    expect(switchOrgPath('/org/riverbend-water/notifications', org('harbour'))).toBe('/org/harbour/notifications');
    expect(switchOrgPath('/org/riverbend-water/sensors/1A2B3C4D/dashboard', org('other'))).toBe('/org/other/sensors');
    expect(switchOrgPath('/org/riverbend-water/sensors', org('council', true))).toBe('/org/council/service-routes');
    expect(switchOrgPath('/org/council/service-routes/12', org('other'))).toBe('/org/other/sensors');
    expect(switchOrgPath('/org/riverbend-water/map/1A2B3C4D', org('other'))).toBe('/org/other/map');
    expect(switchOrgPath('/org/riverbend-water/map', org('council', true))).toBe('/org/council/service-routes');
    // settings exist in every organisation: the same settings section stays
    expect(switchOrgPath('/org/riverbend-water/settings/members', org('council', true))).toBe('/org/council/settings/members');
  });

  it('the switcher is a name for 1, a dropdown up to 6 and a typeahead above 6', () => {
    expect([1, 2, 6, 7].map(switcherKind)).toEqual(['single', 'dropdown', 'dropdown', 'typeahead']);
  });

  it('the default organisation is the last one used, else the first', () => {
    const orgs = [org('a'), org('b')];
    expect(defaultOrganisation(orgs, { getItem: () => 'b' })?.slug).toBe('b');
    expect(defaultOrganisation(orgs, { getItem: () => 'gone' })?.slug).toBe('a');
    expect(defaultOrganisation([], { getItem: () => null })).toBeUndefined();
  });

  it('an old slug after a rename resolves through that organisation, not through the last one used (2.1)', () => {
    const renamed = { ...org('riverbend-renamed', false, 'id-r'), formerSlugs: ['riverbend-water'] };
    const other = org('harbour', false, 'id-h');
    const orgs = [other, renamed];
    expect(resolveOrgSlug(orgs, 'riverbend-water')?.id).toBe('id-r');
    expect(resolveOrgSlug(orgs, 'riverbend-renamed')?.id).toBe('id-r');
    // a slug taken by another organisation now belongs to that one
    expect(resolveOrgSlug([{ ...org('riverbend-water', false, 'id-new') }, renamed], 'riverbend-water')?.id).toBe('id-new');
    expect(resolveOrgSlug(orgs, 'no-such-org')).toBeUndefined();
  });
});
