// Reference for assembly/convert.ts: the same formulas in the same operation order.
import { KIND, type ConversionParams } from '../conversion';

/** Math.round's rule, written out as the core writes it. */
export function jsRound(x: number): number {
  const r = Math.floor(x);
  return x - r >= 0.5 ? r + 1 : r;
}

function powN(h: number, n: number): number {
  if (n === 1.5) return h * Math.sqrt(h);
  if (n === 2.5) return h * h * Math.sqrt(h);
  return Math.pow(h, n);
}

export function refConvert(p: ConversionParams, raw: number): number {
  const level = (p.offsetMm - raw) / 1000;
  if (p.kind === KIND.LEVEL) return p.inches ? level / 0.0254 : level;
  const h = level > 0 ? level : 0;
  switch (p.kind) {
    case KIND.WEIR_FLOW_SCR:
      return Math.floor(p.b * p.a * powN(h, p.c) * 1000);
    case KIND.WEIR_FLOW_VN:
      return jsRound(p.b * p.a * powN(h, p.c) * 1000 * 100) / 100;
    case KIND.PARSHALL_FLUME:
      return Math.floor(p.a * powN(h, p.b) * 1000);
    case KIND.VOLUME_CYLINDER: {
      const r = p.a / 2;
      return Math.PI * r * r * h * 1000;
    }
    case KIND.VOLUME_CYLINDER_HORIZONTAL: {
      const r = p.a / 2;
      if (r <= 0) return 0;
      const d = h < p.a ? h : p.a;
      const under = 2 * r * d - d * d;
      const area = r * r * Math.acos((r - d) / r) - (r - d) * Math.sqrt(under > 0 ? under : 0);
      return area * p.b * 1000;
    }
    case KIND.VOLUME_RECTANGULAR:
      return p.a * p.b * h * 1000;
    default:
      return level;
  }
}
