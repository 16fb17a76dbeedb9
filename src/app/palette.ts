import { DEFAULT_THEME, type MantineColorsTuple } from '@mantine/core';
import { contrast, darkenTo } from '../domain/contrast';

/**
 * WCAG 2.2 AA colour guarantees for the theme (issue 16): text 4.5:1, graphics 3:1, in both colour
 * schemes. Mantine's stock palettes miss them in light mode (its red 7 on white is 3.8:1, yellow
 * 2.1:1, the dimmed grey 3.3:1), so every palette's darker half is darkened, only as far as needed,
 * until it meets them. Which shade serves what (Mantine 9, light scheme):
 *   6  icons, chart lines, status graphics, coloured menu items   >= 4.5:1 on white and gray.1
 *   7  filled backgrounds under white text, `c="red"` text, links (primary shade)   >= 4.6:1
 *   8  filled hover, stronger text               >= 5.5:1
 *   9  the text of light variants (badges, alerts) on their shade-1 tint           >= 4.8:1
 * The dark scheme uses shades 0 to 4 on dark surfaces and shade 8 under white text (primaryShade),
 * which these rules leave as dark as or darker than Mantine's.
 */

export { contrast, darkenTo };

/** Calm water: a blue-teal primary ("tide") from shallow to deep, and a deep-water navy for brand surfaces. */
export const BRAND_COLORS: Record<string, MantineColorsTuple> = {
  tide: ['#e5f7f9', '#d2eef2', '#a6dce4', '#76c9d5', '#4fb8c8', '#36adc0', '#2391a6', '#137f93', '#006f83', '#005f70'],
  deep: ['#e8f3f8', '#d3e4ec', '#a3c8d9', '#70aac5', '#4791b4', '#2e82aa', '#1f7aa7', '#0f6892', '#0b5c7a', '#004a68'],
};

const WHITE = '#ffffff';
const GRAY_0 = DEFAULT_THEME.colors.gray[0];
const GRAY_1 = DEFAULT_THEME.colors.gray[1];

/** A palette whose darker half meets the guarantees above (lighter shades kept). */
export function accessiblePalette(p: readonly string[]): MantineColorsTuple {
  const c = [...p];
  // shade 6 is also text (coloured menu items such as Log out): 4.5:1, not only 3:1
  c[6] = darkenTo(c[6]!, [WHITE, GRAY_1], 4.6);
  c[7] = darkenTo(c[7]!, [WHITE, GRAY_0, GRAY_1], 4.6);
  c[8] = darkenTo(c[8]!, [WHITE, GRAY_0, GRAY_1], 5.5);
  c[9] = darkenTo(c[9]!, [WHITE, GRAY_1, c[0]!, c[1]!], 4.8);
  return c as unknown as MantineColorsTuple;
}

/** Every Mantine palette but `dark` (the dark scheme's surfaces), made accessible, plus ours. */
export function accessibleColors(own: Record<string, MantineColorsTuple>): Record<string, MantineColorsTuple> {
  const all: Record<string, MantineColorsTuple> = {};
  for (const [name, p] of Object.entries({ ...DEFAULT_THEME.colors, ...own })) all[name] = name === 'dark' ? p : accessiblePalette(p);
  const tints = Object.entries(all).flatMap(([name, p]) => (name === 'dark' ? [] : [p[0], p[1]]));
  // shade 6 (weekend days, coloured menu items) may sit on a light tint, the primary's selection in
  // a date range above all: 4.5:1 there too
  for (const [name, p] of Object.entries(all)) if (name !== 'dark') all[name] = p.map((v, i) => (i === 6 ? darkenTo(v, [WHITE, GRAY_1, ...tints], 4.6) : v)) as unknown as MantineColorsTuple;
  // the dimmed grey (gray 6) is body text too: 4.6:1 on white, the grey surfaces and every light tint (alerts)
  all.gray = all.gray!.map((v, i) => (i === 6 ? darkenTo(v, [WHITE, GRAY_0, GRAY_1, ...tints], 4.6) : v)) as unknown as MantineColorsTuple;
  return all;
}
