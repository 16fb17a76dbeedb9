/** The demo world's accounts and organisations (DESIGN.md "Demo world"; README lists them). */
export const DEMO_PASSWORD = 'Demo-pass-2026!';

export type OrgKey = 'riverbend' | 'harbour';
export type AccountKey = 'owner' | 'admin' | 'member' | 'reader' | 'siteadmin';

export interface DemoAccount {
  key: AccountKey;
  email: string;
  name: string;
  mobile: string | null;
  isSiteAdmin: boolean;
  /** Organisation roles: 1 member, 2 admin, 3 owner, 4 meter reader. */
  roles: Partial<Record<OrgKey, 1 | 2 | 3 | 4>>;
  /** Member notification rule per organisation; absent means null (the default rule applies). */
  rules?: Partial<Record<OrgKey, { email: boolean; sms: boolean }>>;
  what: string;
}

export const DEMO_ACCOUNTS: DemoAccount[] = [
  { key: 'owner', email: 'owner@demo.test', name: 'Olivia Owner', mobile: '+64211550101', isSiteAdmin: false, roles: { riverbend: 3, harbour: 3 }, what: 'owner of both organisations' },
  {
    key: 'admin',
    email: 'admin@demo.test',
    name: 'Aroha Admin',
    mobile: '+64211550102',
    isSiteAdmin: false,
    roles: { riverbend: 2 },
    rules: { riverbend: { email: true, sms: true } },
    what: 'admin of Riverbend Water',
  },
  { key: 'member', email: 'member@demo.test', name: 'Manu Member', mobile: null, isSiteAdmin: false, roles: { riverbend: 1 }, what: 'member of Riverbend Water' },
  { key: 'reader', email: 'reader@demo.test', name: 'Rangi Reader', mobile: '+64211550104', isSiteAdmin: false, roles: { harbour: 4 }, what: 'meter reader in Harbour City Council' },
  { key: 'siteadmin', email: 'siteadmin@demo.test', name: 'Sam Siteadmin', mobile: '+64211550105', isSiteAdmin: true, roles: { riverbend: 1, harbour: 1 }, what: 'site admin, member of both' },
];

export interface DemoOrg {
  key: OrgKey;
  name: string;
  slug: string;
  features: { isFuel: boolean; liveMode: boolean; meterReading: boolean };
  restApi: boolean;
}

export const DEMO_ORGS: DemoOrg[] = [
  { key: 'riverbend', name: 'Riverbend Water', slug: 'riverbend-water', features: { isFuel: true, liveMode: true, meterReading: false }, restApi: true },
  { key: 'harbour', name: 'Harbour City Council', slug: 'harbour-city-council', features: { isFuel: false, liveMode: false, meterReading: true }, restApi: false },
];

/** One pending invitation shows the Invited row and its expiry in Riverbend Water's members. */
export const DEMO_INVITATION = { org: 'riverbend' as OrgKey, email: 'invited@demo.test', name: 'Ira Invited', role: 1, invitedBy: 'owner' as AccountKey, daysAgo: 2 };
