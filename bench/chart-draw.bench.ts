// Benchmark 5: in headless Chromium, a year of raw 1-minute points against the M4 output of the
// same window. Two comparisons: (a) both through the product's own column path (column-path.ts):
// pixel equality holds by construction there and the speed-up is mostly one JS loop over the raw
// points; (b) stock uPlot, its default linear path, drawing the raw points (the same options
// otherwise) against ours: the honest speed-up, with the pixels that differ. The proof of pixel
// exactness is the raster property test (wasm-core/m4.test.ts), not this benchmark.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type uPlot from 'uplot';
import type { Rollup } from 'vite';
import { CHROMIUM_LAUNCH, launchBrowser } from '../tests/e2e/browser';
import { loadCore } from '../wasm-core/core';
import { makeSeries, median, RUNS, viteBuild, type BenchRow } from './bench-kit';

const N = 525_600;
const WIDTH = 1000; // CSS px of the chart, as on a desktop dashboard
const HEIGHT = 335;

const require = createRequire(import.meta.url);
const uplotCss = readFileSync(require.resolve('uplot/dist/uPlot.min.css'), 'utf8');
const root = fileURLToPath(new URL('..', import.meta.url));

/** The product's chart drawing (uPlot with src/features/chart/uplot-options.ts), bundled for the page. */
async function pageBundle(): Promise<string> {
  const entry = `
    import uPlot from 'uplot';
    import { baseOptions } from '/src/features/chart/uplot-options.ts';
    import { padRange } from '/src/features/chart/chart-scales.ts';
    window.makeChart = (el, width, height, x0, x1, stock) => {
      const o = baseOptions({ width, height, color: '#1c7ed6', xRange: () => [x0, x1], yRange: padRange, timeZone: () => 'Pacific/Auckland', decimals: () => 0 });
      // stock: uPlot's default path builder instead of the product's column path
      if (stock) o.series = o.series.map((s) => { const { paths, ...rest } = s; return rest; });
      return new uPlot({ ...o, cursor: { show: false } }, [new Float64Array(0), new Float64Array(0)], el);
    };
  `;
  const out = (await viteBuild({
    root,
    configFile: false,
    logLevel: 'silent',
    plugins: [{ name: 'bench-entry', resolveId: (id) => (id === 'bench-entry' ? '\0bench-entry' : null), load: (id) => (id === '\0bench-entry' ? entry : null) }],
    build: { write: false, minify: false, rollupOptions: { input: 'bench-entry', output: { format: 'iife' } } },
  })) as Rollup.RollupOutput | Rollup.RollupOutput[];
  const chunk = (Array.isArray(out) ? out[0] : out).output.find((o) => o.type === 'chunk');
  if (!chunk || chunk.type !== 'chunk') throw new Error('could not bundle the chart for the page');
  return chunk.code;
}

type U = uPlot;

export async function run(): Promise<BenchRow[]> {
  const { time, value } = makeSeries(N);
  const t0 = time[0];
  const t1 = time[N - 1];
  const browser = await launchBrowser(CHROMIUM_LAUNCH);
  try {
    const page = await browser.newPage({ viewport: { width: WIDTH + 40, height: 3 * HEIGHT + 120 }, deviceScaleFactor: 1 });
    await page.setContent(`<html><head><style>${uplotCss} body{margin:0;font:12px sans-serif}</style></head><body><div id="a"></div><div id="b"></div><div id="c"></div></body></html>`);
    await page.evaluate('window.__name = (f) => f'); // tsx keeps function names with a helper the page lacks
    await page.addScriptTag({ content: await pageBundle() });

    // two identical product charts, x fixed to the window; the raw side goes first so that the axes settle
    const plotWidth = await page.evaluate(
      ({ w, h, x0, x1 }) => {
        const w_ = window as unknown as Record<string, unknown> & { makeChart: (el: HTMLElement, w: number, h: number, x0: number, x1: number, stock?: boolean) => U };
        w_.raw = w_.makeChart(document.getElementById('a')!, w, h, x0, x1);
        w_.m4 = w_.makeChart(document.getElementById('b')!, w, h, x0, x1);
        w_.stock = w_.makeChart(document.getElementById('c')!, w, h, x0, x1, true);
        return (w_.raw as U).bbox.width;
      },
      { w: WIDTH, h: HEIGHT, x0: t0 / 1000, x1: t1 / 1000 },
    );

    // M4 to the plot's pixel columns with the product's WASM core
    const core = await loadCore();
    const m4 = core.m4(time, value, t0, t1, plotWidth);
    const toSeconds = (t: Float64Array) => Array.from(t, (x) => x / 1000);
    await page.evaluate(
      ({ rt, rv, mt, mv }) => {
        const w_ = window as unknown as Record<string, unknown>;
        w_.rawData = [Float64Array.from(rt), Float64Array.from(rv)];
        w_.m4Data = [Float64Array.from(mt), Float64Array.from(mv)];
      },
      { rt: toSeconds(time), rv: Array.from(value), mt: toSeconds(m4.time), mv: Array.from(m4.value) },
    );

    // draw each side (setData, then uPlot's commit microtask), warmed up, interleaved
    const timings = await page.evaluate(async (runs) => {
      const w_ = window as unknown as Record<string, never>;
      // Chromium clamps performance.now() to 0.1 ms: time five draws per sample
      const REPEAT = 5;
      const draw = async (u: U, data: uPlot.AlignedData) => {
        const t = performance.now();
        for (let k = 0; k < REPEAT; k++) {
          u.setData(data);
          await new Promise<void>((r) => queueMicrotask(r));
          u.ctx.getImageData(0, 0, 1, 1); // the draw has reached the canvas
        }
        return (performance.now() - t) / REPEAT;
      };
      const raw: number[] = [];
      const m4: number[] = [];
      const stock: number[] = [];
      for (let i = 0; i < 3 + runs; i++) {
        const a = await draw(w_.raw, w_.rawData);
        const b = await draw(w_.m4, w_.m4Data);
        const c = await draw(w_.stock, w_.rawData);
        if (i >= 3) {
          raw.push(a);
          m4.push(b);
          stock.push(c);
        }
        await new Promise((r) => setTimeout(r, 0));
      }
      return { raw, m4, stock };
    }, Math.max(RUNS, 15));

    const diffOf = (other: 'raw' | 'stock') => page.evaluate((other) => {
      const w_ = window as unknown as Record<string, U>;
      const a = w_[other].ctx.getImageData(0, 0, w_[other].ctx.canvas.width, w_[other].ctx.canvas.height).data;
      const b = w_.m4.ctx.getImageData(0, 0, w_.m4.ctx.canvas.width, w_.m4.ctx.canvas.height).data;
      let differing = 0;
      let inked = 0;
      for (let i = 0; i < a.length; i += 4) {
        if (a[i] !== b[i] || a[i + 1] !== b[i + 1] || a[i + 2] !== b[i + 2] || a[i + 3] !== b[i + 3]) differing++;
        if (a[i + 3] !== 0) inked++;
      }
      return { differing, pixels: a.length / 4, inked, size: a.length === b.length, widths: [w_[other].bbox.width, w_.m4.bbox.width] };
    }, other);
    const diff = await diffOf('raw');
    const stockDiff = await diffOf('stock');
    if (process.env.BENCH_SHOT) await page.screenshot({ path: process.env.BENCH_SHOT });
    for (const d of [diff, stockDiff]) {
      if (!d.size || d.inked === 0) throw new Error('the canvases differ in size or nothing was drawn');
      if (d.widths.some((w) => w !== plotWidth)) throw new Error(`the plot width moved from ${plotWidth} to ${d.widths.join('/')} px: M4 columns no longer match`);
    }

    return [
      {
        bench: '5 uPlot',
        what: `both through the product's column path (equal pixels by construction; the gain is mostly one JS loop): M4 output (${m4.time.length.toLocaleString('en-GB')} points) vs raw ${N.toLocaleString('en-GB')} points, ${plotWidth} px plot`,
        ours: median(timings.m4),
        baseline: median(timings.raw),
        target: { kind: 'speedup', value: 5 },
      },
      {
        bench: '5 uPlot',
        what: `same path, pixels differing (count, target 0) of ${diff.pixels.toLocaleString('en-GB')}, ${diff.inked.toLocaleString('en-GB')} inked`,
        ours: diff.differing,
        baseline: 1,
        target: { kind: 'cost', value: 0 },
      },
      {
        bench: '5 uPlot',
        what: `ours (M4 + column path) vs stock uPlot's default path drawing the raw ${N.toLocaleString('en-GB')} points, same options otherwise`,
        ours: median(timings.m4),
        baseline: median(timings.stock),
        target: null,
        note: `${stockDiff.differing.toLocaleString('en-GB')} of ${stockDiff.pixels.toLocaleString('en-GB')} pixels differ (${stockDiff.inked.toLocaleString('en-GB')} inked)`,
      },
    ];
  } finally {
    await browser.close();
  }
}
