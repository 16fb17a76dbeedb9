import { createContext, useContext, useEffect } from 'react';

/** The product's name, last in every page title (index.html's own title before the app draws). */
export const PRODUCT_NAME = 'Tidewatch';
/** The meter reader's app, last in its pages' titles and heading its landing. */
export const READER_NAME = `${PRODUCT_NAME} Reader`;

/**
 * A page title from its most specific part to its least, then the product (WCAG 2.4.2 Page
 * Titled): "Harbour Tide Gauge · Sensors · Riverbend Water · Tidewatch". Missing parts are left out.
 */
export const pageTitle = (parts: readonly (string | undefined)[], product = PRODUCT_NAME): string =>
  [...parts.filter((p): p is string => Boolean(p)), product].join(' · ');

/** Sets document.title while the caller is on screen. */
export function useDocumentTitle(title: string) {
  useEffect(() => {
    document.title = title;
  }, [title]);
}

/** What a screen names for its title beyond its route: its organisation, and the thing it shows (a sensor). */
export type TitlePartSlot = 'org' | 'subject';
export const TitlePartsContext = createContext<(slot: TitlePartSlot, name: string | undefined) => void>(() => undefined);

/** Gives the page title the router composes (src/app/page-title.tsx) a part it cannot read from the address. */
export function useTitlePart(slot: TitlePartSlot, name: string | undefined) {
  const set = useContext(TitlePartsContext);
  useEffect(() => {
    set(slot, name);
    return () => set(slot, undefined);
  }, [set, slot, name]);
}
