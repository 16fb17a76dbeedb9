import { lazy, useState, type ComponentType } from 'react';

/**
 * A page's code, loaded once and remembered. Its components render at once when the module is
 * already in, and lazily (suspending) only when it is not. React.lazy suspends on its first render
 * even when its module has loaded (a promise cannot be read synchronously), and React 19 holds the
 * reveal of each suspended boundary until 300 ms after the last fallback it showed, which the
 * signed-in frame's nested lazy levels (organisations, frame, section) could each pay though their
 * code had arrived (docs/performance.md).
 */
export function loader<M>(load: () => Promise<M>) {
  let module: M | undefined;
  let pending: Promise<M> | undefined;
  const get = () =>
    (pending ??= load().then(
      (m) => (module = m),
      (err: unknown) => {
        // a failed load (the network gone) is tried again by the next render or preload
        pending = undefined;
        throw err;
      },
    ));
  return {
    load: get,
    /** A component of the module: drawn directly by an element first rendered once the module is in, else through React.lazy. */
    component<P extends object>(pick: (m: M) => ComponentType<P>): ComponentType<P> {
      const Lazy = lazy(() => get().then((m) => ({ default: pick(m) })));
      return function LoadedOrLazy(props: P) {
        // fixed for the element's life: switching from the lazy wrapper to the component would remount it
        const [C] = useState<ComponentType<P>>(() => (module ? pick(module) : Lazy));
        return <C {...props} />;
      };
    },
  };
}

/**
 * Settles once `first` and `rest` are both in, or `waitMs` after `first` is in if `rest` is still
 * loading, whichever comes sooner; a failure settles it too (never rejects). The signed-in splash
 * waits on it: the frame's code and the section's, but on a slow network no more than `waitMs`
 * of the section's after the frame's, so the frame shows with the section loading inside it.
 */
export function bothOrFirstAndWait(first: Promise<unknown>, rest: Promise<unknown>, waitMs: number): Promise<void> {
  const both = Promise.all([first, rest]);
  const waited = first.then(() => new Promise<void>((resolve) => setTimeout(resolve, waitMs)));
  return Promise.race([both, waited]).then(
    () => undefined,
    () => undefined,
  );
}
