import { mergeMantineTheme, DEFAULT_THEME } from '@mantine/core';
const t0 = performance.now();
const { theme, cssVariablesResolver } = await import('./src/app/theme.ts');
const t1 = performance.now();
const gm = await import('./node_modules/@mantine/core/esm/core/MantineProvider/MantineCssVariables/get-merged-variables.mjs');
const rd = await import('./node_modules/@mantine/core/esm/core/MantineProvider/MantineCssVariables/remove-default-variables.mjs');
const cv = await import('./node_modules/@mantine/core/esm/core/MantineProvider/convert-css-variables/convert-css-variables.mjs');
const full = mergeMantineTheme(DEFAULT_THEME, theme);
for (let i = 0; i < 3; i++) {
const a = performance.now();
const css = cv.convertCssVariables(rd.removeDefaultVariables(gm.getMergedVariables({ theme: full, generator: cssVariablesResolver })), undefined);
console.log('css vars ms', (performance.now() - a).toFixed(1), 'bytes', css.length);
}
console.log('theme import ms', (t1 - t0).toFixed(1));
