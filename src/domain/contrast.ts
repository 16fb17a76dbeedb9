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
const luminance = (hex: string) => {
  const [r, g, b] = rgb(hex).map((v) => channel(v / 255));
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
};

/** WCAG contrast ratio of two #rgb or #rrggbb colours (1 to 21). */
export function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

const hex = (v: number[]) => `#${v.map((c) => Math.round(c).toString(16).padStart(2, '0')).join('')}`;

/** The colour, mixed towards black in 2% steps until it reaches `ratio` against every one of `on`. */
export function darkenTo(colour: string, on: string[], ratio: number): string {
  const base = rgb(colour);
  for (let k = 0; k <= 50; k++) {
    const c = hex(base.map((v) => v * (1 - k * 0.02)));
    if (on.every((bg) => contrast(c, bg) >= ratio)) return c;
  }
  return '#000000';
}

/** The colour, mixed towards white until it reaches `ratio` against every one of `on` (dark surfaces). */
export function lightenTo(colour: string, on: string[], ratio: number): string {
  const base = rgb(colour);
  for (let k = 0; k <= 50; k++) {
    const c = hex(base.map((v) => v + (255 - v) * k * 0.02));
    if (on.every((bg) => contrast(c, bg) >= ratio)) return c;
  }
  return '#ffffff';
}
