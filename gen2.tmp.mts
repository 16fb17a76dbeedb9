const { accessibleColors } = await import('./src/app/palette.ts');
for (let i = 0; i < 3; i++) { const a = performance.now(); accessibleColors({ x: ['#e5f7f9', '#d2eef2', '#a6dce4', '#76c9d5', '#4fb8c8', '#36adc0', '#2391a6', '#137f93', '#006f83', '#005f70'] as any }); console.log('palette ms', (performance.now() - a).toFixed(2)); }
