/**
 * Runs npm scripts at the same time and fails if any fails: `npm test`'s client build, lint and
 * type-check, each mostly one busy core, share the 2-core CI machine instead of taking turns
 * (docs/testing.md). Each script's output is printed whole when it ends, with its time.
 *
 *   node --import tsx tests/together.ts build:client lint typecheck
 */
import { spawn } from 'node:child_process';

const scripts = process.argv.slice(2);
const started = Date.now();
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const codes = await Promise.all(
  scripts.map(
    (script) =>
      new Promise<number>((resolve) => {
        const child = spawn(npm, ['run', '--silent', script], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, FORCE_COLOR: process.env.FORCE_COLOR ?? '0' } });
        let out = '';
        child.stdout.on('data', (b: Buffer) => (out += b.toString()));
        child.stderr.on('data', (b: Buffer) => (out += b.toString()));
        child.on('close', (code) => {
          console.log(`===== npm run ${script}: exit ${code} after ${Math.round((Date.now() - started) / 1000)} s =====\n${out}`);
          resolve(code ?? 1);
        });
      }),
  ),
);
const failed = scripts.filter((_, i) => codes[i] !== 0);
console.log(`${scripts.join(', ')}: ${failed.length ? `${failed.join(', ')} failed` : 'all passed'}, ${Math.round((Date.now() - started) / 1000)} s`);
process.exit(failed.length ? 1 : 0);
