import type { Organisation } from '../contract/organisation.schema';
import { ROLES } from '../contract/organisation.schema';

/**
 * Which sections of /org/:orgSlug an organisation shows (monitoring-client 2.1; organisation-and-routes 2.5).
 * Sections whose screens are not built yet (settings) are left out, so the navigation has no
 * dead links and their paths fall back to the default section.
 */
export type OrgSection = 'sensors' | 'map' | 'notifications' | 'service-routes';

export const SECTION_LABELS: Record<OrgSection, string> = { sensors: 'Sensors', map: 'Map', notifications: 'Notifications', 'service-routes': 'Service Routes' };

export function sectionsFor(org: Pick<Organisation, 'features'>): OrgSection[] {
  // meterReading swaps the map and sensors entries for service routes.
  return org.features.meterReading ? ['service-routes', 'notifications'] : ['sensors', 'map', 'notifications'];
}

export const defaultSection = (org: Pick<Organisation, 'features'>): OrgSection => sectionsFor(org)[0];

export const isSection = (org: Pick<Organisation, 'features'>, section: string | undefined): section is OrgSection =>
  !!section && (sectionsFor(org) as string[]).includes(section);

export const isMeterReader = (org: Pick<Organisation, 'role'>) => org.role === ROLES.METER_READER;

export const orgPath = (slug: string) => `/org/${slug}`;

/**
 * Switching organisation rewrites the slug in the current path. The section is kept when the new
 * organisation has it; what lies below it (a sensor of the old organisation) is dropped.
 */
export function switchOrgPath(pathname: string, target: Pick<Organisation, 'slug' | 'features'>): string {
  const [, , , section, sub] = pathname.split('/');
  // organisation settings exist in every organisation: stay in the same settings section
  if (section === 'settings') return `${orgPath(target.slug)}/settings${sub ? `/${sub}` : ''}`;
  return `${orgPath(target.slug)}/${isSection(target, section) ? section : defaultSection(target)}`;
}

/**
 * The organisation a path's slug names: the one whose slug it is now, else the one that had it
 * before a rename (the server keeps each organisation's former slugs). Never the last one used.
 */
export function resolveOrgSlug(orgs: Organisation[], slug: string | undefined): Organisation | undefined {
  if (!slug) return undefined;
  return orgs.find((o) => o.slug === slug) ?? orgs.find((o) => o.formerSlugs?.includes(slug));
}

const LAST_ORG_KEY = 'tidewatch.lastOrganisation';

/** The default organisation: the one used last when the user still belongs to it, else the first. */
export function defaultOrganisation(orgs: Organisation[], storage: Pick<Storage, 'getItem'> | null = globalThis.localStorage ?? null): Organisation | undefined {
  const last = storage?.getItem(LAST_ORG_KEY);
  return orgs.find((o) => o.id === last) ?? orgs[0];
}

export const rememberOrganisation = (org: Organisation, storage: Pick<Storage, 'setItem'> | null = globalThis.localStorage ?? null) => storage?.setItem(LAST_ORG_KEY, org.id);
export const forgetOrganisation = (storage: Pick<Storage, 'removeItem'> | null = globalThis.localStorage ?? null) => storage?.removeItem(LAST_ORG_KEY);

/** Organisation switcher variant: a name for 1, a dropdown up to 6, a typeahead above 6. */
export const switcherKind = (count: number): 'single' | 'dropdown' | 'typeahead' => (count <= 1 ? 'single' : count <= 6 ? 'dropdown' : 'typeahead');
