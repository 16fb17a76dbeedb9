// npm run bench: runs every bench/*.bench.ts (each exports run(): Promise<BenchRow[]>), prints one
// table with the ratio and PASS/FAIL per target, and exits non-zero when a target fails.
// Optional arguments name the groups to run, each a file's name without .bench.ts: node --import tsx bench/run.ts m4 csv
import { readdirSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { pathToFileURL } from 'node:url';
import { passes, ratioOf, RUNS, type BenchFile, type BenchRow } from './bench-kit';

const dir = new URL('.', import.meta.url);
const filters = process.argv.slice(2);
const groups = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts'))
  .map((f) => f.slice(0, -'.bench.ts'.length))
  .sort();
// a group by its whole name: `fleet` is benchmark 22 alone, not also fleet-search (19)
const unknown = filters.filter((x) => !groups.includes(x));
if (unknown.length) {
  process.stderr.write(`no benchmark group ${unknown.map((x) => `"${x}"`).join(', ')}; the groups: ${groups.join(', ')}\n`);
  process.exit(2);
}
const files = groups.filter((g) => !filters.length || filters.includes(g)).map((g) => `${g}.bench.ts`);

const rows: BenchRow[] = [];
let failedToRun = false;
for (const f of files) {
  process.stderr.write(`running ${f}...\n`);
  try {
    const mod = (await import(pathToFileURL(new URL(f, dir).pathname).href)) as BenchFile;
    rows.push(...(await mod.run()));
  } catch (err) {
    failedToRun = true;
    console.error(`${f} failed: ${(err as Error).stack ?? err}`);
  }
}

const ms = (x: number) => (x < 10 ? x.toFixed(3) : x.toFixed(1));
const table = rows.map((r) => {
  const ok = passes(r);
  const ratio = ratioOf(r);
  const rule = !r.target ? (r.reportAs === 'cost' ? '(report: cost)' : '(report)') : r.target.kind === 'speedup' ? `speedup >= ${r.target.value}x` : `cost <= ${r.target.value}x`;
  return {
    bench: r.bench,
    what: r.what,
    'ours ms': ms(r.ours),
    'baseline ms': ms(r.baseline),
    ratio: `${ratio.toFixed(2)}x`,
    target: rule,
    result: ok === null ? '-' : ok ? 'PASS' : 'FAIL',
    ...(r.note ? { note: r.note } : {}),
  };
});
console.log(`\nmedian of ${Math.max(RUNS, 15)} interleaved runs after warm-up; node ${process.version}; ${cpus().length} x ${cpus()[0]?.model}; ${(totalmem() / 2 ** 30).toFixed(1)} GiB`);
console.table(table);
const failed = rows.filter((r) => passes(r) === false);
if (failed.length || failedToRun) {
  console.log(`${failed.length} target(s) failed${failedToRun ? ', and a benchmark file failed to run' : ''}`);
  process.exit(1);
}
console.log('all targets pass');
