import { describe, expect, it } from 'vitest';
import type { ViewResult } from '../../../workers/data-api';
import { pointText, summaryText, timeText, trendOf } from './chart-reading';

const at = Date.UTC(2026, 10, 17, 1, 5) / 1000; // 14:05 in Auckland (NZDT)
const view = (values: number[]): ViewResult => ({
  time: Float64Array.from(values, (_, i) => at + i * 3600),
  value: Float64Array.from(values),
  min: Math.min(...values),
  max: Math.max(...values),
  rawPoints: values.length * 60,
});

describe('the chart in words (issue 16)', () => {
  it('says a point in the chosen zone and unit', () => {
    expect(timeText(at, 'Pacific/Auckland')).toBe('Tue 17 Nov 2026, 14:05 NZDT');
    expect(timeText(at, 'UTC')).toBe('Tue 17 Nov 2026, 01:05 UTC');
    expect(pointText(view([1.2345, 2]), 0, 'Pacific/Auckland', 'm', 3)).toBe('Tue 17 Nov 2026, 14:05 NZDT: 1.234 m. Point 1 of 2.');
  });

  it('summarises range, lowest, highest, latest and trend', () => {
    const s = summaryText(view([1.5, 1.2, 1.9, 1.8]), 'Water Level (m)', 'Pacific/Auckland', 'm', 2);
    expect(s).toBe(
      'Water Level (m) from Tue 17 Nov 2026, 14:05 NZDT to Tue 17 Nov 2026, 17:05 NZDT, 240 measurements. ' +
        'Lowest 1.20 m at Tue 17 Nov 2026, 15:05 NZDT. Highest 1.90 m at Tue 17 Nov 2026, 16:05 NZDT. ' +
        'Latest 1.80 m at Tue 17 Nov 2026, 17:05 NZDT. Trend: rising by 0.30 m over the window.',
    );
    expect(summaryText(view([]), 'Flow Rate (l/s)', 'UTC', 'l/s', 0)).toBe('Flow Rate (l/s): no measurements in this window.');
  });

  it('calls a change under 2% of the drawn span steady', () => {
    expect(trendOf(view([1, 2, 1.01])).trend).toBe('steady');
    expect(trendOf(view([2, 1, 1.5])).trend).toBe('falling');
    expect(trendOf(view([5])).trend).toBe('steady');
  });
});
