import { describe, expect, it } from 'vitest';
import { DEFAULT_THEME } from '@mantine/core';
import { accessibleColors, BRAND_COLORS, contrast, darkenTo } from './palette';
import { THEME_COLORS } from './theme-colors';
import { theme } from './theme';

describe('the accessible palette (issue 16: 4.5:1 text, 3:1 graphics)', () => {
  const colors = theme.colors as Record<string, readonly string[]>;
  const names = Object.keys(colors).filter((n) => n !== 'dark');

  it('computes WCAG contrast ratios', () => {
    expect(contrast('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrast('#868e96', '#ffffff')).toBeCloseTo(3.32, 2);
    expect(contrast('#ffffff', '#ffffff')).toBe(1);
  });

  it('darkens only as far as needed', () => {
    expect(darkenTo('#495057', ['#ffffff'], 4.5)).toBe('#495057');
    const d = darkenTo('#fab005', ['#ffffff'], 4.5);
    expect(contrast(d, '#ffffff')).toBeGreaterThanOrEqual(4.5);
    expect(contrast(darkenTo('#fab005', ['#ffffff'], 4.4), '#ffffff')).toBeLessThan(contrast(d, '#ffffff') + 0.5);
  });

  it.each(names)('%s: shade 6 draws at 3:1 (and reads at 4.5:1), shades 7 and 8 carry text (and white text) at 4.5:1, shade 9 reads on its tint', (name) => {
    const p = colors[name]!;
    for (const bg of ['#ffffff', DEFAULT_THEME.colors.gray[1], colors.tide![0]!, colors.tide![1]!]) expect(contrast(p[6]!, bg)).toBeGreaterThanOrEqual(4.5);
    for (const bg of ['#ffffff', DEFAULT_THEME.colors.gray[0], DEFAULT_THEME.colors.gray[1]]) {
      expect(contrast(p[7]!, bg)).toBeGreaterThanOrEqual(4.5);
      expect(contrast(p[8]!, bg)).toBeGreaterThanOrEqual(4.5);
    }
    expect(contrast(p[9]!, p[1]!)).toBeGreaterThanOrEqual(4.5);
    expect(contrast(p[9]!, p[0]!)).toBeGreaterThanOrEqual(4.5);
  });

  it('the dimmed grey reads at 4.5:1 on white and the grey surfaces', () => {
    for (const bg of ['#ffffff', DEFAULT_THEME.colors.gray[0], DEFAULT_THEME.colors.gray[1]]) expect(contrast(colors.gray![6]!, bg)).toBeGreaterThanOrEqual(4.5);
  });

  it('the theme\'s palettes, computed ahead of time, are what the rules above compute (else: npm run gen:theme-colors)', () => {
    expect(THEME_COLORS).toEqual(accessibleColors(BRAND_COLORS));
    expect(theme.colors).toBe(THEME_COLORS);
  });

  it('keeps the lighter shades and the dark scheme surfaces as they were', () => {
    const all = accessibleColors({});
    expect(all.dark).toEqual(DEFAULT_THEME.colors.dark);
    expect(all.blue!.slice(0, 6)).toEqual(DEFAULT_THEME.colors.blue.slice(0, 6));
  });
});
