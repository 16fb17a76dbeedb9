import { describe, expect, it } from 'vitest';
import { fitWithin } from './photo';

// issue 33: a photo is scaled to at most 1,600 px on the device before it is stored
describe('photo scaling', () => {
  it('fits the long side within 1600 px, keeps the aspect, never enlarges', () => {
    expect(fitWithin(4032, 3024)).toEqual({ width: 1600, height: 1200 });
    expect(fitWithin(3024, 4032)).toEqual({ width: 1200, height: 1600 });
    expect(fitWithin(800, 600)).toEqual({ width: 800, height: 600 });
    expect(fitWithin(1600, 1600)).toEqual({ width: 1600, height: 1600 });
  });
});
