// Reference for assembly/sort.ts: the same natural merge sort (ascending runs kept, strictly
// descending runs reversed, neighbouring runs merged stably), then "last of equal times wins".

export interface Columns {
  time: Float64Array;
  value: Float32Array;
}

function mergeRuns(t: Float64Array, v: Float32Array, a: number, m: number, b: number): void {
  const lt = t.slice(a, m);
  const lv = v.slice(a, m);
  let i = 0;
  let j = m;
  let w = a;
  while (i < lt.length && j < b) {
    if (t[j] < lt[i]) {
      t[w] = t[j];
      v[w++] = v[j++];
    } else {
      t[w] = lt[i];
      v[w++] = lv[i++];
    }
  }
  while (i < lt.length) {
    t[w] = lt[i];
    v[w++] = lv[i++];
  }
}

export function refSortChunk(time: ArrayLike<number>, value: ArrayLike<number>): Columns {
  const t = Float64Array.from(time);
  const v = Float32Array.from(value);
  const n = t.length;
  const runs: number[] = [];
  let i = 0;
  while (i < n) {
    runs.push(i);
    let j = i + 1;
    if (j < n && t[j] < t[i]) {
      while (j < n && t[j] < t[j - 1]) j++;
      t.subarray(i, j).reverse();
      v.subarray(i, j).reverse();
    } else {
      while (j < n && t[j] >= t[j - 1]) j++;
    }
    i = j;
  }
  runs.push(n);
  while (runs.length > 2) {
    const next: number[] = [];
    for (let k = 0; k < runs.length - 1; k += 2) {
      if (k + 2 < runs.length) mergeRuns(t, v, runs[k], runs[k + 1], runs[k + 2]);
      next.push(runs[k]);
    }
    next.push(n);
    runs.splice(0, runs.length, ...next);
  }
  let w = 0;
  for (let k = 0; k < n; k++) {
    if (k + 1 < n && t[k + 1] === t[k]) continue;
    t[w] = t[k];
    v[w++] = v[k];
  }
  return { time: t.slice(0, w), value: v.slice(0, w) };
}
