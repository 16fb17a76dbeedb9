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
