// docs/machines.md is generated (npm run docs:machines): it must match what the machines and their
// rules give now.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { buildPage, PAGE } from './machines-page';

describe('docs/machines.md', () => {
  it('is what npm run docs:machines generates from the machines as they are', async () => {
    expect(readFileSync(PAGE, 'utf8'), 'docs/machines.md is out of date: run npm run docs:machines').toBe(await buildPage());
  }, 120_000); // loading every machine takes seconds on a busy machine
});
