import { describe, expect, it } from 'vitest';
import { loadCore } from './core';

// DESIGN.md "The chart data path": the AssemblyScript build is loaded and answers (foundation issue:
// a first trivial export proves the chain end to end).
describe('the built core', () => {
  it('loads build/core.wasm in Node and answers coreVersion', async () => {
    const core = await loadCore();
    expect(core.version).toBe(2);
  });

  it('holds data in its own linear memory across calls', async () => {
    const core = await loadCore();
    const s = core.newStore();
    core.merge(s, [3, 1, 2], [30, 10, 20]);
    expect(Array.from(core.read(s).time)).toEqual([1, 2, 3]);
    expect(Array.from(core.read(s).value)).toEqual([10, 20, 30]);
    core.freeStore(s);
  });
});
