import { resolve } from 'node:path';
import type { Plugin } from 'vite';

/** The id under which Vite's build imports its preload helper into every chunk with a dynamic import. */
export const PRELOAD_HELPER_ID = '\0vite/preload-helper.js';

/** Our helper: Vite's, with the module preload links appended a few per task (issue 32; the reasons are in the file). */
export const BATCHED_HELPER = resolve(import.meta.dirname, 'src/shared/preload-helper.ts');

/**
 * Builds with src/shared/preload-helper.ts as Vite's preload helper: a `pre` plugin's resolveId
 * runs before Vite's own, so `\0vite/preload-helper.js` resolves to that file, which is then
 * compiled like any other module. `tests/e2e/bundles.test.ts` checks the built helper is ours.
 */
export function batchedPreload(): Plugin {
  return {
    name: 'tidewatch:batched-preload',
    apply: 'build',
    enforce: 'pre',
    configResolved(config) {
      // Vite's dependency lists are relative to the base; a relative base would need each importer's URL
      if (!config.base.startsWith('/')) throw new Error(`batched preload: the base must be absolute, not ${config.base}`);
    },
    resolveId(id) {
      return id === PRELOAD_HELPER_ID ? BATCHED_HELPER : undefined;
    },
  };
}
