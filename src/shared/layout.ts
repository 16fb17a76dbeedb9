import { createContext } from 'react';
import { useMediaQuery } from '@mantine/hooks';

/**
 * The one layout breakpoint (monitoring-client 9: mobile breakpoint 900 px). Below it the frame's
 * navigation folds into a menu and the sensors page shows list or detail; at 900 px and wider both
 * are desktop. Every component asks this query, so the two never disagree at the boundary.
 */
export const MOBILE_BREAKPOINT = 900;
/** Widths below the breakpoint (899.98 rather than 899, for fractional device widths). */
export const MOBILE_QUERY = `(max-width: ${MOBILE_BREAKPOINT - 0.02}px)`;

/**
 * Desktop widths below 1200 px (a tablet in landscape, a narrow window): the navbar's sections,
 * organisation switcher and profile name do not all fit, so the profile menu shows its initials
 * and, below 1000 px, the switcher a shorter name.
 */
export const NARROW_DESKTOP_QUERY = '(max-width: 1199.98px)';
export const NARROWEST_DESKTOP_QUERY = '(max-width: 999.98px)';

/** True below the breakpoint, known on the first render (no desktop flash on a phone). */
export function useIsMobile(): boolean {
  return useMediaQuery(MOBILE_QUERY, false, { getInitialValueInEffect: false }) ?? false;
}

/**
 * True inside a page frame's main landmark (issue 16: one main per page). A whole-page screen that
 * may also stand alone (a status page, the boot error) draws its own <main> only outside one.
 */
export const InsideMain = createContext(false);
