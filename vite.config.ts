import { defineConfig, type Rolldown } from 'vite';
import react from '@vitejs/plugin-react';
import wasm from 'vite-plugin-wasm';
import { compression } from 'vite-plugin-compression2';
import { VitePWA } from 'vite-plugin-pwa';
import { basename, resolve } from 'node:path';
import { stagedEntry } from './vite.staged-entry';
import { batchedPreload } from './vite.batched-preload';

// The app is served by the product's own server (server/main.ts) from dist/.
// In `vite dev` the API, identity, MQTT and ingest paths are proxied to it.
const backend = process.env.BACKEND_URL ?? 'http://localhost:8080';

// The meter reader's app (reader.html, /reader/): installable and offline-first. Its service worker
// is scoped to /reader/ and precaches the reader's shell (the entry, its chunks, the lazy map and
// the data the map draws offline); /config.json is network-first so a reload offline still boots.
// The worker lives at /reader/sw.js but the files it precaches sit at the root (/reader.html,
// /assets/...): Workbox resolves a manifest URL against the worker's own address, so every URL is
// written root-absolute (modifyURLPrefix for the globbed files; the manifest entry the plugin adds
// after Workbox's transforms is rewritten just before the worker is built), or it would cache
// /reader/assets/... and the navigation fallback /reader.html would not be in the precache, which
// stops the worker installing. The icons come in through globPatterns, not the manifest's list.
const readerPwa = VitePWA({
  injectRegister: false, // reader/main.tsx registers it; the monitoring app has none
  registerType: 'autoUpdate',
  filename: 'reader/sw.js',
  manifestFilename: 'reader/manifest.webmanifest',
  scope: '/reader/',
  base: '/',
  includeAssets: [],
  includeManifestIcons: false,
  integration: {
    beforeBuildServiceWorker: (options) => {
      const rooted = (url: string) => (url.startsWith('/') ? url : `/${url}`);
      options.workbox.additionalManifestEntries = options.workbox.additionalManifestEntries?.map((e) => (typeof e === 'string' ? rooted(e) : { ...e, url: rooted(e.url) }));
    },
  },
  manifest: {
    name: 'Tidewatch Reader',
    short_name: 'Reader',
    description: 'Read the meters of your assigned route tasks, online or offline.',
    id: '/reader/',
    start_url: '/reader/',
    scope: '/reader/',
    display: 'standalone',
    background_color: '#ffffff',
    theme_color: '#0b5c7a',
    icons: [
      { src: '/reader/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
      { src: '/reader/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
    ],
  },
  workbox: {
    // the reader's pages, scripts, styles, the map's worker and offline data; the monitoring app's own chunks are left out
    globPatterns: ['reader.html', 'zod-jitless.js', 'reader/*.png', 'assets/**/*.{js,mjs,css,wasm,json}'],
    globIgnores: ['**/*.map', 'assets/data.worker-*', 'assets/sensors-area-*', 'assets/map-area-*', 'assets/service-routes-area-*', 'assets/xlsx-*', 'assets/use-sensor-list-*'],
    maximumFileSizeToCacheInBytes: 8 * 1024 * 1024,
    modifyURLPrefix: { '': '/' },
    navigateFallback: '/reader.html',
    navigateFallbackAllowlist: [/^\/reader(?:\/|$)/],
    cleanupOutdatedCaches: true,
    clientsClaim: true,
    skipWaiting: true,
    runtimeCaching: [{ urlPattern: ({ url }) => url.pathname === '/config.json', handler: 'NetworkFirst', options: { cacheName: 'reader-config', networkTimeoutSeconds: 5 } }],
  },
});

/** vite-plugin-pwa links its manifest into every page it builds; only the reader's page is that app. */
const manifestOnlyInReader = {
  name: 'tidewatch:manifest-only-in-reader',
  enforce: 'post' as const,
  transformIndexHtml: { order: 'post' as const, handler: (html: string, ctx: { filename: string }) => (ctx.filename.endsWith('reader.html') ? html : html.replace(/<link rel="manifest"[^>]*>/, '')) },
};

/*
 * Chunk grouping (issues 32, 34). Left to itself Rolldown makes one common chunk for each set of
 * entries (the two pages and every lazy import: each page, each setup and settings section) that
 * share a module, so a signed-in page fetched dozens of chunks of a few hundred bytes (a Mantine
 * component, a Tabler icon, a schema each): 97 scripts for the sensors page, 6 at a time over
 * HTTP/1.1. Two groups of output.codeSplitting (Rolldown's manual code splitting):
 * - `common`: the modules the entries load first ($initial) that two or more entries share, split
 *   by the entries that use them (entriesAware), which is what Rolldown does itself: `/login` and
 *   `/reader` load the same files as without the groups, and these modules stay out of `lazy`;
 * - `lazy`: the other shared modules, split the same way, a set smaller than MERGE_BELOW (module
 *   source bytes) merged into the set of entries closest to its own (entriesAwareMergeThreshold).
 *   Left out: the reader's modules (so its lazy map loads what it did), the heavy libraries a page
 *   loads only when it needs them, what they import and any module that imports one.
 * MERGE_BELOW was measured (docs/performance.md, "Where the first rows wait now"): 4 kB took the
 * sensors page from 97 to 74 scripts for the same bytes; 10 kB and 20 kB cut more requests but
 * merged the fleet's code (use-fleet, the data worker's client, luxon) into what the organisation
 * settings load, +160 kB there. Dependencies are not pulled into a group
 * (includeDependenciesRecursively: false): a group's chunk imports the entries' chunks as before.
 */
const MERGE_BELOW = 4_000;
const HEAVY = /[\\/]node_modules[\\/](?:maplibre-gl|@maplibre|@deck\.gl|@luma\.gl|@loaders\.gl|@math\.gl|@probe\.gl|@protomaps|pmtiles|supercluster|mqtt|mqtt-packet|@zxcvbn-ts|xlsx|uplot|qrcode|dijkstrajs|papaparse|topojson-client|world-atlas|cities\.json)[\\/]/;

function chunkGroups() {
  const heavyReach = new Map<string, boolean>();
  /** Whether a module's static imports reach a heavy library. */
  const reachesHeavy = (id: string, ctx: Rolldown.ChunkingContext): boolean => {
    const known = heavyReach.get(id);
    if (known !== undefined) return known;
    heavyReach.set(id, false); // a cycle adds nothing
    const found = HEAVY.test(id) || (ctx.getModuleInfo(id)?.importedIds ?? []).some((dep) => reachesHeavy(dep, ctx));
    heavyReach.set(id, found);
    return found;
  };
  const heavyDep = new Map<string, boolean>();
  /** Whether a heavy library imports the module (it is part of that library's load: fflate under pmtiles). */
  const underHeavy = (id: string, ctx: Rolldown.ChunkingContext): boolean => {
    const known = heavyDep.get(id);
    if (known !== undefined) return known;
    heavyDep.set(id, false);
    const found = HEAVY.test(id) || (ctx.getModuleInfo(id)?.importers ?? []).some((by) => underHeavy(by, ctx));
    heavyDep.set(id, found);
    return found;
  };
  let reader: Set<string> | undefined;
  /** The reader's own modules (all it can load, walked through the app's modules, not into libraries' internals) and the libraries they import. */
  const readerModules = (ctx: Rolldown.ChunkingContext) => {
    const seen = new Set<string>();
    const stack = [resolve(import.meta.dirname, 'reader.html')];
    while (stack.length) {
      const m = ctx.getModuleInfo(stack.pop()!);
      if (!m || seen.has(m.id)) continue;
      seen.add(m.id);
      if (!/[\\/]node_modules[\\/]/.test(m.id)) stack.push(...m.importedIds, ...m.dynamicallyImportedIds);
    }
    if (seen.size < 10) throw new Error('vite.config.ts chunk groups: reader.html is not in the module graph');
    return seen;
  };
  return [
    // React DOM's evaluation in a chunk of its own: a step of its own in the staged entry
    { name: 'react-dom-init', test: /[\\/]src[\\/]app[\\/]react-dom-init\.ts$/, priority: 3 },
    { name: 'common', tags: ['$initial' as const], minShareCount: 2, entriesAware: true, priority: 2 },
    {
      name: (id: string, ctx: Rolldown.ChunkingContext) => ((reader ??= readerModules(ctx)).has(id) || reachesHeavy(id, ctx) || underHeavy(id, ctx) ? null : 'lazy'),
      minShareCount: 2,
      entriesAware: true,
      entriesAwareMergeThreshold: MERGE_BELOW,
      priority: 1,
    },
  ];
}

/** A group's chunk is named after its last module (as Rolldown names a common chunk), the lazy ones with `lazy-` before it. */
function chunkFileName(chunk: { name: string; moduleIds: string[] }): string {
  const [group] = chunk.name.split('~');
  if (group === chunk.name || (group !== 'common' && group !== 'lazy')) return 'assets/[name]-[hash].js';
  const last = (chunk.moduleIds.at(-1) ?? group).replace(/[?#].*$/, '');
  const stem = basename(last).replace(/\.[^.]*$/, '').replace(/[^\w.-]/g, '') || group;
  return `assets/${group === 'lazy' ? `lazy-${stem}` : stem}-[hash].js`;
}

export default defineConfig({
  plugins: [
    // Vite's preload helper, its module preload links appended a few per task
    batchedPreload(),
    react(),
    wasm(),
    // every text file and the WASM core written beside itself as .br and .gz; the server sends the
    // one the browser accepts (server/http/static-files.ts). Source maps are not served by default.
    compression({ algorithms: ['brotliCompress', 'gzip'], include: /\.(html|css|js|mjs|json|svg|wasm|webmanifest|txt)$/, logLevel: 'silent' }),
    readerPwa,
    manifestOnlyInReader,
    // last: rewrites the written index.html so its entry's chunks evaluate a task at a time
    stagedEntry(),
  ],
  // shown to site admins in the profile menu
  define: { __BUILD_DATE__: JSON.stringify(new Date().toISOString()) },
  worker: { format: 'es', plugins: () => [wasm()] },
  build: {
    target: 'es2022',
    outDir: process.env.VITE_OUT_DIR ?? 'dist',
    sourcemap: true,
    // two entries of one build: the monitoring app and the meter reader's app (/reader/)
    rollupOptions: {
      input: { index: resolve(import.meta.dirname, 'index.html'), reader: resolve(import.meta.dirname, 'reader.html') },
      output: { chunkFileNames: chunkFileName, codeSplitting: { includeDependenciesRecursively: false, groups: chunkGroups() } },
    },
  },
  server: {
    proxy: {
      '/api': backend,
      '/identity': backend,
      '/config.json': backend,
      '/ingest': backend,
      '/dev': backend,
      '/mqtt': { target: backend.replace(/^http/, 'ws'), ws: true },
    },
  },
});
