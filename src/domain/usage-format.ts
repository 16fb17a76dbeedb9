import { DateTime } from 'luxon';

// Texts of the usage pane (issue 38): volumes in litres, flow totals in m³, as the spec writes
// volume in l; days until a level as "about N days" with the date in the organisation's zone.

const litresFormat = new Intl.NumberFormat('en-NZ', { maximumFractionDigits: 0 });
const cubicFormat = new Intl.NumberFormat('en-NZ', { maximumFractionDigits: 1, minimumFractionDigits: 1 });

export const formatLitres = (l: number | null | undefined): string => (l === null || l === undefined || !Number.isFinite(l) ? '–' : `${litresFormat.format(Math.round(l))} L`);
export const formatCubicMetres = (m3: number | null | undefined): string => (m3 === null || m3 === undefined || !Number.isFinite(m3) ? '–' : `${cubicFormat.format(m3)} m³`);

/** "less than a day", "about 1 day", "about 6 days" (whole days, rounded). */
export function aboutDays(days: number): string {
  if (days < 0.5) return 'less than a day';
  const n = Math.round(days);
  return `about ${n} ${n === 1 ? 'day' : 'days'}`;
}

/** The band as whole days, e.g. "5 to 8 days"; one number when both ends round alike. */
export function bandDays(early: number | null, late: number | null): string | null {
  if (early === null || late === null) return null;
  const a = Math.round(early);
  const b = Math.round(late);
  return a === b ? `${a} ${a === 1 ? 'day' : 'days'}` : `${a} to ${b} days`;
}

/** A date in the organisation's zone, e.g. "Fri 14 Aug". */
export const shortDate = (t: number, timeZone: string): string => DateTime.fromMillis(t, { zone: timeZone }).toFormat('ccc d LLL');
