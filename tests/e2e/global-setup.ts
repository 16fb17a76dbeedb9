import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    dataDir: string;
  }
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });

/**
 * Starts the product the way `npm start` runs it (built client, embedded database and broker,
 * demo world, simulator) on a free port with its own data directory.
 */
export default async function setup(project: TestProject) {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'tw-e2e-'));
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env: { ...process.env, TEST_SCRYPT_LOG2_N: '', PORT: String(port), HOST: '127.0.0.1', DATA_DIR: join(dataDir, 'db'), LOG_LEVEL: 'info', SIMULATOR_SPEED: process.env.E2E_SIMULATOR_SPEED ?? '60',
      // the webhook tests' receiver listens on this machine (loopback), which is refused otherwise
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not become ready:\n${output}`)), 280_000);
    const onData = (b: Buffer) => {
      output += b.toString();
      if (output.includes('Tidewatch ready at')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => reject(new Error(`server exited with ${code}:\n${output}`)));
  });
  project.provide('baseUrl', `http://127.0.0.1:${port}`);
  project.provide('dataDir', dataDir);
  return async () => {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    rmSync(dataDir, { recursive: true, force: true });
    // the browser reported a Content-Security-Policy violation (a worker's, or one a test missed)
    const reports = output.split('\n').filter((line) => line.includes('"msg":"CSP violation"'));
    if (reports.length) throw new Error(`Content-Security-Policy violations reported to the server:\n${reports.join('\n')}`);
  };
}
