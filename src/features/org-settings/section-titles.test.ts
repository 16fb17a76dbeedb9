import { describe, expect, it } from 'vitest';
import { ORG_SETTINGS_TITLES } from './section-titles';
import { ORG_SETTINGS_SECTIONS } from './sections';

describe('organisation settings sections', () => {
  it('every section has its title, in menu order, from the one list the page titles read too', () => {
    expect(ORG_SETTINGS_SECTIONS.map((s) => [s.id, s.title])).toEqual(Object.entries(ORG_SETTINGS_TITLES));
  });
});
