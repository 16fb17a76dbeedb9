/**
 * Vite's preload helper with the module preload links appended a few per task (issue 32). The
 * build uses this module for Vite's `\0vite/preload-helper.js` (vite.batched-preload.ts).
 *
 * Before a lazy chunk is imported, Vite's helper appends a `<link rel="modulepreload">` for every
 * chunk it needs that the page has not asked for yet, all in the task that imports it. Each append
 * starts a request on the main thread. A signed-in sensors page asks for about 60 chunks that way,
 * and 60 appends took 13 to 87 ms in one task on a 2-vCPU machine (docs/performance.md).
 *
 * This does what Vite's helper does (the same arguments, the same `vite:preloadError` event, the
 * import waiting for the chunk's style sheets but not for its scripts) except that it appends the
 * script links LINKS_PER_TASK at a time: the first ones (the chunk itself, then its imports, in
 * Vite's order) in the calling task, the rest a task later each. A chunk the module loader reaches
 * before its link is appended is fetched once all the same: the link then finds it in the module
 * map. Style sheet links are appended at once, as Vite's are: the import waits for them.
 */

/** Module preload links appended per task. */
export const LINKS_PER_TASK = 4;

/** The browser given a turn: `scheduler.yield` where there is one, else a message to ourselves. */
const turn = (): Promise<void> =>
  (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler?.yield?.() ??
  new Promise((resolve) => {
    const c = new MessageChannel();
    c.port1.onmessage = () => resolve();
    c.port2.postMessage(0);
  });

/** A preload function over `doc`: deps are Vite's, relative to `base`; `nextTask` gives the browser its turn between batches. */
export function createPreloader(doc: Document, base: string, nextTask: () => Promise<void> = turn) {
  /** Every href asked for: undefined once settled or for a script, the style sheet's load while it loads. */
  const seen: Record<string, Promise<void> | undefined> = {};
  const queue: HTMLLinkElement[] = [];
  /** Appends left in this task; a turn is asked for with the first append of a task, and refills them. */
  let budget = 0;
  let turnAsked = false;
  const pump = () => {
    if (!turnAsked) {
      turnAsked = true;
      budget = LINKS_PER_TASK;
      void nextTask().then(() => {
        turnAsked = false;
        if (queue.length) pump();
      });
    }
    for (; budget > 0 && queue.length; budget--) doc.head.appendChild(queue.shift()!);
  };
  const later = (link: HTMLLinkElement) => {
    queue.push(link);
    pump();
  };

  return function preload<T>(baseModule: () => Promise<T>, deps?: string[]): Promise<T> {
    let promise: Promise<PromiseSettledResult<void | undefined>[] | void> = Promise.resolve();
    if (deps && deps.length > 0) {
      let present: { all: Set<string>; styles: Set<string> } | undefined;
      const nonceMeta = doc.querySelector<HTMLMetaElement>('meta[property=csp-nonce]');
      const nonce = nonceMeta?.nonce || nonceMeta?.getAttribute('nonce');
      const each = deps.map((dep): Promise<void> | undefined => {
        const url = new URL(base + dep, doc.baseURI);
        const href = url.href;
        const isCss = url.pathname.endsWith('.css');
        if (href in seen) return seen[href];
        if (present === undefined) {
          present = { all: new Set(), styles: new Set() };
          for (const l of Array.from(doc.getElementsByTagName('link'))) {
            present.all.add(l.href);
            if (l.rel === 'stylesheet') present.styles.add(l.href);
          }
        }
        seen[href] = undefined;
        if ((isCss ? present.styles : present.all).has(href)) return undefined;
        const link = doc.createElement('link');
        link.rel = isCss ? 'stylesheet' : 'modulepreload';
        if (!isCss) link.as = 'script';
        link.crossOrigin = '';
        link.href = href;
        if (nonce) link.setAttribute('nonce', nonce);
        if (!isCss) return void later(link);
        doc.head.appendChild(link);
        const loaded = new Promise<void>((resolve, reject) => {
          link.addEventListener('load', () => resolve(), { once: true });
          link.addEventListener('error', () => reject(new Error(`Unable to preload CSS for ${href}`)), { once: true });
        }).then(
          () => void (seen[href] = undefined),
          (err: unknown) => {
            seen[href] = undefined;
            throw err;
          },
        );
        seen[href] = loaded;
        return loaded;
      });
      promise = Promise.allSettled(each);
    }
    const handlePreloadError = (err: unknown): never => {
      const e = new Event('vite:preloadError', { cancelable: true }) as Event & { payload?: unknown };
      e.payload = err;
      doc.defaultView?.dispatchEvent(e);
      if (!e.defaultPrevented) throw err;
      return undefined as never;
    };
    return promise.then((res) => {
      for (const item of res || []) if (item.status === 'rejected') handlePreloadError(item.reason);
      return baseModule().catch(handlePreloadError);
    });
  };
}

/** What Vite's build calls for each dynamic import: `__vitePreload(() => import('./x.js'), deps)`. */
export const __vitePreload = typeof document === 'undefined' ? <T>(baseModule: () => Promise<T>) => baseModule() : createPreloader(document, import.meta.env.BASE_URL);
