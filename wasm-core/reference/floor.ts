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
