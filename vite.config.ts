import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import wasm from 'vite-plugin-wasm';
import { compression } from 'vite-plugin-compression2';

// The app is served by the product's own server (server/main.ts) from dist/.
// In `vite dev` the API, identity, MQTT and ingest paths are proxied to it.
const backend = process.env.BACKEND_URL ?? 'http://localhost:8080';

export default defineConfig({
  plugins: [
    react(),
    wasm(),
    // every text file and the WASM core written beside itself as .br and .gz; the server sends the
    // one the browser accepts (server/http/static-files.ts). Source maps are not served by default.
    compression({ algorithms: ['brotliCompress', 'gzip'], include: /\.(html|css|js|mjs|json|svg|wasm|webmanifest|txt)$/, logLevel: 'silent' }),
  ],
  // shown to site admins in the profile menu
  define: { __BUILD_DATE__: JSON.stringify(new Date().toISOString()) },
  worker: { format: 'es', plugins: () => [wasm()] },
  build: { target: 'es2022', outDir: process.env.VITE_OUT_DIR ?? 'dist', sourcemap: true},
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
