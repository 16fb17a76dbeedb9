import { defineConfig } from 'vitest/config';
import { availableParallelism } from 'node:os';
import wasm from 'vite-plugin-wasm';

export default defineConfig({
  plugins: [wasm()],
  test: {
    // Vitest's default is one worker fewer than the cores: one on a 2-core CI machine. The server
    // suites mostly wait on PostgreSQL, child servers and sockets, so two share 2 cores well
    // (the unit, machine and server run: 9.2 min instead of 11.4 at load average 4 to 10).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // New password hashes at scrypt N=2^14 instead of OWASP's 2^17 (server/identity/passwords.ts): a
    // hash in 40 ms, not 300 to 700. The browser files too (their servers hash the demo world's five
    // accounts at each start and verify at every form sign-in: about 1.5 minutes of CPU a run at the
    // real cost, testing nothing about it). The identity flood test (a timed property of the hash
    // queue) overrides it with the real cost.
    env: { TEST_SCRYPT_LOG2_N: '14' },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['src/**/*.test.{ts,tsx}', 'machines/**/*.test.ts', 'workers/**/*.test.ts', 'wasm-core/**/*.test.ts', 'server/**/*.test.ts', 'tests/docs/**/*.test.ts'],
          environment: 'node',
          // property tests run thousands of cases (the uplink check's 20,000 take 2 s alone); on two
          // cores shared with other work 5 s, the default, was not enough. What they test is not time.
          testTimeout: 30_000,
        },
      },
      { extends: true, test: { name: 'machines', include: ['tests/machines/**/*.test.{ts,tsx}'], environment: 'node' } },
      {
        extends: true,
        test: {
          name: 'server',
          include: ['tests/server/**/*.test.ts'],
          // one new PGlite cluster, dumped: each test's PGlite database starts from it (harness.ts freshDb)
          globalSetup: ['tests/server/pglite-cluster.ts'],
          exclude: ['tests/server/identity-flood.test.ts', 'tests/server/ingest-hot.test.ts', 'tests/server/identity.test.ts'],
          environment: 'node',
          // A worker imports the server's modules once for all its files, not once a file: the server
          // files hold no module state between them (each builds its own server and database), and the
          // one file that replaces a module (vi.mock) runs in 'server-mocked' below. 290 s instead of
          // 416 s for this project on 2 cores (docs/testing.md).
          isolate: false,
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        extends: true,
        test: {
          // vi.mock of server/identity/passwords only takes effect in a module graph of the file's own
          name: 'server-mocked',
          include: ['tests/server/identity.test.ts'],
          globalSetup: ['tests/server/pglite-cluster.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        extends: true,
        test: {
          // a timed property (issue 9's flood test) and the sensors table's in-place rewrites (issue 10),
          // run with nothing else on the machine's cores or on the shared PostgreSQL
          name: 'server-alone',
          env: { TEST_SCRYPT_LOG2_N: '' },
          include: ['tests/server/identity-flood.test.ts', 'tests/server/ingest-hot.test.ts'],
          environment: 'node',
          fileParallelism: false,
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/e2e/global-setup.ts', 'tests/server/pglite-cluster.ts'],
          fileParallelism: false,
          // A browser against a real server: what a user waits for may take seconds on a busy machine.
          expect: { poll: { timeout: 15_000 } },
          testTimeout: 120_000,
          hookTimeout: 300_000,
        },
      },
    ],
  },
});
