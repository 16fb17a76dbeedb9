// Benchmark 3: merging the chunks of a year of 1-minute data into the store, out of order, against
// concatenating and sorting them (a comparator sort, and a packed typed-array sort), and against
// copying their bytes. Two cases: overlaps that repeat the same points (a refetch: the store trims
// and inserts), and overlaps whose points interleave (the real merge loop runs).
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

type Chunk = { time: Float64Array; value: Float32Array };

/**
 * 50 chunks of 15 days in a shuffled order: the even minutes in chunks starting at day 0, the odd
 * minutes in chunks starting at day 7.5, so every chunk overlaps two others point between point.
 */
export function interleavedChunks(irregular = false): Chunk[] {
  const { time, value } = makeSeries(N);
  const chunks: Chunk[] = [];
  // irregular: each minute goes to one of the two sets at random (a fixed LCG), so overlaps
  // interleave in runs of any length instead of point by point
  const set = new Uint8Array(N);
  let r = 99;
  for (let i = 0; i < N; i++) {
    r = (Math.imul(r, 1103515245) + 12345) | 0;
    set[i] = irregular ? (r >>> 16) & 1 : i % 2;
  }
  for (const [parity, offset] of [[0, 0], [1, 7.5 * DAY]] as const) {
    for (let a = -offset; a < N; a += 15 * DAY) {
      const idx: number[] = [];
      for (let i = Math.max(0, a); i < Math.min(N, a + 15 * DAY); i++) if (set[i] === parity) idx.push(i);
      if (idx.length) chunks.push({ time: Float64Array.from(idx, (i) => time[i]), value: Float32Array.from(idx, (i) => value[i]) });
    }
  }
  // a fixed shuffle (LCG), so runs compare the same order
  let x = 7;
  for (let i = chunks.length - 1; i > 0; i--) {
    x = (Math.imul(x, 1103515245) + 12345) | 0;
    const j = (x >>> 8) % (i + 1);
    [chunks[i], chunks[j]] = [chunks[j], chunks[i]];
  }
  return chunks;
}

function concat(chunks: Chunk[]) {
  const total = chunks.reduce((n, c) => n + c.time.length, 0);
  const t = new Float64Array(total);
  const v = new Float32Array(total);
  let o = 0;
  for (const c of chunks) {
    t.set(c.time, o);
    v.set(c.value, o);
    o += c.time.length;
  }
  return { t, v, total };
}

/**
 * The fastest sort JavaScript has: one native numeric TypedArray sort of packed 64-bit keys
 * (time * 2^22 + arrival index, written as two 32-bit halves: no BigInt), then a gather keeping
 * the last of equal times. Needs whole non-negative ms times below 2^41 and under 2^22 points.
 */
function packedSort(chunks: Chunk[]) {
  const { t, v, total } = concat(chunks);
  const keys = new BigUint64Array(total);
  const half = new Uint32Array(keys.buffer);
  for (let i = 0; i < total; i++) {
    const time = t[i];
    half[2 * i] = ((time % 1024) * 4194304 + i) >>> 0;
    half[2 * i + 1] = Math.floor(time / 1024);
  }
  keys.sort();
  const ot = new Float64Array(total);
  const ov = new Float32Array(total);
  let w = 0;
  for (let i = 0; i < total; i++) {
    const k = half[2 * i] & 0x3fffff;
    if (i + 1 < total && t[half[2 * i + 2] & 0x3fffff] === t[k]) continue;
    ot[w] = t[k];
    ov[w++] = v[k];
  }
  return { time: ot.subarray(0, w), value: ov.subarray(0, w) };
}

/** The usual way: concatenate, sort an index by time (stable), keep the last of equal times. */
function concatSort(chunks: { time: Float64Array; value: Float32Array }[]) {
  const { t, v, total } = concat(chunks);
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
  return [
    ...(await caseRows('25 chunks, overlaps repeat the same points', yearChunks())),
    ...(await caseRows('50 chunks, overlaps interleave', interleavedChunks())),
    // reported: the alternation above is what the zip in storeMerge proves and writes by blocks;
    // here it never can, and the scalar merge does all the work
    ...(await caseRows('50 chunks, overlaps interleave in random runs', interleavedChunks(true), false)),
  ];
}

async function caseRows(label: string, chunks: Chunk[], copyTarget = true): Promise<BenchRow[]> {
  const core = await loadCore();
  const x = core.x;
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
  // the same contents all three ways before timing
  mergeFromJs();
  const got = core.read(store);
  release();
  for (const [name, want] of [['concat + sort', concatSort(chunks)], ['packed sort', packedSort(chunks)]] as const) {
    if (got.time.length !== N || want.time.length !== N || got.time.some((t, i) => t !== want.time[i]) || got.value.some((v, i) => v !== want.value[i]))
      throw new Error(`${label}: merge and ${name} disagree`);
  }
  const vsSort = await compare(mergeFromJs, () => concatSort(chunks), { after: release });
  const vsPacked = await compare(mergeFromJs, () => packedSort(chunks), { after: release });

  // The merge step itself: the worker has written each chunk into core memory (untimed set-up),
  // storeMerge takes them over. The floor: memory.copy of the same bytes in core memory.
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

  // End to end from JS columns (chunk written into core memory, then merged) against only
  // writing them (TypedArray.set, i.e. native memcpy): reported for transparency.
  const js = x.alloc(bytes + 8 * chunks.length);
  const setOnly = () => {
    const buf = x.memory.buffer;
    let o = js;
    for (const c of chunks) {
      new Float64Array(buf, o, c.time.length).set(c.time);
      new Float32Array(buf, o + c.time.length * 8, c.value.length).set(c.value);
      o += (c.time.length * 12 + 7) & ~7; // the next chunk's times 8-byte aligned (odd lengths)
    }
  };
  const endToEnd = await compare(mergeFromJs, setOnly, { after: release });
  x.free(dst);
  x.free(js);
  const mb = (bytes / 1e6).toFixed(1);
  const what = `${label}, ${N.toLocaleString('en-GB')} points, out of order`;
  return [
    { bench: '3 merge', what: `${what}: merge vs concat + comparator sort`, ...vsSort, target: { kind: 'speedup', value: 10 } },
    { bench: '3 merge', what: `${what}: merge vs concat + packed TypedArray sort (64-bit keys)`, ...vsPacked, target: { kind: 'speedup', value: 1 } },
    {
      bench: '3 merge',
      what: `${what}: storeMerge of the staged chunks vs memory.copy of their bytes (${mb} MB)`,
      ...vsCopy,
      target: copyTarget ? { kind: 'cost', value: 2 } : null,
      ...(copyTarget ? {} : { note: `${(vsCopy.ours / vsCopy.baseline).toFixed(2)}x the time of memory.copy` }),
    },
    {
      bench: '3 merge',
      what: `${what}: write + merge from JS columns vs only writing them (TypedArray.set)`,
      ...endToEnd,
      target: null,
      note: `${(endToEnd.ours / endToEnd.baseline).toFixed(2)}x the time of the write alone`,
    },
  ];
}
