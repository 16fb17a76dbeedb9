// Sorting one chunk in place: natural merge sort over the runs the chunk already has
// (a server page is one ascending run; order=desc pages are one strictly descending run, which
// is reversed). Stable, so "the later of two equal times wins" keeps its meaning.

/** Reverses [a, b) of both columns. */
function reverse(t: usize, v: usize, a: i32, b: i32): void {
  let i = a;
  let j = b - 1;
  while (i < j) {
    const ti = load<f64>(t + (<usize>i << 3));
    store<f64>(t + (<usize>i << 3), load<f64>(t + (<usize>j << 3)));
    store<f64>(t + (<usize>j << 3), ti);
    const vi = load<f32>(v + (<usize>i << 2));
    store<f32>(v + (<usize>i << 2), load<f32>(v + (<usize>j << 2)));
    store<f32>(v + (<usize>j << 2), vi);
    i++;
    j--;
  }
}

/** Stable merge of the adjacent sorted ranges [a, m) and [m, b) through scratch space. */
function mergeRuns(t: usize, v: usize, a: i32, m: i32, b: i32, st: usize, sv: usize): void {
  // Copy the left run out, then merge forward into place (the write never passes the right read).
  const nl = m - a;
  memory.copy(st, t + (<usize>a << 3), <usize>nl << 3);
  memory.copy(sv, v + (<usize>a << 2), <usize>nl << 2);
  let i = 0;
  let j = m;
  let w = a;
  while (i < nl && j < b) {
    const tl = load<f64>(st + (<usize>i << 3));
    const tr = load<f64>(t + (<usize>j << 3));
    if (tr < tl) {
      store<f64>(t + (<usize>w << 3), tr);
      store<f32>(v + (<usize>w << 2), load<f32>(v + (<usize>j << 2)));
      j++;
    } else {
      store<f64>(t + (<usize>w << 3), tl);
      store<f32>(v + (<usize>w << 2), load<f32>(sv + (<usize>i << 2)));
      i++;
    }
    w++;
  }
  if (i < nl) {
    memory.copy(t + (<usize>w << 3), st + (<usize>i << 3), <usize>(nl - i) << 3);
    memory.copy(v + (<usize>w << 2), sv + (<usize>i << 2), <usize>(nl - i) << 2);
  }
}

/**
 * True when every time is greater than the one before: the common case. Each pair (t[i], t[i+1])
 * is compared against (t[i+1], t[i+2]) loaded 8 bytes on, 16 times an iteration into four
 * independent accumulators (shuffles instead of the offset loads were the bottleneck).
 */
export function strictlyAscending(t: usize, n: i32): bool {
  let b0 = i64x2.splat(0);
  let b1 = i64x2.splat(0);
  let b2 = i64x2.splat(0);
  let b3 = i64x2.splat(0);
  let i = 0;
  for (; i + 17 <= n; i += 16) {
    const p = t + (<usize>i << 3);
    b0 = v128.or(b0, f64x2.ge(v128.load(p), v128.load(p, 8)));
    b1 = v128.or(b1, f64x2.ge(v128.load(p, 16), v128.load(p, 24)));
    b2 = v128.or(b2, f64x2.ge(v128.load(p, 32), v128.load(p, 40)));
    b3 = v128.or(b3, f64x2.ge(v128.load(p, 48), v128.load(p, 56)));
    b0 = v128.or(b0, f64x2.ge(v128.load(p, 64), v128.load(p, 72)));
    b1 = v128.or(b1, f64x2.ge(v128.load(p, 80), v128.load(p, 88)));
    b2 = v128.or(b2, f64x2.ge(v128.load(p, 96), v128.load(p, 104)));
    b3 = v128.or(b3, f64x2.ge(v128.load(p, 112), v128.load(p, 120)));
  }
  if (v128.any_true(v128.or(v128.or(b0, b1), v128.or(b2, b3)))) return false;
  for (i = i > 0 ? i : 1; i < n; i++) {
    if (!(load<f64>(t + (<usize>i << 3)) > load<f64>(t + (<usize>(i - 1) << 3)))) return false;
  }
  return true;
}

/**
 * Sorts the chunk (time f64, value f32) by time, stable, and removes duplicate times keeping
 * the last occurrence. Returns the new length. Already-sorted chunks cost one read pass.
 */
export function sortChunk(t: usize, v: usize, n: i32): i32 {
  if (n < 2) return n;
  if (strictlyAscending(t, n)) return n;
  let sorted = true;
  let strict = true;
  for (let i = 1; i < n; i++) {
    const d = load<f64>(t + (<usize>i << 3)) - load<f64>(t + (<usize>(i - 1) << 3));
    if (d <= 0) {
      strict = false;
      if (d < 0) {
        sorted = false;
        break;
      }
    }
  }
  if (strict) return n;
  if (!sorted) sortRuns(t, v, n);
  return dedupeLast(t, v, n);
}

function sortRuns(t: usize, v: usize, n: i32): void {
  // Run boundaries: runs[k] is where run k starts; runs[count] = n.
  const runs = heap.alloc(<usize>(n + 1) << 2);
  let count = 0;
  let i = 0;
  while (i < n) {
    store<i32>(runs + (<usize>count << 2), i);
    count++;
    let j = i + 1;
    if (j < n && load<f64>(t + (<usize>j << 3)) < load<f64>(t + (<usize>i << 3))) {
      // strictly descending run: no equal neighbours, so reversing it keeps stability
      while (j < n && load<f64>(t + (<usize>j << 3)) < load<f64>(t + (<usize>(j - 1) << 3))) j++;
      reverse(t, v, i, j);
    } else {
      while (j < n && load<f64>(t + (<usize>j << 3)) >= load<f64>(t + (<usize>(j - 1) << 3))) j++;
    }
    i = j;
  }
  store<i32>(runs + (<usize>count << 2), n);
  const st = heap.alloc(<usize>n << 3);
  const sv = heap.alloc(<usize>n << 2);
  // Bottom-up: merge neighbouring runs pairwise until one remains.
  while (count > 1) {
    let k = 0;
    let out = 0;
    while (k < count) {
      const a = load<i32>(runs + (<usize>k << 2));
      if (k + 1 < count) {
        const m = load<i32>(runs + (<usize>(k + 1) << 2));
        const b = load<i32>(runs + (<usize>(k + 2) << 2));
        mergeRuns(t, v, a, m, b, st, sv);
      }
      store<i32>(runs + (<usize>out << 2), a);
      out++;
      k += 2;
    }
    store<i32>(runs + (<usize>out << 2), n);
    count = out;
  }
  heap.free(st);
  heap.free(sv);
  heap.free(runs);
}

/** On a sorted chunk: keeps the last of each run of equal times. */
function dedupeLast(t: usize, v: usize, n: i32): i32 {
  let w = 0;
  for (let i = 0; i < n; i++) {
    const ti = load<f64>(t + (<usize>i << 3));
    if (i + 1 < n && load<f64>(t + (<usize>(i + 1) << 3)) == ti) continue;
    store<f64>(t + (<usize>w << 3), ti);
    store<f32>(v + (<usize>w << 2), load<f32>(v + (<usize>i << 2)));
    w++;
  }
  return w;
}
