// Level, flow and volume from raw distance. Formulas: wasm-core/README.md. Every conversion is
// monotone in the distance, which is why the view may downsample raw distances first and
// convert only the points M4 keeps.

// pow and acos come from the host (Math.pow, Math.acos) so that the core and the TypeScript
// reference produce bit-identical answers; sqrt and floor are exact in both.
// @ts-ignore: decorator
@external("env", "pow") declare function hostPow(x: f64, y: f64): f64;
// @ts-ignore: decorator
@external("env", "acos") declare function hostAcos(x: f64): f64;

export const LEVEL = 0;
export const WEIR_FLOW_SCR = 1;
export const WEIR_FLOW_VN = 2;
export const PARSHALL_FLUME = 3;
export const VOLUME_CYLINDER = 4;
export const VOLUME_CYLINDER_HORIZONTAL = 5;
export const VOLUME_RECTANGULAR = 6;

let kind: i32 = LEVEL;
let offsetMm: f64 = 0;
let inches: bool = false;
let pa: f64 = 0;
let pb: f64 = 0;
let pc: f64 = 0;

/** Sets the conversion the view and the CSV apply (parameters per kind: README). */
export function setConversion(k: i32, offset: f64, unitInches: i32, a: f64, b: f64, c: f64): void {
  kind = k;
  offsetMm = offset;
  inches = unitInches != 0;
  pa = a;
  pb = b;
  pc = c;
}

/** Math.round's exact rule (ties toward +Infinity), written out so both sides agree. */
// @ts-ignore: decorator
@inline export function jsRound(x: f64): f64 {
  const r = Math.floor(x);
  return x - r >= 0.5 ? r + 1 : r;
}

function powN(h: f64, n: f64): f64 {
  if (n == 1.5) return h * Math.sqrt(h);
  if (n == 2.5) return h * h * Math.sqrt(h);
  return hostPow(h, n);
}

export function convertValue(raw: f64): f64 {
  const level = (offsetMm - raw) / 1000.0;
  if (kind == LEVEL) return inches ? level / 0.0254 : level;
  const h = level > 0 ? level : 0.0;
  if (kind == WEIR_FLOW_SCR) return Math.floor(pb * pa * powN(h, pc) * 1000.0);
  if (kind == WEIR_FLOW_VN) return jsRound(pb * pa * powN(h, pc) * 1000.0 * 100.0) / 100.0;
  if (kind == PARSHALL_FLUME) return Math.floor(pa * powN(h, pb) * 1000.0);
  if (kind == VOLUME_CYLINDER) {
    const r = pa / 2.0;
    return Math.PI * r * r * h * 1000.0;
  }
  if (kind == VOLUME_CYLINDER_HORIZONTAL) {
    const r = pa / 2.0;
    if (r <= 0) return 0;
    const d = h < pa ? h : pa;
    const under = 2.0 * r * d - d * d;
    const area = r * r * hostAcos((r - d) / r) - (r - d) * Math.sqrt(under > 0 ? under : 0.0);
    return area * pb * 1000.0;
  }
  if (kind == VOLUME_RECTANGULAR) return pa * pb * h * 1000.0;
  return level;
}
