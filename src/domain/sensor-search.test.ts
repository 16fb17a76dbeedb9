import { describe, expect, it } from 'vitest';
import { createSensorSearch } from './sensor-search';

const sensors = [
  { name: 'Bore 7 Pressure', serial: '5E6F7081' },
  { name: 'Main Reservoir', serial: '1A2B3C4D' },
  { name: 'Stock Tank North', serial: '2B3C4D5E' },
];

describe('sensor search (monitoring-client 5: fuzzy over name and serial, threshold 0.2)', () => {
  const search = createSensorSearch(sensors);
  it('returns all sensors in their order for a trimmed empty query', () => {
    expect(search('   ')).toEqual(sensors);
  });
  it('finds by name with a typo and by serial', () => {
    expect(search('Resevoir').map((s) => s.name)).toEqual(['Main Reservoir']);
    expect(search('5e6f').map((s) => s.serial)).toEqual(['5E6F7081']);
  });
  it('does not match loosely related text at threshold 0.2', () => {
    expect(search('zzqy')).toEqual([]);
  });
});
