import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import wasm from 'vite-plugin-wasm';
import { compression } from 'vite-plugin-compression2';
import { VitePWA } from 'vite-plugin-pwa';
import { resolve } from 'node:path';

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

export default defineConfig({
  plugins: [
    react(),
    wasm(),
    // every text file and the WASM core written beside itself as .br and .gz; the server sends the
    // one the browser accepts (server/http/static-files.ts). Source maps are not served by default.
    compression({ algorithms: ['brotliCompress', 'gzip'], include: /\.(html|css|js|mjs|json|svg|wasm|webmanifest|txt)$/, logLevel: 'silent' }),
    readerPwa,
    manifestOnlyInReader,
  ],
  // shown to site admins in the profile menu
  define: { __BUILD_DATE__: JSON.stringify(new Date().toISOString()) },
  worker: { format: 'es', plugins: () => [wasm()] },
  build: {
    target: 'es2022',
    outDir: process.env.VITE_OUT_DIR ?? 'dist',
    sourcemap: true,
    // two entries of one build: the monitoring app and the meter reader's app (/reader/)
    rollupOptions: { input: { index: resolve(import.meta.dirname, 'index.html'), reader: resolve(import.meta.dirname, 'reader.html') } },
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
