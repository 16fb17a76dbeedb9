// Reference for the store's contents: whatever order chunks arrive in, the store holds every
// time once, sorted, with the value of the last chunk (and within it the last point) that had it.
import type { Columns } from './sort-chunk';

export class RefStore {
  private rows = new Map<number, number>();

  merge(time: ArrayLike<number>, value: ArrayLike<number>): number {
    for (let i = 0; i < time.length; i++) this.rows.set(time[i], Math.fround(value[i]));
    return this.rows.size;
  }

  get length(): number {
    return this.rows.size;
  }

  columns(): Columns {
    const times = [...this.rows.keys()].sort((a, b) => a - b);
    return { time: Float64Array.from(times), value: Float32Array.from(times, (t) => this.rows.get(t)!) };
  }
}
