// Benchmark 3 (issue 5): merging the 25 overlapping, out-of-order chunks of a year of 1-minute
// data into the store, against concatenating and sorting them, and against copying their bytes.
import { loadCore } from '../wasm-core/core';
import { compare, makeSeries, type BenchRow } from './bench-kit';

const DAY = 1440; // points per day
const N = 525_600;

/** 25 chunks of 15 days, each overlapping its neighbours by an hour, in a shuffled arrival order. */
export function yearChunks(): { time: Float64Array; value: Float32Array }[] {
  const { time, value } = makeSeries(N);
  const chunks: { time: Float64Array; value: Float32Array }[] = [];
  for (let k = 0; k < 25; k++) {
    const a = Math.max(0, k * 15 * DAY - 60);
    const b = Math.min(N, (k + 1) * 15 * DAY + 60);
    chunks.push({ time: time.slice(a, b), value: value.slice(a, b) });
  }
  const order = [12, 3, 24, 0, 7, 18, 1, 9, 22, 5, 15, 2, 20, 11, 6, 23, 14, 4, 17, 8, 21, 10, 16, 13, 19];
  return order.map((k) => chunks[k]);
}

/** The usual way: concatenate, sort an index by time (stable), keep the last of equal times. */
function concatSort(chunks: { time: Float64Array; value: Float32Array }[]) {
  const total = chunks.reduce((n, c) => n + c.time.length, 0);
  const t = new Float64Array(total);
  const v = new Float32Array(total);
  let o = 0;
  for (const c of chunks) {
    t.set(c.time, o);
    v.set(c.value, o);
    o += c.time.length;
  }
  const idx = Array.from({ length: total }, (_, i) => i).sort((a, b) => t[a] - t[b]);
  const ot = new Float64Array(total);
  const ov = new Float32Array(total);
  let w = 0;
  for (let i = 0; i < total; i++) {
    const k = idx[i];
    if (i + 1 < total && t[idx[i + 1]] === t[k]) continue;
    ot[w] = t[k];
    ov[w++] = v[k];
  }
  return { time: ot.subarray(0, w), value: ov.subarray(0, w) };
}

export async function run(): Promise<BenchRow[]> {
  const core = await loadCore();
  const x = core.x;
  const chunks = yearChunks();
  const bytes = chunks.reduce((n, c) => n + c.time.length * 12, 0);
  let store = 0;
  const mergeFromJs = () => {
    store = core.newStore();
    for (const c of chunks) core.merge(store, c.time, c.value);
  };
  const release = () => {
    if (store) core.freeStore(store);
    store = 0;
  };
  // same contents as the usual way before timing
  mergeFromJs();
  const want = concatSort(chunks);
  const got = core.read(store);
  release();
  if (got.time.length !== N || want.time.length !== N || got.time.some((t, i) => t !== want.time[i]) || got.value.some((v, i) => v !== want.value[i]))
    throw new Error('merge and concat+sort disagree');
  const vsSort = await compare(mergeFromJs, () => concatSort(chunks), { after: release });

  // The merge step itself: the worker's parser has written each chunk into core memory (untimed
  // set-up), storeMerge takes them over. The floor: memory.copy of the same bytes in core memory.
  let staged: [number, number, number][] = [];
  const stage = () => {
    staged = chunks.map((c) => {
      const n = c.time.length;
      const t = x.alloc(n * 8);
      const v = x.alloc(n * 4);
      new Float64Array(x.memory.buffer, t, n).set(c.time);
      new Float32Array(x.memory.buffer, v, n).set(c.value);
      return [t, v, n];
    });
  };
  const mergeStep = () => {
    store = x.storeNew();
    for (const [t, v, n] of staged) x.storeMerge(store, t, v, n);
  };
  const dst = x.alloc(bytes);
  const copyStep = () => {
    let o = dst;
    for (const [t, v, n] of staged) {
      x.copyBytes(o, t, n * 8);
      x.copyBytes(o + n * 8, v, n * 4);
      o += n * 12;
    }
  };
  const freeStaged = () => {
    if (store) release();
    else
      for (const [t, v] of staged) {
        x.free(t);
        x.free(v);
      }
    staged = [];
  };
  // one set of staged chunks per call: each side gets its own fresh copy
  const vsCopy = await compare(mergeStep, copyStep, { before: () => (staged.length ? undefined : stage()), after: freeStaged });

  // End to end from the parsed JS columns (chunk written into core memory, then merged) against
  // only writing them (TypedArray.set, i.e. native memcpy): reported for transparency.
  const js = x.alloc(bytes);
  const setOnly = () => {
    const buf = x.memory.buffer;
    let o = js;
    for (const c of chunks) {
      new Float64Array(buf, o, c.time.length).set(c.time);
      new Float32Array(buf, o + c.time.length * 8, c.value.length).set(c.value);
      o += c.time.length * 12;
    }
  };
  const endToEnd = await compare(mergeFromJs, setOnly, { after: release });
  x.free(dst);
  x.free(js);
  const mb = (bytes / 1e6).toFixed(1);
  return [
    { bench: '3 merge', what: `25 overlapping out-of-order chunks (${N.toLocaleString('en-GB')} points) vs concat + sort`, ...vsSort, target: { kind: 'speedup', value: 10 } },
    { bench: '3 merge', what: `storeMerge of the staged chunks vs memory.copy of their bytes (${mb} MB)`, ...vsCopy, target: { kind: 'cost', value: 2 } },
    {
      bench: '3 merge',
      what: `end to end from JS columns (write + merge) vs only writing them (TypedArray.set)`,
      ...endToEnd,
      target: null,
      note: `${(endToEnd.ours / endToEnd.baseline).toFixed(2)}x the time of the write alone`,
    },
  ];
}
