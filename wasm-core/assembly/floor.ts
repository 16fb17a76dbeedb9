// The memory floor for the benchmarks: one sequential pass summing both columns (f64x2 over
// the times, f32x4 over the values). Nothing that reads every byte of its input can beat it.

export function sumColumns(tp: usize, vp: usize, n: i32): f64 {
  let a = f64x2.splat(0);
  let b = f64x2.splat(0);
  let i = 0;
  for (; i + 4 <= n; i += 4) {
    a = f64x2.add(a, v128.load(tp + (<usize>i << 3)));
    b = f64x2.add(b, v128.load(tp + (<usize>i << 3), 16));
  }
  let s = f64x2.extract_lane(a, 0) + f64x2.extract_lane(a, 1) + f64x2.extract_lane(b, 0) + f64x2.extract_lane(b, 1);
  for (; i < n; i++) s += load<f64>(tp + (<usize>i << 3));
  let c = f32x4.splat(0);
  let j = 0;
  for (; j + 4 <= n; j += 4) c = f32x4.add(c, v128.load(vp + (<usize>j << 2)));
  let sv: f64 = <f64>f32x4.extract_lane(c, 0) + <f64>f32x4.extract_lane(c, 1) + <f64>f32x4.extract_lane(c, 2) + <f64>f32x4.extract_lane(c, 3);
  for (; j < n; j++) sv += <f64>load<f32>(vp + (<usize>j << 2));
  return s + sv;
}

/** memory.copy of n bytes: the floor for merging (every byte moved once). */
export function copyBytes(dst: usize, src: usize, n: usize): void {
  memory.copy(dst, src, n);
}

/**
 * The honest floor for M4: the fastest pass over exactly the bytes M4 streams. M4 reads every
 * value in the window (4 bytes a point) and gallops on the time column, touching a few times a
 * pixel column; this reads every value (integer adds on 16-byte lanes, eight accumulators, 32
 * values an iteration: the cheapest operation there is) and every `step`-th time (step = points
 * per pixel column, so one time read per column). Returns a checksum so nothing is optimised away.
 */
export function streamFloor(tp: usize, vp: usize, n: i32, step: i32): i64 {
  let a0 = i32x4.splat(0);
  let a1 = a0;
  let a2 = a0;
  let a3 = a0;
  let a4 = a0;
  let a5 = a0;
  let a6 = a0;
  let a7 = a0;
  let j = 0;
  for (; j + 32 <= n; j += 32) {
    const p = vp + (<usize>j << 2);
    a0 = i32x4.add(a0, v128.load(p));
    a1 = i32x4.add(a1, v128.load(p, 16));
    a2 = i32x4.add(a2, v128.load(p, 32));
    a3 = i32x4.add(a3, v128.load(p, 48));
    a4 = i32x4.add(a4, v128.load(p, 64));
    a5 = i32x4.add(a5, v128.load(p, 80));
    a6 = i32x4.add(a6, v128.load(p, 96));
    a7 = i32x4.add(a7, v128.load(p, 112));
  }
  const s = i32x4.add(i32x4.add(i32x4.add(a0, a1), i32x4.add(a2, a3)), i32x4.add(i32x4.add(a4, a5), i32x4.add(a6, a7)));
  let sum: i64 = <i64>i32x4.extract_lane(s, 0) + <i64>i32x4.extract_lane(s, 1) + <i64>i32x4.extract_lane(s, 2) + <i64>i32x4.extract_lane(s, 3);
  for (; j < n; j++) sum += <i64>load<i32>(vp + (<usize>j << 2));
  if (step < 1) step = 1;
  for (let i = 0; i < n; i += step) sum += load<i64>(tp + (<usize>i << 3));
  return sum;
}
