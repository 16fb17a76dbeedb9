/**
 * WCAG 2.x contrast arithmetic (issue 16): the ratio of two colours, and a colour darkened only as
 * far as needed to reach a ratio. Pure: the theme's palette and the chart's canvas both use it.
 */

const channel = (c: number) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
const rgb = (hex: string) => {
  const h = hex.replace('#', '');
  const full = h.length === 3 ? [...h].map((c) => c + c).join('') : h.slice(0, 6);
  return [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16));
};
// the theme darkens some 80 shades against up to 36 backgrounds each as the app starts: each
// colour's luminance once, not once per step and background
const luminances = new Map<string, number>();
const luminance = (hex: string) => {
  let l = luminances.get(hex);
  if (l === undefined) {
    const [r, g, b] = rgb(hex).map((v) => channel(v / 255));
    l = 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
    if (luminances.size < 4096) luminances.set(hex, l);
  }
  return l;
};

/** The WCAG ratio of two relative luminances. */
const ratioOf = (la: number, lb: number) => (la >= lb ? (la + 0.05) / (lb + 0.05) : (lb + 0.05) / (la + 0.05));

/** WCAG contrast ratio of two #rgb or #rrggbb colours (1 to 21). */
export function contrast(a: string, b: string): number {
  return ratioOf(luminance(a), luminance(b));
}

/** The first of `candidates` (steps of one colour) reaching `ratio` against every one of `on`, else `fallback`. */
function firstReaching(candidates: (k: number) => string, on: string[], ratio: number, fallback: string): string {
  const backgrounds = on.map(luminance);
  for (let k = 0; k <= 50; k++) {
    const c = candidates(k);
    const l = luminance(c);
    if (backgrounds.every((lb) => ratioOf(l, lb) >= ratio)) return c;
  }
  return fallback;
}

const hex = (v: number[]) => `#${v.map((c) => Math.round(c).toString(16).padStart(2, '0')).join('')}`;

/** The colour, mixed towards black in 2% steps until it reaches `ratio` against every one of `on`. */
export function darkenTo(colour: string, on: string[], ratio: number): string {
  const base = rgb(colour);
  return firstReaching((k) => hex(base.map((v) => v * (1 - k * 0.02))), on, ratio, '#000000');
}

/** The colour, mixed towards white until it reaches `ratio` against every one of `on` (dark surfaces). */
export function lightenTo(colour: string, on: string[], ratio: number): string {
  const base = rgb(colour);
  return firstReaching((k) => hex(base.map((v) => v + (255 - v) * k * 0.02)), on, ratio, '#ffffff');
}
