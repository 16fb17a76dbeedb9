// Shared by the plain-JavaScript harnesses run under valgrind without tsx (m4-rounds.mjs,
// m4-kernels.mjs, merge-rounds.mjs): instantiating a core build, bench-kit's makeSeries written
// out, and M4's inputs staged in the core's memory.

/** A core build's exports, started. */
export async function instantiate(bytes) {
  const { instance } = await WebAssembly.instantiate(bytes, { env: { abort() { throw new Error('abort'); }, pow: Math.pow, acos: Math.acos } });
  instance.exports._start();
  return instance.exports;
}

/** bench-kit's makeSeries: n 1-minute points from 2025-01-01, a slow wave with jitter. */
export function makeSeries(n) {
  const time = new Float64Array(n), value = new Float32Array(n);
  let r = 12345;
  for (let i = 0; i < n; i++) { r = (Math.imul(r, 1103515245) + 12345) | 0; time[i] = Date.UTC(2025, 0, 1) + i * 60_000; value[i] = 2000 + 800 * Math.sin(i / 745) + ((r >>> 16) % 50); }
  return { time, value };
}

/** The series of n points in core memory with room for M4's output at w columns, and M4 and the floor as calls. */
export function stageM4(x, n, w) {
  const { time, value } = makeSeries(n);
  const tp = x.alloc(n * 8), vp = x.alloc(n * 4);
  new Float64Array(x.memory.buffer, tp, n).set(time);
  new Float32Array(x.memory.buffer, vp, n).set(value);
  const room = 4 * (w + 1);
  const ot = x.alloc(room * 8), ov = x.alloc(room * 8);
  const t0 = time[0], t1 = time[n - 1];
  const step = Math.max(1, Math.floor(n / w));
  return { time, value, tp, vp, ot, ov, t0, t1, step, m4: () => x.m4(tp, vp, n, t0, t1, w, ot, ov), floor: () => x.streamFloor(tp, vp, n, step) };
}
