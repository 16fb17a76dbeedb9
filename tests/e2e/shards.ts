/**
 * Runs the e2e project as E2E_SHARDS (default 2) vitest processes at once, each with its own server
 * and demo world (tests/e2e/global-setup.ts starts one per process on a free port and data
 * directory). The browser files mostly wait (on pages, the simulator, the server), so two processes
 * on two cores finish in well under the time of one (docs/testing.md). Files are dealt to the
 * shards by their usual duration, longest first, so the shards end close together; a file not in
 * the table counts as a short one. Each shard's output is printed whole once all have ended, a
 * failed shard's last, then the failing tests' lines again.
 *
 *   node --import tsx tests/e2e/shards.ts [vitest file filters...]
 */
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Seconds each file took in a two-shard run on a 2-core machine (4 Dec 2026; the files with a
 * server of their own, `startOwnDemoServer` and the like, from runs on PostgreSQL alone, scaled by
 * the 1.26 that the other files took longer in the two-shard run than alone); only the order and
 * the shards' balance matter.
 */
const WEIGHT: Record<string, number> = {
  'a11y.test.ts': 141,
  'map.test.ts': 114,
  'remote-tasks.test.ts': 99,
  'user-settings.test.ts': 92,
  'routes.test.ts': 89,
  'reader.test.ts': 89,
  'org-settings.test.ts': 82,
  'notifications.test.ts': 70,
  'setup.test.ts': 69,
  'chart.test.ts': 58,
  'fleet.test.ts': 53,
  'live.test.ts': 52,
  'sensors.test.ts': 52,
  'mfa-required.test.ts': 47,
  'mfa.test.ts': 45,
  'client-gaps-own-server.test.ts': 41,
  'https.test.ts': 22,
  'auth.test.ts': 40,
  'client-gaps.test.ts': 34,
  'layout.test.ts': 27,
  'keyboard.test.ts': 24,
  'signup.test.ts': 22,
  'bundles.test.ts': 21,
  'webhooks.test.ts': 20,
  'map-types.test.ts': 18,
  'app-loads.test.ts': 16,
  'invitation-prompt.test.ts': 16,
  'map-streets.test.ts': 15,
  'layout-switch.test.ts': 9,
  'auth-invite.test.ts': 7,
};
const DEFAULT_WEIGHT = 15;

const dir = 'tests/e2e';
const filters = process.argv.slice(2);
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.test.ts'))
  .filter((f) => filters.length === 0 || filters.some((x) => join(dir, f).includes(x)))
  .sort((a, b) => (WEIGHT[b] ?? DEFAULT_WEIGHT) - (WEIGHT[a] ?? DEFAULT_WEIGHT) || a.localeCompare(b));
const count = Math.max(1, Math.min(Number(process.env.E2E_SHARDS ?? 2) || 1, files.length));

// longest first, each to the shard with the least so far
const shards = Array.from({ length: count }, () => ({ files: [] as string[], weight: 0 }));
for (const f of files) {
  const s = shards.reduce((a, b) => (b.weight < a.weight ? b : a));
  s.files.push(join(dir, f));
  s.weight += WEIGHT[f] ?? DEFAULT_WEIGHT;
}

const vitest = join('node_modules', 'vitest', 'vitest.mjs');
const started = Date.now();
const results = await Promise.all(
  shards.map(
    (s, i) =>
      new Promise<{ shard: number; code: number; out: string; seconds: number }>((resolve) => {
        console.log(`e2e shard ${i + 1}/${count}: ${s.files.length} files (${s.files.map((f) => f.slice(dir.length + 1)).join(', ')})`);
        const child = spawn(process.execPath, [vitest, 'run', '--project', 'e2e', ...s.files], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, FORCE_COLOR: process.env.FORCE_COLOR ?? '0' } });
        let out = '';
        child.stdout.on('data', (b: Buffer) => (out += b.toString()));
        child.stderr.on('data', (b: Buffer) => (out += b.toString()));
        child.on('close', (code) => {
          const seconds = Math.round((Date.now() - started) / 1000);
          console.log(`e2e shard ${i + 1}/${count}: exit ${code} after ${seconds} s`);
          resolve({ shard: i + 1, code: code ?? 1, out, seconds });
        });
      }),
  ),
);
// Each shard's output whole, a failed shard's last, so that the end of the log (often all a CI
// page keeps) is the failure's report; then the failing tests' lines once more.
results.sort((a, b) => Number(a.code !== 0) - Number(b.code !== 0) || a.shard - b.shard);
for (const r of results) console.log(`\n===== e2e shard ${r.shard}/${count}: exit ${r.code} after ${r.seconds} s =====\n${r.out}`);
const failed = results.filter((r) => r.code !== 0);
for (const r of failed) {
  // vitest's failure lines: "FAIL  file > suite > test", "× test", and the error's first line
  const lines = r.out.split('\n').filter((l) => /(^|\s)(FAIL|×)\s|Error:/.test(l));
  console.log(`\ne2e shard ${r.shard} failed:\n${[...new Set(lines)].slice(0, 40).join('\n')}`);
}
console.log(`e2e: ${count} shards, ${failed.length} failed, ${Math.round((Date.now() - started) / 1000)} s`);
process.exit(failed.length ? 1 : 0);
