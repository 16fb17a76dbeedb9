// Benchmark 18 (issue 38): fills and daily use of five years of 1-minute tank data (2.6 million
// points) by the core, against the TypeScript reference of the same algorithm; both answers equal.
import { loadCore } from '../wasm-core/core';
import { KIND } from '../wasm-core/conversion';
import { refUsageVolume } from '../wasm-core/reference/usage';
import { syntheticTank } from '../wasm-core/test-kit';
import { compare, type BenchRow } from './bench-kit';

const DAYS = 1826;
const DAY = 86_400_000;

export async function run(): Promise<BenchRow[]> {
  const core = await loadCore();
  const T0 = Date.UTC(2021, 0, 4);
  const tank = syntheticTank({ seed: 10, start: T0, days: DAYS, noiseMm: 3, start_volume: 12_000, weekday: [600, 1400, 1500, 1450, 1550, 1300, 700], fill: 10_000, refillBelow: 2500, rain: 60 });
  const n = tank.time.length;
  const store = core.newStore();
  core.merge(store, tank.time, tank.raw);
  const p = { kind: KIND.VOLUME_CYLINDER, offsetMm: 3000, inches: false, a: 2.5, b: 0, c: 0 };
  const bounds = Array.from({ length: DAYS + 1 }, (_, i) => T0 + i * DAY);
  const floor = Math.PI * 1.25 * 1.25;
  const ours = () => core.usageVolume({ store, from: 0, count: n }, p, bounds, floor);
  const baseline = () => refUsageVolume(tank.time, tank.raw, p, bounds, floor);
  const a = ours();
  const b = baseline();
  if (JSON.stringify(a) !== JSON.stringify(b)) throw new Error('the core and the reference disagree on five years of usage');
  if (a.fills.length < 100) throw new Error(`only ${a.fills.length} fills found in five years`);
  const r = await compare(ours, baseline, { runs: 15 });
  core.freeStore(store);
  return [
    {
      bench: '18 usage',
      what: `fills and daily use of ${n.toLocaleString('en-GB')} points (5 years, 1-minute) vs the TS reference`,
      ...r,
      target: { kind: 'speedup', value: 5 },
      note: `${a.fills.length} fills; answers equal`,
    },
  ];
}
