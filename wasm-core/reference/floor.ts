/** Reference for assembly/floor.ts: the sum of both columns (order of additions differs: compare with tolerance). */
export function refSumColumns(time: Float64Array, value: Float32Array): number {
  let s = 0;
  for (let i = 0; i < time.length; i++) s += time[i];
  let v = 0;
  for (let i = 0; i < value.length; i++) v += value[i];
  return s + v;
}

/** Reference for copyBytes: a byte copy. */
export function refCopyBytes(dst: Uint8Array, src: Uint8Array): void {
  dst.set(src);
}

/**
 * Reference for streamFloor: the value column's bits summed as i32 in 4 lanes (wrapping, as the
 * SIMD lanes do) over whole blocks of 32, the rest and every step-th time's bits as i64.
 */
export function refStreamFloor(time: Float64Array, value: Float32Array, step: number): bigint {
  const bits = new Int32Array(value.buffer, value.byteOffset, value.length);
  const tbits = new BigInt64Array(time.buffer, time.byteOffset, time.length);
  const n = value.length;
  const whole = n - (n % 32);
  const lanes = [0, 0, 0, 0];
  for (let i = 0; i < whole; i++) lanes[i % 4] = (lanes[i % 4] + bits[i]) | 0;
  let sum = BigInt(lanes[0]) + BigInt(lanes[1]) + BigInt(lanes[2]) + BigInt(lanes[3]);
  for (let i = whole; i < n; i++) sum += BigInt(bits[i]);
  for (let i = 0; i < n; i += Math.max(1, step)) sum += tbits[i];
  return BigInt.asIntN(64, sum);
}
