// Benchmark 19: the sensor search at 100,000 sensors (src/domain/fleet-search.ts, in the data
// worker) against plain Fuse with the same options over the same seed-like fleet
// (server/cli/seed-fleet.ts's names and serials). Each query's answer is checked equal to Fuse's
// (the same sensors in the same order) before timing. Fuse takes seconds a query, so it is timed
// fewer times (BENCH_FLEET_FUSE_RUNS) than ours (15).
import Fuse from 'fuse.js';
import { createFleetSearch } from '../src/domain/fleet-search';
import { SEARCH_THRESHOLD } from '../src/domain/sensor-search';
import { FLEET_KINDS, FLEET_TOWNS, fleetSerial } from '../server/cli/seed-fleet';
import { median, type BenchRow } from './bench-kit';

const N = 100_000;
const FUSE_RUNS = Math.max(1, Number(process.env.BENCH_FLEET_FUSE_RUNS ?? 2));
/** A person typing: one letter and on, a typo, a serial, a long name. */
export const FLEET_QUERIES = ['r', 're', 'res', 'rese', 'resev', 'resevoir', 'thames bore 1234', 'F00012', 'f0001a2b', 'palmerston north stock tank 99999'];
/** The target from keystroke to the list drawn; the search may take half of it. */
const KEYSTROKE_MS = 100;

/** The fleet seed:fleet writes, sensor i as it names it. */
export function seedLikeFleet(n: number): { name: string; serial: string }[] {
  return Array.from({ length: n }, (_, k) => {
    const i = k + 1;
    return { name: `${FLEET_TOWNS[i % FLEET_TOWNS.length]![0]} ${FLEET_KINDS[Math.floor(i / 3) % FLEET_KINDS.length]![0]} ${i}`, serial: fleetSerial(i) };
  });
}

const timed = (fn: () => unknown) => {
  const t = performance.now();
  fn();
  return performance.now() - t;
};

export async function run(): Promise<BenchRow[]> {
  const items = seedLikeFleet(N);
  const ours = createFleetSearch(items);
  const build = timed(() => ours.warm());
  let fuse!: Fuse<{ name: string; serial: string }>;
  const fuseBuild = timed(() => (fuse = new Fuse(items, { keys: ['name', 'serial'], threshold: SEARCH_THRESHOLD, ignoreLocation: true })));

  let oursTotal = 0;
  let fuseTotal = 0;
  let worst = 0;
  let worstQuery = '';
  for (const q of FLEET_QUERIES) {
    let expected: number[] = [];
    const fuseTimes = [timed(() => (expected = fuse.search(q).map((r) => r.refIndex)))];
    const got = ours(q);
    if (JSON.stringify(got) !== JSON.stringify(expected)) throw new Error(`fleet search for "${q}" differs from Fuse's answer`);
    for (let w = 0; w < 3; w++) ours(q);
    const oursTimes: number[] = [];
    for (let r = 0; r < 15; r++) {
      oursTimes.push(timed(() => ours(q)));
      if (r < FUSE_RUNS) fuseTimes.push(timed(() => fuse.search(q)));
      await new Promise((res) => setImmediate(res));
    }
    const o = median(oursTimes);
    oursTotal += o;
    fuseTotal += median(fuseTimes);
    if (o > worst) [worst, worstQuery] = [o, q];
  }
  const n = N.toLocaleString('en-GB');
  return [
    { bench: '19 fleet search', what: `${FLEET_QUERIES.length} typed queries over ${n} seed-like sensors, sum of medians, vs plain Fuse (same answers)`, ours: oursTotal, baseline: fuseTotal, target: { kind: 'speedup', value: 10 } },
    { bench: '19 fleet search', what: `slowest query ("${worstQuery}") vs half the ${KEYSTROKE_MS} ms keystroke-to-list target`, ours: worst, baseline: KEYSTROKE_MS, target: { kind: 'cost', value: 0.5 } },
    { bench: '19 fleet search', what: `index of ${n} sensors (built after the first rows) vs Fuse's index`, ours: build, baseline: fuseBuild, target: null, note: 'one build each' },
  ];
}
