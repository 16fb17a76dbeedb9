import { describe, expect, it } from 'vitest';
import { SummaryStream } from './summary-stream';

/** Feeds a body in pieces of the given sizes (cycled); answers every row answered and what finish() gives. */
function feed(body: string, sizes: number[]) {
  const s = new SummaryStream();
  const rows: unknown[] = [];
  let batches = 0;
  for (let i = 0, k = 0; i < body.length; k++) {
    const n = sizes[k % sizes.length]!;
    const got = s.push(body.slice(i, i + n));
    if (got.length > 0) batches++;
    rows.push(...got);
    i += n;
  }
  const rest = s.finish();
  return { rows: [...rows, ...rest.rows], rest, batches };
}

describe('the whole compact list read as it streams (issue 32)', () => {
  // rows with what could confuse a scanner: brackets, braces, commas and escaped quotes in strings, nulls, nesting
  const rows = [
    ['id-1', 'AA000001', 'Tank [north], "old"', -41.3, 174.7, true, null],
    ['id-2', 'AA000002', 'Pump {2} \\ back\\"slash', null, null, false, { type: 'VOLUME', d: [1, 2] }],
    ['id-3', 'AA000003', 'Weir ]}', 1e-7, -0.5, true, []],
  ];
  const body = JSON.stringify({ fields: ['id', 'serial', 'name', 'latitude', 'longitude', 'x', 'y'], rows, cursor: 1234 });

  it('answers each row once it is complete, however the body is cut, and the fields and cursor at the end', () => {
    for (const sizes of [[1], [2, 3], [7], [40], [body.length]]) {
      const got = feed(body, sizes);
      expect(got.rows).toEqual(rows);
      expect(got.rest).toMatchObject({ fields: ['id', 'serial', 'name', 'latitude', 'longitude', 'x', 'y'], cursor: 1234 });
    }
    // cut small, the rows come over several pieces, before the body ends
    expect(feed(body, [30]).batches).toBeGreaterThan(1);
  });

  it("reads the server's streamed text (rows joined in batches, no cursor after an empty list)", () => {
    const streamed = `{"fields":["id"],"rows":[` + '["a"],["b"]' + ',' + '["c"]' + `],"cursor":5}`;
    expect(feed(streamed, [9]).rows).toEqual([['a'], ['b'], ['c']]);
    expect(feed('{"fields":["id"],"rows":[]}', [4]).rest).toEqual({ fields: ['id'], rows: [] });
  });

  it('a body of another shape is parsed whole at the end, and one cut short is an error', () => {
    const other = JSON.stringify({ rows: [['a']], fields: ['id'], total: 3 });
    const got = feed(other, [5]);
    expect(got.batches).toBe(0);
    expect(got.rest).toEqual({ rows: [['a']], fields: ['id'], total: 3 });
    expect(feed(' { "fields" : ["id"] , "rows" : [ ["a"] ] } ', [3]).rows).toEqual([['a']]);
    const s = new SummaryStream();
    s.push(body.slice(0, body.length - 20));
    expect(() => s.finish()).toThrow();
  });
});
