const a = performance.now();
const m = await import('./machines/auth.machine.ts');
const b = performance.now();
const { createActor } = await import('xstate');
for (let i = 0; i < 3; i++) {
  const t = performance.now(); const p = m.authMachine.provide({}); const t2 = performance.now(); const act = createActor(p); const t3 = performance.now(); act.start(); const t4 = performance.now(); act.stop();
  console.log('provide', (t2 - t).toFixed(2), 'createActor', (t3 - t2).toFixed(2), 'start', (t4 - t3).toFixed(2));
}
console.log('import', (b - a).toFixed(1));
