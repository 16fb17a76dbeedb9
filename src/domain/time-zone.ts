/**
 * The organisation's `locale.timezone`, made safe for Intl and luxon (monitoring-client 9: "Time
 * zone NZST maps to a Pacific zone; main zone Pacific/Auckland"). Older records hold abbreviations
 * such as NZST, which Intl.DateTimeFormat refuses with a RangeError (the 'Oops' page); they map to
 * the IANA zone they stand for. Used by the client on what it receives and by the server on what
 * it stores and serves.
 */
export const MAIN_TIME_ZONE = 'Pacific/Auckland';

/** Abbreviations and retired names seen in organisation records, and the IANA zone each means. */
const LEGACY_ZONES: Record<string, string> = {
  NZST: 'Pacific/Auckland',
  NZDT: 'Pacific/Auckland',
  NZT: 'Pacific/Auckland',
  NZ: 'Pacific/Auckland',
  'NZ-CHAT': 'Pacific/Chatham',
  CHAST: 'Pacific/Chatham',
  CHADT: 'Pacific/Chatham',
  AEST: 'Australia/Sydney',
  AEDT: 'Australia/Sydney',
  ACST: 'Australia/Adelaide',
  ACDT: 'Australia/Adelaide',
  AWST: 'Australia/Perth',
  GMT: 'Etc/UTC',
  UTC: 'Etc/UTC',
  BST: 'Europe/London',
  IST: 'Europe/Dublin',
  SAST: 'Africa/Johannesburg',
  EST: 'America/New_York',
  EDT: 'America/New_York',
  CST: 'America/Chicago',
  CDT: 'America/Chicago',
  MST: 'America/Denver',
  MDT: 'America/Denver',
  PST: 'America/Los_Angeles',
  PDT: 'America/Los_Angeles',
  AKST: 'America/Anchorage',
  AKDT: 'America/Anchorage',
  HST: 'Pacific/Honolulu',
};

const known = new Map<string, string | null>();

/** The zone's canonical IANA name when Intl knows it, else null. */
function canonical(zone: string): string | null {
  let hit = known.get(zone);
  if (hit === undefined) {
    try {
      hit = new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
    } catch {
      hit = null;
    }
    known.set(zone, hit);
  }
  return hit;
}

/** True when the value is already a zone every formatter accepts (an IANA name, not an abbreviation). */
export function isValidTimeZone(zone: unknown): zone is string {
  return typeof zone === 'string' && zone.trim() === zone && zone !== '' && LEGACY_ZONES[zone.toUpperCase()] === undefined && canonical(zone) !== null;
}

/**
 * NZST and NZDT to Pacific/Auckland (and the like), an IANA name in any letter case to its
 * canonical spelling, anything empty or unknown to the main zone.
 */
export function normaliseTimeZone(zone: unknown): string {
  if (typeof zone !== 'string' || !zone.trim()) return MAIN_TIME_ZONE;
  const z = zone.trim();
  const legacy = LEGACY_ZONES[z.toUpperCase()];
  if (legacy) return legacy;
  return canonical(z) ?? MAIN_TIME_ZONE;
}
