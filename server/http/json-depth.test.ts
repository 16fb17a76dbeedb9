import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, JsonTooDeep, jsonTooDeep, parseClientJson } from './json-depth';
import { findBadText } from './input-guard';

const nested = (depth: number, inner = '0') => '['.repeat(depth) + inner + ']'.repeat(depth);

describe('JSON nesting depth (issue 35)', () => {
  it('takes 64 levels and refuses 65, arrays and objects alike', () => {
    expect(jsonTooDeep(nested(MAX_JSON_DEPTH))).toBe(false);
    expect(jsonTooDeep(nested(MAX_JSON_DEPTH + 1))).toBe(true);
    expect(jsonTooDeep('{"a":'.repeat(65) + '1' + '}'.repeat(65))).toBe(true);
    expect(jsonTooDeep('{"a":'.repeat(64) + '1' + '}'.repeat(64))).toBe(false);
  });

  it('counts no brackets inside strings, escaped quotes included', () => {
    expect(jsonTooDeep(JSON.stringify({ a: '['.repeat(1000) }))).toBe(false);
    expect(jsonTooDeep(JSON.stringify({ a: '\\"' + '{'.repeat(1000) }))).toBe(false);
    expect(jsonTooDeep(JSON.stringify(['"', '['.repeat(100)]))).toBe(false);
    // siblings do not add up: depth is nesting, not count
    expect(jsonTooDeep(JSON.stringify(Array.from({ length: 1000 }, () => [[1]])))).toBe(false);
  });

  it('parseClientJson refuses deep text before parsing and parses the rest', () => {
    expect(() => parseClientJson(nested(15_000, '"\\u0000"'))).toThrow(JsonTooDeep);
    expect(parseClientJson('{"a":[1,{"b":"]"}]}')).toEqual({ a: [1, { b: ']' }] });
    expect(() => parseClientJson('{"a":')).toThrow(SyntaxError);
  });

  it('findBadText walks a value of any depth without overflowing the stack', () => {
    let value: unknown = 'a\u0000b';
    for (let i = 0; i < 100_000; i++) value = [value];
    expect(findBadText(value)).toBe(Array(100_000).fill(0).join('.'));
    expect(findBadText({ a: ['ok', { b: 'x\ud800' }] })).toBe('a.1.b');
    expect(findBadText({ ['k\u0000']: 1 })).toBe('(key)');
    expect(findBadText({ a: 'ok' })).toBeUndefined();
  });
});
