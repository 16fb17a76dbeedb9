// Runs before the app's modules: Zod 4 then never probes `new Function` (a Content-Security-Policy
// violation under script-src without 'unsafe-eval'); see src/contract/csp-safe-zod.ts.
globalThis.__zod_globalConfig = Object.assign(globalThis.__zod_globalConfig || {}, { jitless: true });
