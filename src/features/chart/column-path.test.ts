import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type uPlot from 'uplot';
import { columnPath, columnPathBreaking } from './column-path';

// The line's path: joined through every point, or left open across a span (a chunk still arriving, issue 34).
class RecordingPath {
  ops: string[] = [];
  moveTo(x: number, y: number) {
    this.ops.push(`M${x},${y}`);
  }
  lineTo(x: number, y: number) {
    this.ops.push(`L${x},${y}`);
  }
}
const saved = (globalThis as { Path2D?: unknown }).Path2D;
beforeAll(() => void ((globalThis as { Path2D?: unknown }).Path2D = RecordingPath));
afterAll(() => void ((globalThis as { Path2D?: unknown }).Path2D = saved));

/** A 100 px plot over x 0..100 s, y drawn as its own value. */
const plot = (xs: number[], ys: number[]) =>
  ({ data: [xs, ys], series: [{}, {}], scales: { x: { min: 0, max: 100 } }, bbox: { left: 0, width: 100 }, valToPos: (v: number) => v }) as unknown as uPlot;
const ops = (builder: uPlot.Series.PathBuilder, xs: number[], ys: number[]) => (builder(plot(xs, ys), 1, 0, xs.length - 1)!.stroke as unknown as RecordingPath).ops;

describe('column path', () => {
  const xs = [0, 10, 20, 70, 80];
  const ys = [1, 2, 3, 4, 5];

  it('joins every point by default', () => {
    expect(ops(columnPath, xs, ys)).toEqual(['L0,1', 'L10,2', 'L20,3', 'L70,4', 'L80,5']);
  });

  it('leaves a span longer than the gap unjoined, and joins the rest', () => {
    expect(ops(columnPathBreaking(() => 30), xs, ys)).toEqual(['L0,1', 'L10,2', 'L20,3', 'M70,4', 'L80,5']);
    expect(ops(columnPathBreaking(() => 50), xs, ys)).toEqual(['L0,1', 'L10,2', 'L20,3', 'L70,4', 'L80,5']);
  });
});
