import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startProduct } from './product';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    dataDir: string;
    /** A file of the screen shapes axe has passed in this run's files (browser.ts expectAccessible). */
    axeShapesFile: string;
  }
}

/** The e2e project's shared server: the product as `npm start` runs it, on a free port with its own data directory. */
export default async function setup(project: TestProject) {
  const product = await startProduct({
    SIMULATOR_SPEED: process.env.E2E_SIMULATOR_SPEED ?? '60',
    // the webhook tests' receiver listens on this machine (loopback), which is refused otherwise
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
  });
  project.provide('baseUrl', product.url);
  project.provide('dataDir', product.dataDir);
  const shapes = mkdtempSync(join(tmpdir(), 'tw-axe-'));
  project.provide('axeShapesFile', join(shapes, 'passed'));
  return async () => {
    rmSync(shapes, { recursive: true, force: true });
    const output = product.output();
    await product.stop();
    // the browser reported a Content-Security-Policy violation (a worker's, or one a test missed)
    const reports = output.split('\n').filter((line) => line.includes('"msg":"CSP violation"'));
    if (reports.length) throw new Error(`Content-Security-Policy violations reported to the server:\n${reports.join('\n')}`);
  };
}
