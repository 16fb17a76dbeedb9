import { describe, expect, it } from 'vitest';
import { boxHolds, drawBox } from './sensor-layers';

describe('the box deck.gl is given items for', () => {
  it('is asked for again only when the view leaves it', () => {
    const view = { west: 174, south: -42, east: 175, north: -41 };
    const box = drawBox(view);
    expect(boxHolds(box, view)).toBe(true);
    expect(boxHolds(box, { west: 174.9, south: -42, east: 175.9, north: -41 })).toBe(true); // most of a view's pan
    expect(boxHolds(box, { west: 175.1, south: -42, east: 176.1, north: -41 })).toBe(false);
    expect(boxHolds(box, { west: 174, south: -43.1, east: 175, north: -42.1 })).toBe(false);
    expect(boxHolds(drawBox({ west: -150, south: -60, east: 10, north: 60 }), { west: 100, south: -60, east: 260, north: 60 })).toBe(true);
  });
});
