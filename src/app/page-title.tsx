import { useCallback, useState } from 'react';
import { Outlet, useMatches, type Params } from 'react-router-dom';
import { pageTitle, TitlePartsContext, useDocumentTitle, type TitlePartSlot } from '../shared/page-title';

/** A route's screen name, most specific part first; `subject` is what the screen shows (a sensor's name) once it is known. */
type TitleOf = (params: Params, subject: string | undefined) => (string | undefined)[];

/** The `handle` of a route with a title: a fixed screen name, or one read from the route's parameters. */
export const titled = (title: string | TitleOf) => ({ handle: { title: typeof title === 'string' ? () => [title] : title } });

/**
 * The app's root element: document.title from the deepest matched route's title, the subject and
 * organisation its screens name (useTitlePart), and the product, so every screen's title is made here.
 */
export function PageTitle() {
  const matches = useMatches();
  const [parts, setParts] = useState<Partial<Record<TitlePartSlot, string>>>({});
  const setPart = useCallback((slot: TitlePartSlot, name: string | undefined) => setParts((p) => (p[slot] === name ? p : { ...p, [slot]: name })), []);
  const match = matches.findLast((m) => (m.handle as { title?: TitleOf } | undefined)?.title);
  const screen = match ? (match.handle as { title: TitleOf }).title(match.params, parts.subject) : [];
  useDocumentTitle(pageTitle([...screen, parts.org]));
  return (
    <TitlePartsContext.Provider value={setPart}>
      <Outlet />
    </TitlePartsContext.Provider>
  );
}
